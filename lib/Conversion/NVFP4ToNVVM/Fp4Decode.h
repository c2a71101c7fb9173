//===- Fp4Decode.h - e2m1 and e4m3 decoding per target ----------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// How the lowerings turn packed e2m1 values and e4m3 scales into numbers:
// sm_100a's cvt.rn.f16x2.e2m1x2; on sm_90a (no fp4 instruction there) the
// GEMV's byte-permute (prmt) table lookups and the tensor-core kernels'
// bits placed where f16's or bf16's are. Private to
// lib/Conversion/NVFP4ToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_FP4DECODE_H
#define NVFP4_CONVERSION_NVFP4TONVVM_FP4DECODE_H

#include "KernelBuilder.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Dialect/NVFP4/BlockFormat.h"

namespace mlir::nvfp4 {

/// sm_100a: one 32-bit word of 8 packed e2m1 values to 4 f16x2 pairs with
/// cvt.rn.f16x2.e2m1x2, one per byte: pairs (2j, 2j+1).
SmallVector<Value> decodeWordF16(KernelBuilder &k, Value word);

/// sm_90a: magnitudes (twice the values, as bytes) of the 4 values whose
/// nibbles are the low 16 bits of `selector`; with `positiveOnly`,
/// negative values read as 0.
Value lookupMagnitudes(KernelBuilder &k, Value selector, bool positiveOnly);

/// sm_90a: a word of 8 values to two words of signed bytes (twice the
/// values; elements 0-3 and 4-7).
SmallVector<Value> decodeWordSigned(KernelBuilder &k, Value word);

/// sm_90a: the exact integer dot product of two words of A (16 values)
/// with B's signed bytes (decodeWordSigned), with dp4a (see the definition).
Value blockDotInt(KernelBuilder &k, ArrayRef<Value> aWords,
                  ArrayRef<Value> bSigned);

/// Decodes the `count` scale bytes of vector `raw` to f32: e4m3 (count 2
/// or 4) with cvt.rn.f16x2.e4m3x2, or e8m0 (count 1 or 2) by placing the
/// code in the exponent field (code 0 is the subnormal 2^-127, 0xFF NaN),
/// so a decoded e8m0 scale's bits shifted right by 23 give its code back.
SmallVector<Value> decodeScales(KernelBuilder &k, Value raw, int64_t count,
                                BlockFormat format = BlockFormat::nvfp4());

/// MXFP4: the exact block sum `sum` times 2^(ca + cb - 254) for the
/// decoded e8m0 scales `sa` and `sb`, as a pair (x, f) whose product x * f
/// rounded is that value rounded once: the exponent is split in
/// two halves, each a representable power of two, so no intermediate
/// overflows or flushes where the exact product does not; NaN if either
/// code is 0xFF.
std::pair<Value, Value> scaleByCodes(KernelBuilder &k, Value sum, Value sa,
                                     Value sb);

/// The e4m3 code in the low 8 bits of an i32, as an f16x2 splat.
Value scaleSplat(KernelBuilder &k, Value code);

/// sm_90a, for the tensor cores: the 8 e2m1 values of `word` times
/// `scale` (an f16x2 splat) times kNVFP4OperandScale (2^-14) as 4 f16x2
/// pairs (i32): nibbles (0, 2), (1, 3), (4, 6) and (5, 7) (low half, high
/// half). Exact: e2m1 x e4m3 x 2^-14 fits f16.
SmallVector<Value, 4> decodeWordPairs(KernelBuilder &k, Value word,
                                      Value scale);

/// The e8m0 code in the low 8 bits of an i32 as a bf16x2 splat of
/// 2^(code - 127) x kMXOperandScale (ATileWorkspace.h: a subnormal for
/// codes below 3; NaN for 0xFF).
Value scaleSplatMX(KernelBuilder &k, Value code);

/// The largest e8m0 code whose scaleSplatMXRestoring splat is a bf16.
constexpr int64_t kMXRestoringCodeMax = 130;

/// scaleSplatMX times 2^126: 2^(code - 3), for codes up to
/// kMXRestoringCodeMax (all normal bf16s).
Value scaleSplatMXRestoring(KernelBuilder &k, Value code);

/// decodeWordPairs for MXFP4: the 8 e2m1 values of `word` times `scale`
/// (scaleSplatMX) as 4 bf16x2 pairs, pair j from nibbles j and j + 4.
/// Exact: each value's bits placed where bf16's are give it times 2^-126
/// (e2m1's subnormal 0.5 lands on bf16's), an exact multiply by 2^126
/// restores it, and one by the scale gives a bf16 value. With
/// `scaleRestores` the scale is scaleSplatMXRestoring's, which does both
/// in one multiply (exact too: a power of two whose product stays above
/// bf16's smallest subnormal).
SmallVector<Value, 4> decodeWordPairsMX(KernelBuilder &k, Value word,
                                        Value scale,
                                        bool scaleRestores = false);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_FP4DECODE_H
