//===- Fp4Decode.cpp - e2m1 and e4m3 decoding per target
//-------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "Fp4Decode.h"

#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;

/// sm_100a: one 32-bit word of 8 packed e2m1 values to 4 f16x2 pairs with
/// cvt.rn.f16x2.e2m1x2, one per byte: pairs (2j, 2j+1).
SmallVector<Value> mlir::nvfp4::decodeWordF16(KernelBuilder &k, Value word) {
  ImplicitLocOpBuilder &b = k.b;
  SmallVector<Value> pairs;
  auto srcType = TypeAttr::get(b.getType<Float4E2M1FNType>());
  for (int j = 0; j < 4; ++j) {
    Value shifted = j ? arith::ShRUIOp::create(b, word, k.c32(8 * j)) : word;
    Value byte = arith::TruncIOp::create(b, k.i8, shifted);
    pairs.push_back(NVVM::ConvertF4x2ToF16x2Op::create(
        b, k.v2f16, byte, b.getBoolAttr(false), srcType));
  }
  return pairs;
}

// sm_90a has no fp4 instruction. Twice an e2m1 value is a small integer
// (0, 1, 2, 3, 4, 6, 8, 12), so a block's dot product is exact in integer
// arithmetic with dp4a. `prmt` looks up 4 magnitudes at once in an 8-byte
// table indexed by the nibbles' low 3 bits. With the nibble's sign bit left
// in the selector, prmt instead replicates the selected byte's top bit
// (always 0 here), which yields the magnitudes of the positive values only.
constexpr int64_t kMagTableLo = 0x03020100; // 2 * {0, 0.5, 1, 1.5}
constexpr int64_t kMagTableHi = 0x0C080604; // 2 * {2, 3, 4, 6}

/// Magnitudes of the 4 values whose nibbles are the low 16 bits of
/// `selector`; with `positiveOnly`, negative values read as 0.
Value mlir::nvfp4::lookupMagnitudes(KernelBuilder &k, Value selector,
                                    bool positiveOnly) {
  ImplicitLocOpBuilder &b = k.b;
  if (!positiveOnly)
    selector = arith::AndIOp::create(b, selector, k.c32(0x7777));
  return NVVM::PermuteOp::create(
      b, k.i32, k.c32(kMagTableLo), k.c32(kMagTableHi), selector,
      NVVM::PermuteModeAttr::get(b.getContext(), NVVM::PermuteMode::DEFAULT));
}

/// sm_90a, B side: a word of 8 values to two words of signed bytes (twice
/// the values; elements 0-3 and 4-7). B is decoded once per step and reused
/// by every row of the warp, so its extra work is amortized.
SmallVector<Value> mlir::nvfp4::decodeWordSigned(KernelBuilder &k, Value word) {
  ImplicitLocOpBuilder &b = k.b;
  SmallVector<Value> out;
  for (Value sel : {word, Value(arith::ShRUIOp::create(b, word, k.c32(16)))}) {
    Value all = lookupMagnitudes(k, sel, /*positiveOnly=*/false);
    Value pos = lookupMagnitudes(k, sel, /*positiveOnly=*/true);
    // neg = all - pos never borrows (pos is all or 0 in each byte); then a
    // bytewise pos - neg: bit 7 set first so no byte borrows from the next.
    Value neg = arith::SubIOp::create(b, all, pos);
    Value diff = arith::SubIOp::create(
        b, arith::OrIOp::create(b, pos, k.c32(0x80808080)), neg);
    out.push_back(arith::XOrIOp::create(b, diff, k.c32(0x80808080)));
  }
  return out;
}

/// sm_90a, A side: adds the dot product of two words of A (16 values) with
/// the signed B bytes to (posAcc, allAcc): with a = sign * |a|,
/// a . b = 2 (|a| of positive a) . b - |a| . b, so four dp4a per word and no
/// per-byte sign handling.
Value mlir::nvfp4::blockDotInt(KernelBuilder &k, ArrayRef<Value> aWords,
                               ArrayRef<Value> bSigned) {
  ImplicitLocOpBuilder &b = k.b;
  auto u8 = NVVM::DotAccumulateTypeAttr::get(b.getContext(),
                                             NVVM::DotAccumulateType::UNSIGNED);
  auto s8 = NVVM::DotAccumulateTypeAttr::get(b.getContext(),
                                             NVVM::DotAccumulateType::SIGNED);
  Type v4i8 = VectorType::get({4}, k.i8);
  auto bytes = [&](Value v) { return LLVM::BitcastOp::create(b, v4i8, v); };
  Value posAcc = k.c32(0), allAcc = k.c32(0);
  for (auto [w, word] : llvm::enumerate(aWords)) {
    Value hi = arith::ShRUIOp::create(b, word, k.c32(16));
    Value halves[2] = {word, hi};
    for (int h = 0; h < 2; ++h) {
      Value bq = bytes(bSigned[2 * w + h]);
      posAcc = NVVM::DotAccumulate4WayOp::create(
          b, k.i32, bytes(lookupMagnitudes(k, halves[h], true)), u8, bq, s8,
          posAcc);
      allAcc = NVVM::DotAccumulate4WayOp::create(
          b, k.i32, bytes(lookupMagnitudes(k, halves[h], false)), u8, bq, s8,
          allAcc);
    }
  }
  Value dot = arith::SubIOp::create(
      b, arith::ShLIOp::create(b, posAcc, k.c32(1)), allAcc);
  return arith::SIToFPOp::create(b, k.f32, dot);
}

/// The f32 bits of e8m0 code `code` (an i32 in [0, 255]).
static Value e8m0Bits(KernelBuilder &k, Value code) {
  ImplicitLocOpBuilder &b = k.b;
  Value normal = arith::ShLIOp::create(b, code, k.c32(23));
  Value isZero =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, code, k.c32(0));
  Value isNaN =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, code, k.c32(0xFF));
  Value bits = arith::SelectOp::create(b, isZero, k.c32(0x00400000), normal);
  return arith::SelectOp::create(b, isNaN, k.c32(0x7FC00000), bits);
}

/// Decodes `count` scale bytes to f32: e4m3 pairs by cvt, e8m0 by their
/// bits (e8m0Bits).
SmallVector<Value> mlir::nvfp4::decodeScales(KernelBuilder &k, Value raw,
                                             int64_t count,
                                             BlockFormat format) {
  ImplicitLocOpBuilder &b = k.b;
  if (format.isMX()) {
    SmallVector<Value> out;
    for (int64_t i = 0; i < count; ++i) {
      Value code = arith::ExtUIOp::create(b, k.i32, k.extract(raw, i));
      out.push_back(arith::BitcastOp::create(b, k.f32, e8m0Bits(k, code)));
    }
    return out;
  }
  auto srcType = TypeAttr::get(b.getType<Float8E4M3FNType>());
  SmallVector<Value> out;
  for (int64_t p = 0; p < count / 2; ++p) {
    Value pair = raw;
    if (count == 4)
      pair = LLVM::ShuffleVectorOp::create(
          b, raw, raw,
          ArrayRef<int32_t>{static_cast<int32_t>(2 * p),
                            static_cast<int32_t>(2 * p + 1)});
    Value h = NVVM::ConvertF8x2ToF16x2Op::create(b, k.v2f16, pair,
                                                 b.getBoolAttr(false), srcType);
    for (int64_t e = 0; e < 2; ++e)
      out.push_back(arith::ExtFOp::create(b, k.f32, k.extract(h, e)));
  }
  return out;
}

std::pair<Value, Value> mlir::nvfp4::scaleByCodes(KernelBuilder &k, Value sum,
                                                  Value sa, Value sb) {
  ImplicitLocOpBuilder &b = k.b;
  auto codeOf = [&](Value scale) {
    return arith::ShRUIOp::create(
        b, arith::BitcastOp::create(b, k.i32, scale), k.c32(23));
  };
  Value ca = codeOf(sa), cb = codeOf(sb);
  Value total = arith::AddIOp::create(b, ca, cb);
  Value half = arith::ShRUIOp::create(b, total, k.c32(1));
  Value rest = arith::SubIOp::create(b, total, half);
  Value first = arith::BitcastOp::create(b, k.f32, e8m0Bits(k, half));
  Value second = arith::BitcastOp::create(b, k.f32, e8m0Bits(k, rest));
  Value isNaN = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq, arith::MaxUIOp::create(b, ca, cb),
      k.c32(0xFF));
  second = arith::SelectOp::create(
      b, isNaN, k.cf32(std::numeric_limits<float>::quiet_NaN()), second);
  return {arith::MulFOp::create(b, sum, first), second};
}

/// The e4m3 code in the low 8 bits of an i32, as an f16x2 splat
/// (cvt.rn.f16x2.e4m3x2: exact, e4m3 is a subset of f16).
Value mlir::nvfp4::scaleSplat(KernelBuilder &k, Value code) {
  ImplicitLocOpBuilder &b = k.b;
  Value byte = arith::AndIOp::create(b, code, k.c32(0xFF));
  Value two =
      arith::OrIOp::create(b, byte, arith::ShLIOp::create(b, byte, k.c32(8)));
  Value pair = LLVM::BitcastOp::create(b, VectorType::get({2}, k.i8),
                                       arith::TruncIOp::create(b, k.i16, two));
  return NVVM::ConvertF8x2ToF16x2Op::create(
      b, k.v2f16, pair, b.getBoolAttr(false),
      TypeAttr::get(b.getType<Float8E4M3FNType>()));
}

static Value prmt(KernelBuilder &k, Value lo, Value hi, int64_t selector) {
  return NVVM::PermuteOp::create(
      k.b, k.i32, lo, hi, k.c32(selector),
      NVVM::PermuteModeAttr::get(k.b.getContext(), NVVM::PermuteMode::DEFAULT));
}

/// The 8 e2m1 values of `word` times 2^-14 times `scale` (an f16x2 splat)
/// as 4 f16x2 pairs (i32). An e2m1 nibble s e1 e0 m whose bits e1 e0 m sit
/// in f16's bits 11 .. 9 and s in bit 15 is an f16 of the value times
/// 2^-14 (e2m1's subnormal 0.5 lands on f16's subnormal 2^-15), so no
/// table: such an f16's high byte is (m bits) << 1 | s << 7, a byte per
/// nibble in two shifts and masks (15 instructions a word with the
/// placement and the multiplies, against 19 for the looked-up magnitudes
/// before; performance.md, decode v3):
/// - `even` holds those bytes of nibbles 0, 2, 4, 6 (byte i: nibble 2i,
///   its magnitude shifted left 1, its sign bit 3 to bit 7), `odd` of
///   nibbles 1, 3, 5, 7 (magnitude shifted right 3, the sign in place);
/// - pair j places two bytes of one of them in the high bytes of its
///   halves and zeros (a zero register) in the low bytes: nibbles (0, 2),
///   (1, 3), (4, 6), (5, 7) for j = 0 .. 3;
/// - one f16x2 multiply applies the scale. Exact: value x scale has at most
///   6 significant bits and is a multiple of 2^-10, so times 2^-14 it is a
///   multiple of f16's smallest subnormal 2^-24 below 2^-2.
SmallVector<Value, 4> mlir::nvfp4::decodeWordPairs(KernelBuilder &k, Value word,
                                                   Value scale) {
  ImplicitLocOpBuilder &b = k.b;
  auto masked = [&](Value v, int64_t mask) {
    return arith::AndIOp::create(b, v, k.c32(static_cast<int32_t>(mask)));
  };
  Value even = arith::OrIOp::create(
      b, masked(arith::ShLIOp::create(b, word, k.c32(1)), 0x0E0E0E0E),
      masked(arith::ShLIOp::create(b, word, k.c32(4)), 0x80808080u));
  Value odd = arith::OrIOp::create(
      b, masked(arith::ShRUIOp::create(b, word, k.c32(3)), 0x0E0E0E0E),
      masked(word, 0x80808080u));
  SmallVector<Value, 4> pairs;
  for (int64_t j = 0; j < 4; ++j) {
    // Bytes (0, byte 2 (j / 2), 0, byte 2 (j / 2) + 1) of even (j even) or
    // odd; selector 4 is the zero operand's first byte.
    int64_t first = 2 * (j / 2);
    Value bits = prmt(k, j % 2 ? odd : even, k.c32(0),
                      4 | (first << 4) | (4 << 8) | ((first + 1) << 12));
    Value halves = LLVM::BitcastOp::create(b, k.v2f16, bits);
    pairs.push_back(LLVM::BitcastOp::create(
        b, k.i32, arith::MulFOp::create(b, halves, scale)));
  }
  return pairs;
}

/// The bf16 whose bits are the low 16 of `bits` (i32), in both halves.
static Value splatBF16(KernelBuilder &k, Value bits) {
  ImplicitLocOpBuilder &b = k.b;
  Value two =
      arith::OrIOp::create(b, bits, arith::ShLIOp::create(b, bits, k.c32(16)));
  return LLVM::BitcastOp::create(b, VectorType::get({2}, b.getBF16Type()), two);
}

Value mlir::nvfp4::scaleSplatMX(KernelBuilder &k, Value code) {
  ImplicitLocOpBuilder &b = k.b;
  Value byte = arith::AndIOp::create(b, code, k.c32(0xFF));
  // 2^(code - 129): exponent field code - 2 from code 3 on, below that the
  // subnormals 2^-127 .. 2^-129 (mantissa 0x40 >> (2 - code)).
  Value normal =
      arith::ShLIOp::create(b, arith::SubIOp::create(b, byte, k.c32(2)),
                            k.c32(7));
  Value subnormal = arith::ShLIOp::create(b, k.c32(0x10), byte);
  Value bits = arith::SelectOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, byte, k.c32(3)),
      subnormal, normal);
  bits = arith::SelectOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, byte, k.c32(0xFF)),
      k.c32(0x7FC0), bits);
  return splatBF16(k, bits);
}

Value mlir::nvfp4::scaleSplatMXRestoring(KernelBuilder &k, Value code) {
  ImplicitLocOpBuilder &b = k.b;
  // 2^(code - 3): exponent field code + 124 (124 .. 254).
  Value bits = arith::ShLIOp::create(
      b,
      arith::AddIOp::create(b, arith::AndIOp::create(b, code, k.c32(0xFF)),
                            k.c32(124)),
      k.c32(7));
  return splatBF16(k, bits);
}

SmallVector<Value, 4> mlir::nvfp4::decodeWordPairsMX(KernelBuilder &k,
                                                     Value word, Value scale,
                                                     bool scaleRestores) {
  ImplicitLocOpBuilder &b = k.b;
  auto v2bf16 = VectorType::get({2}, b.getBF16Type());
  // 2^126 in both halves (exponent field 253).
  Value restore = scaleRestores
                      ? Value()
                      : LLVM::BitcastOp::create(b, v2bf16, k.c32(0x7E807E80));
  auto shift = [&](Value v, int64_t left) -> Value {
    if (left > 0)
      return arith::ShLIOp::create(b, v, k.c32(left));
    if (left < 0)
      return arith::ShRUIOp::create(b, v, k.c32(-left));
    return v;
  };
  SmallVector<Value, 4> pairs;
  for (int64_t j = 0; j < 4; ++j) {
    // Nibble j's magnitude bits 4j .. 4j + 2 and nibble j + 4's (16 bits
    // higher) to bf16 bits 6 .. 8 of each half (the exponent's low two
    // bits and the mantissa's first), their signs 4j + 3 and 4j + 19 to
    // bits 15 and 31.
    Value magnitudes = arith::AndIOp::create(b, shift(word, 6 - 4 * j),
                                             k.c32(0x01C001C0));
    Value signs = arith::AndIOp::create(
        b, shift(word, 12 - 4 * j),
        k.c32(static_cast<int32_t>(0x80008000u)));
    Value halves = LLVM::BitcastOp::create(
        b, v2bf16, arith::OrIOp::create(b, magnitudes, signs));
    Value values =
        scaleRestores ? halves : arith::MulFOp::create(b, halves, restore);
    pairs.push_back(LLVM::BitcastOp::create(
        b, k.i32, arith::MulFOp::create(b, values, scale)));
  }
  return pairs;
}
