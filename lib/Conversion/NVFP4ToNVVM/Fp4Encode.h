//===- Fp4Encode.h - fp32 to e2m1 and e4m3 scales per target ----*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// NVFP4 quantization as nvfp4.quantize defines it, for every kernel that
// writes NVFP4: bit for bit the CPU reference's in the quantize kernel
// (Quantize.cpp); within 2 ulp of it (nvfp4BlockScale's `inverse`) for a
// GEMM's NVFP4 C (Epilogue.cpp), whose values are within a tolerance. e2m1 is sm_100a's
// cvt.rn.satfinite.e2m1x2.f32, or on sm_90a (no fp4 conversion) a software
// round to nearest even. Private to lib/Conversion/NVFP4ToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_FP4ENCODE_H
#define NVFP4_CONVERSION_NVFP4TONVVM_FP4ENCODE_H

#include "KernelBuilder.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

namespace mlir::nvfp4 {

/// |x| by clearing the sign bit (llvm.fabs would become a libdevice call:
/// convert-gpu-to-nvvm marks it illegal).
Value absF32(KernelBuilder &k, Value x);

/// max(a, b) as max.f32, which returns the other operand where one is NaN.
Value maxF32(KernelBuilder &k, Value a, Value b);

/// The e2m1 code (low 4 bits of an i32) of `y` on sm_90a, as
/// cvt.rn.satfinite.e2m1x2.f32 gives it (see the definition).
Value encodeE2M1Software(KernelBuilder &k, Value y);

/// x / s rounded to nearest f32 from `r` = RN(1 / s), where nothing
/// overflows or underflows (see the definition).
Value divideByScale(KernelBuilder &k, Value x, Value s, Value r);

/// The byte of two e2m1 values: `lo` in bits 0-3, `hi` in bits 4-7 (an
/// i32); by cvt with `hardware` (sm_100a), else in software.
Value encodeE2M1Pair(KernelBuilder &k, Value lo, Value hi, bool hardware);

/// An NVFP4 block's scale, from its amax and the per-tensor scale `global`
/// (null: 1): `code` = amax == 0 ? 0 : e4m3((amax / 6) / global) (an i32),
/// `s` = decode(code) x global, `zero` whether s is 0 (the values are
/// then 0), and what the quotients need: `divisor` (s, or 1 where s is 0),
/// its reciprocal `r`, and `safe`, whether divideByScale applies to every
/// value of the block.
/// With `inverse` (RN(1 / (6 x global)), computed once) the scale comes
/// from amax x inverse and r from an approximate division (div.approx:
/// both within 2 ulp, which a GEMM's NVFP4 C, quantized from values that
/// are themselves within a tolerance, affords); without, exactly as
/// nvfp4.quantize defines it.
struct NVFP4BlockScale {
  Value code, s, zero, divisor, r, safe;
};
NVFP4BlockScale nvfp4BlockScale(KernelBuilder &k, Value amax, Value global,
                                Value inverse = {});

/// An MXFP4 block's scale, from its amax (as nvfp4.quantize defines it,
/// bit for bit the reference's): `code` (an i32) is
///   floor: amax's biased exponent - 2 (0 below, 254 for an infinity);
///   rceil: fl(amax / 6) rounded up to a power of two (a nonzero mantissa
///          adds one to the exponent; subnormals above 2^-127 give 2^-126),
///          at most 254;
/// and `inverse` = 2^(127 - code) (2^-127 a subnormal), built from its
/// bits: x x inverse is the exact scaling the quotients round once.
struct MXBlockScale {
  Value code, inverse;
};
MXBlockScale mxBlockScale(KernelBuilder &k, Value amax, ScaleRounding rounding);

/// The quotients x / s of the block's `values` (of which `amax` is the
/// largest finite magnitude) rounded to nearest, as div.rn.f32 gives them:
/// by divideByScale where `scale.safe`, else divided one by one (a NaN made
/// positive for the encoders).
SmallVector<Value> nvfp4Quotients(KernelBuilder &k,
                                  const NVFP4BlockScale &scale,
                                  ArrayRef<Value> values);

/// The quotients of every block of `blocks` (their scales in `scales`): by
/// divideByScale for all where every block is safe (one branch, so the
/// blocks' arithmetic interleaves), else each divided one by one.
SmallVector<SmallVector<Value>>
nvfp4QuotientsOfBlocks(KernelBuilder &k, ArrayRef<NVFP4BlockScale> scales,
                       ArrayRef<SmallVector<Value>> blocks);

/// Unsigned index arithmetic on integers of one type (i32 or i64) with
/// constants of that type: the blocked layout's addresses.
struct IndexMath {
  ImplicitLocOpBuilder &b;
  Type type;

  Value c(int64_t v) const {
    return arith::ConstantOp::create(b, IntegerAttr::get(type, v));
  }
  Value div(Value v, int64_t d) const {
    return arith::DivUIOp::create(b, v, c(d));
  }
  Value rem(Value v, int64_t d) const {
    return arith::RemUIOp::create(b, v, c(d));
  }
  Value mul(Value v, int64_t d) const {
    return arith::MulIOp::create(b, v, c(d));
  }
  Value add(Value x, Value y) const { return arith::AddIOp::create(b, x, y); }
};

/// The byte offset of scale (`row`, `column`) in one batch of the blocked
/// layout with `chunks` 4-column chunks a row (lib/Reference/Layout.h):
/// atom (row / 128, column / 4) at 512 x (atom row x chunks + chunk), in
/// it (row % 32) x 16 + (row % 128 / 32) x 4 + column % 4. `row`,
/// `column` and the result share one integer type.
Value blockedScaleOffset(ImplicitLocOpBuilder &b, Value row, Value column,
                         int64_t chunks);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_FP4ENCODE_H
