//===- Fp4Encode.cpp - fp32 to e2m1 and e4m3 scales per target -----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "Fp4Encode.h"
#include "Fp4Decode.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

/// |x| by clearing the sign bit (llvm.fabs would become a libdevice call:
/// convert-gpu-to-nvvm marks it illegal).
Value mlir::nvfp4::absF32(KernelBuilder &k, Value x) {
  ImplicitLocOpBuilder &b = k.b;
  return arith::BitcastOp::create(
      b, k.f32,
      arith::AndIOp::create(b, arith::BitcastOp::create(b, k.i32, x),
                            k.c32(0x7FFFFFFF)));
}

/// The e2m1 code (low 4 bits of an i32) of `y` on sm_90a: round to
/// nearest, ties to even, saturating to 6, sign kept (what
/// cvt.rn.satfinite.e2m1x2.f32 gives, and the reference's encodeE2M1); a
/// NaN `y` must be positive (the GPU's canonical NaN), which saturates
/// to 0x7 as the reference's NaN does.
/// Below 1 the codes are 2|y| rounded to an integer (the subnormal 0.5
/// and 1.0 share the quantum 0.5): added to 2^23, whose ulp is 1, it
/// rounds to even in the f32 add. From 1 on, e2m1 keeps one mantissa bit:
/// the f32 bits rounded to even at bit 22 (add 0x1FFFFF plus bit 22) and
/// shifted hold exponent and bit, 254 (1.0) being code 2; past 6 (and
/// inf, NaN) the code saturates to 7.
Value mlir::nvfp4::encodeE2M1Software(KernelBuilder &k, Value y) {
  ImplicitLocOpBuilder &b = k.b;
  Value bits = arith::BitcastOp::create(b, k.i32, y);
  Value magnitude = arith::AndIOp::create(b, bits, k.c32(0x7FFFFFFF));
  Value a = arith::BitcastOp::create(b, k.f32, magnitude);
  Value small = arith::SubIOp::create(
      b,
      arith::BitcastOp::create(
          b, k.i32,
          LLVM::FMAOp::create(b, a, k.cf32(2.0f), k.cf32(8388608.0f))),
      k.c32(0x4B000000));
  Value odd = arith::AndIOp::create(
      b, arith::ShRUIOp::create(b, magnitude, k.c32(22)), k.c32(1));
  Value rounded = arith::AddIOp::create(
      b, magnitude, arith::AddIOp::create(b, odd, k.c32(0x1FFFFF)));
  Value large = arith::MinUIOp::create(
      b,
      arith::SubIOp::create(b, arith::ShRUIOp::create(b, rounded, k.c32(22)),
                            k.c32(252)),
      k.c32(7));
  Value code = arith::SelectOp::create(
      b, arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, a, k.cf32(1.0f)),
      small, large);
  Value sign = arith::AndIOp::create(
      b, arith::ShRUIOp::create(b, bits, k.c32(28)), k.c32(0x8));
  return arith::OrIOp::create(b, sign, code);
}

/// x / s rounded to nearest f32 (what div.rn.f32 gives), for s > 0, from
/// `r` = RN(1 / s): y0 = x r, then two corrections by the exact residual
/// y s - x (an fma): the first makes y faithful, the second, by
/// Markstein's theorem, rounds it correctly. Valid where nothing
/// overflows or underflows near the e2m1 thresholds: s in [2^-64, 2^64]
/// and |x| r below 2^100, so x finite (the caller checks both per block).
/// The residual's sign (y s - x, subtracted) keeps the sign of a zero x;
/// a NaN x gives the GPU's canonical, positive NaN.
Value mlir::nvfp4::divideByScale(KernelBuilder &k, Value x, Value s,
                                 Value r) {
  ImplicitLocOpBuilder &b = k.b;
  Value y = arith::MulFOp::create(b, x, r);
  Value negX = arith::NegFOp::create(b, x);
  Value negR = arith::NegFOp::create(b, r);
  for (int step = 0; step < 2; ++step) {
    Value residual = LLVM::FMAOp::create(b, y, s, negX);
    y = LLVM::FMAOp::create(b, residual, negR, y);
  }
  return y;
}

/// max(a, b) as max.f32, which returns the other operand where one is NaN
/// (arith.maxnumf and llvm.maxnum become libdevice calls in
/// convert-gpu-to-nvvm; LLVM 22 has no NVVM op for it, hence the
/// intrinsic by name).
Value mlir::nvfp4::maxF32(KernelBuilder &k, Value a, Value b) {
  return LLVM::CallIntrinsicOp::create(k.b, k.f32,
                                       k.b.getStringAttr("llvm.nvvm.fmax.f"),
                                       ValueRange{a, b})
      .getResult(0);
}

/// The byte of two e2m1 values: `lo` in bits 0-3, `hi` in bits 4-7 (an
/// i32).
Value mlir::nvfp4::encodeE2M1Pair(KernelBuilder &k, Value lo, Value hi,
                                  bool hardware) {
  ImplicitLocOpBuilder &b = k.b;
  if (hardware) {
    // cvt.rn.satfinite.e2m1x2.f32 puts its first operand in the high
    // nibble.
    Value byte = NVVM::ConvertF32x2ToF4x2Op::create(
        b, k.i8, hi, lo, /*relu=*/false, b.getType<Float4E2M1FNType>());
    return arith::ExtUIOp::create(b, k.i32, byte);
  }
  return arith::OrIOp::create(
      b, encodeE2M1Software(k, lo),
      arith::ShLIOp::create(b, encodeE2M1Software(k, hi), k.c32(4)));
}

MXBlockScale mlir::nvfp4::mxBlockScale(KernelBuilder &k, Value amax,
                                       ScaleRounding rounding) {
  ImplicitLocOpBuilder &b = k.b;
  auto bitsOf = [&](Value f) { return arith::BitcastOp::create(b, k.i32, f); };
  auto select = [&](arith::CmpIPredicate p, Value x, int64_t bound, Value t,
                    Value f) -> Value {
    return arith::SelectOp::create(
        b, arith::CmpIOp::create(b, p, x, k.c32(bound)), t, f);
  };
  Value code;
  if (rounding == ScaleRounding::Floor) {
    Value biased = arith::ShRUIOp::create(b, bitsOf(amax), k.c32(23));
    Value lowered = arith::MaxSIOp::create(
        b, arith::SubIOp::create(b, biased, k.c32(2)), k.c32(0));
    code = select(arith::CmpIPredicate::eq, biased, 255, k.c32(254), lowered);
  } else {
    Value bits = bitsOf(arith::DivFOp::create(b, amax, k.cf32(6.0f)));
    Value biased = arith::ShRUIOp::create(b, bits, k.c32(23));
    Value up = arith::ExtUIOp::create(
        b, k.i32,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                              arith::AndIOp::create(b, bits, k.c32(0x7FFFFF)),
                              k.c32(0)));
    Value normal = arith::MinUIOp::create(
        b, arith::AddIOp::create(b, biased, up), k.c32(254));
    Value subnormal = arith::ExtUIOp::create(
        b, k.i32,
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, bits,
                              k.c32(0x400000)));
    code = select(arith::CmpIPredicate::eq, biased, 0, subnormal, normal);
  }
  Value inverseBits =
      select(arith::CmpIPredicate::eq, code, 254, k.c32(0x400000),
             arith::ShLIOp::create(
                 b, arith::SubIOp::create(b, k.c32(254), code), k.c32(23)));
  Value inverse = arith::BitcastOp::create(b, k.f32, inverseBits);
  return {code, inverse};
}

NVFP4BlockScale mlir::nvfp4::nvfp4BlockScale(KernelBuilder &k, Value amax,
                                             Value global, Value inverse) {
  ImplicitLocOpBuilder &b = k.b;
  NVFP4BlockScale scale;
  Value scaled;
  if (inverse) {
    scaled = arith::MulFOp::create(b, amax, inverse);
  } else {
    scaled = arith::DivFOp::create(b, amax, k.cf32(6.0f));
    if (global)
      scaled = arith::DivFOp::create(b, scaled, global);
  }
  // cvt.rn.satfinite.e4m3x2.f32 (sm_89 and later), its low byte.
  Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
      b, k.i16, scaled, scaled, NVVM::FPRoundingMode::RN,
      NVVM::SaturationMode::SATFINITE, /*relu=*/false,
      b.getType<Float8E4M3FNType>());
  Value code = arith::AndIOp::create(
      b, arith::ExtUIOp::create(b, k.i32, pair), k.c32(0xFF));
  scale.code = arith::SelectOp::create(
      b,
      arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, amax, k.cf32(0.0f)),
      k.c32(0), code);
  Value s =
      arith::ExtFOp::create(b, k.f32, k.extract(scaleSplat(k, scale.code), 0));
  if (global)
    s = arith::MulFOp::create(b, s, global);
  scale.s = s;
  scale.zero =
      arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, s, k.cf32(0.0f));
  // The quotients x / s (a zero s stores zeros: divide by 1 instead).
  // From s's reciprocal where nothing overflows or underflows (every
  // block but for extreme global scales or an infinite value), else
  // divided one by one.
  scale.divisor = arith::SelectOp::create(b, scale.zero, k.cf32(1.0f), s);
  scale.r = inverse ? arith::DivFOp::create(b, k.cf32(1.0f), scale.divisor,
                                           arith::FastMathFlags::afn)
                    : arith::DivFOp::create(b, k.cf32(1.0f), scale.divisor);
  auto within = [&](arith::CmpFPredicate p, Value v, float bound) {
    return arith::CmpFOp::create(b, p, v, k.cf32(bound));
  };
  scale.safe = arith::AndIOp::create(
      b,
      arith::AndIOp::create(
          b, within(arith::CmpFPredicate::OGE, scale.divisor, 0x1p-64f),
          within(arith::CmpFPredicate::OLE, scale.divisor, 0x1p64f)),
      within(arith::CmpFPredicate::OLT,
             arith::MulFOp::create(b, amax, scale.r), 0x1p100f));
  return scale;
}

SmallVector<Value> mlir::nvfp4::nvfp4Quotients(KernelBuilder &k,
                                               const NVFP4BlockScale &scale,
                                               ArrayRef<Value> values) {
  ImplicitLocOpBuilder &b = k.b;
  auto quotients =
      scf::IfOp::create(b, SmallVector<Type>(values.size(), k.f32),
                        scale.safe, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(quotients.thenBlock());
  SmallVector<Value> y;
  for (Value v : values)
    y.push_back(divideByScale(k, v, scale.divisor, scale.r));
  scf::YieldOp::create(b, y);
  b.setInsertionPointToStart(quotients.elseBlock());
  y.clear();
  // (NaN made positive for the encoder.)
  for (Value v : values)
    y.push_back(arith::SelectOp::create(
        b, arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, v, v),
        k.cf32(NAN), arith::DivFOp::create(b, v, scale.divisor)));
  scf::YieldOp::create(b, y);
  return SmallVector<Value>(quotients.getResults());
}

SmallVector<SmallVector<Value>> mlir::nvfp4::nvfp4QuotientsOfBlocks(
    KernelBuilder &k, ArrayRef<NVFP4BlockScale> scales,
    ArrayRef<SmallVector<Value>> blocks) {
  ImplicitLocOpBuilder &b = k.b;
  Value safe = scales.front().safe;
  SmallVector<Type> types;
  for (auto [scale, block] : llvm::zip(scales, blocks)) {
    safe = arith::AndIOp::create(b, safe, scale.safe);
    types.append(block.size(), k.f32);
  }
  auto quotients =
      scf::IfOp::create(b, types, safe, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(quotients.thenBlock());
    SmallVector<Value> y;
    for (auto [scale, block] : llvm::zip(scales, blocks))
      for (Value v : block)
        y.push_back(divideByScale(k, v, scale.divisor, scale.r));
    scf::YieldOp::create(b, y);
    b.setInsertionPointToStart(quotients.elseBlock());
    y.clear();
    for (auto [scale, block] : llvm::zip(scales, blocks))
      llvm::append_range(y, nvfp4Quotients(k, scale, block));
    scf::YieldOp::create(b, y);
  }
  SmallVector<SmallVector<Value>> result;
  unsigned next = 0;
  for (const SmallVector<Value> &block : blocks) {
    result.emplace_back();
    for (size_t i = 0; i < block.size(); ++i)
      result.back().push_back(quotients.getResult(next++));
  }
  return result;
}

Value mlir::nvfp4::blockedScaleOffset(ImplicitLocOpBuilder &b, Value row,
                                      Value column, int64_t chunks) {
  IndexMath m{b, row.getType()};
  Value atom = m.add(m.mul(m.div(row, 128), chunks), m.div(column, 4));
  Value inAtom =
      m.add(m.add(m.mul(m.rem(row, 32), 16),
                  m.mul(m.div(m.rem(row, 128), 32), 4)),
            m.rem(column, 4));
  return m.add(m.mul(atom, 512), inAtom);
}
