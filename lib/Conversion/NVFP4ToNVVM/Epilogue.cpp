//===- Epilogue.cpp - storing a GEMM tile's accumulators ------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "Fp4Encode.h"
#include "Lowerings.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

AccumulatorStore mlir::nvfp4::accumulatorStore(KernelBuilder &k, Value c,
                                               Value partials, Value batch,
                                               Value split, Value cScales,
                                               Value cGlobal,
                                               ScaleLayout layout,
                                               ScaleRoundingAttr rounding) {
  ImplicitLocOpBuilder &b = k.b;
  auto cType = cast<MemRefType>(c.getType());
  AccumulatorStore out;
  ArrayRef<int64_t> shape = cType.getShape();
  out.m = shape[shape.size() - 2];
  out.n = shape.back();
  out.batch64 = arith::IndexCastUIOp::create(b, k.i64, batch);
  out.base = k.pointer(c);
  out.type = cType.getElementType();
  if (partials) {
    int64_t batches = cType.getRank() == 3 ? shape[0] : 1;
    out.batch64 = arith::AddIOp::create(
        b,
        arith::MulIOp::create(
            b, arith::IndexCastUIOp::create(b, k.i64, split), k.c64(batches)),
        out.batch64);
    out.base = k.pointer(partials);
    out.type = k.f32;
  }
  out.bytes = out.type.getIntOrFloatBitWidth() / 8;
  out.maskN = out.maskM = true;
  if (cScales) {
    out.scales = k.pointer(cScales);
    out.format = BlockFormat::of(cScales.getType());
    out.blockedScales = layout == ScaleLayout::Blocked;
    if (out.format.isMX()) {
      if (rounding)
        out.rounding = rounding.getValue();
      return out;
    }
    if (cGlobal)
      out.global = k.load(k.f32, k.pointer(cGlobal), 4);
    out.inverse =
        out.global
            ? arith::DivFOp::create(
                  k.b, k.cf32(1.0f),
                  arith::MulFOp::create(k.b, out.global, k.cf32(6.0f)))
                  .getResult()
            : k.cf32(1.0f / 6.0f);
  }
  return out;
}

void mlir::nvfp4::storeElement(KernelBuilder &k, const AccumulatorStore &out,
                               Value value, Value mIdx, Value nIdx) {
  ImplicitLocOpBuilder &b = k.b;
  Value store;
  if (out.maskN)
    store = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, nIdx,
                                  k.c32(out.n));
  if (out.maskM || out.mEnd) {
    Value end = out.mEnd ? arith::MinUIOp::create(b, out.mEnd, k.c32(out.m))
                         : k.c32(out.m);
    Value inM = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, mIdx, end);
    store = store ? arith::AndIOp::create(b, store, inM) : inM;
  }
  auto emitStore = [&] {
    Value global = arith::AddIOp::create(
        b,
        arith::MulIOp::create(
            b,
            arith::AddIOp::create(
                b, arith::MulIOp::create(b, out.batch64, k.c64(out.m)),
                arith::ExtUIOp::create(b, k.i64, mIdx)),
            k.c64(out.n)),
        arith::ExtUIOp::create(b, k.i64, nIdx));
    Value converted =
        out.type.isF32() ? value : arith::TruncFOp::create(b, out.type, value);
    LLVM::StoreOp::create(
        b, converted,
        k.offset(out.base, arith::MulIOp::create(b, global, k.c64(out.bytes))),
        out.bytes);
  };
  if (!store) {
    emitStore();
    return;
  }
  auto ifOp = scf::IfOp::create(b, store, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  emitStore();
}

void mlir::nvfp4::storeQuantizedBlocks(
    KernelBuilder &k, const AccumulatorStore &out,
    ArrayRef<QuantizedBlock> blocks, ArrayRef<int64_t> blockLanes,
    int64_t pairXor, bool hardware,
    function_ref<void(MutableArrayRef<Value>)> exchange, Value scaleOwner) {
  ImplicitLocOpBuilder &b = k.b;
  Value lane = arith::AndIOp::create(b, k.threadIdX(), k.c32(31));
  auto shuffle = [&](Value v, int64_t mask) -> Value {
    return gpu::ShuffleOp::create(b, v, k.c32(mask), k.c32(32),
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  auto ult = [&](Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, y);
  };
  auto laneBitsClear = [&](int64_t mask) -> Value {
    return arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                 arith::AndIOp::create(b, lane, k.c32(mask)),
                                 k.c32(0));
  };
  auto both = [&](Value x, Value y) -> Value {
    return arith::AndIOp::create(b, x, y);
  };
  // Each block's amax (max.f32 skips NaN), shared by its lanes: one
  // shuffle step for every block at a time, then across warps.
  SmallVector<Value> amax;
  for (const QuantizedBlock &block : blocks) {
    Value m = k.cf32(0.0f);
    for (Value v : block.values)
      m = maxF32(k, m, absF32(k, v));
    amax.push_back(m);
  }
  int64_t blockMask = 0;
  for (int64_t mask : blockLanes) {
    for (Value &m : amax)
      m = maxF32(k, m, shuffle(m, mask));
    blockMask |= mask;
  }
  if (exchange)
    exchange(amax);
  // Each lane's codes, value i's in the low nibble of byte i, and each
  // block's scale code.
  auto encode = [&](Value q) -> Value {
    return hardware
               ? arith::AndIOp::create(
                     b, encodeE2M1Pair(k, q, k.cf32(0.0f), true), k.c32(0xF))
               : encodeE2M1Software(k, q);
  };
  auto pack = [&](ArrayRef<Value> quotients) -> Value {
    Value mine = k.c32(0);
    for (auto [i, q] : llvm::enumerate(quotients))
      mine = arith::OrIOp::create(
          b, mine,
          arith::ShLIOp::create(b, encode(q),
                                k.c32(8 * static_cast<int64_t>(i))));
    return mine;
  };
  SmallVector<Value> codes, bytes;
  if (out.format.isMX()) {
    // Exact: x x 2^(127 - code), rounded once by the encoder.
    for (auto [block, m] : llvm::zip(blocks, amax)) {
      MXBlockScale scale = mxBlockScale(k, m, out.rounding);
      SmallVector<Value> quotients;
      for (Value v : block.values)
        quotients.push_back(arith::MulFOp::create(b, v, scale.inverse));
      codes.push_back(scale.code);
      bytes.push_back(pack(quotients));
    }
  } else {
    SmallVector<NVFP4BlockScale> scales;
    SmallVector<SmallVector<Value>> values;
    for (auto [block, m] : llvm::zip(blocks, amax)) {
      scales.push_back(nvfp4BlockScale(k, m, out.global, out.inverse));
      values.emplace_back(block.values.begin(), block.values.end());
    }
    SmallVector<SmallVector<Value>> quotients =
        nvfp4QuotientsOfBlocks(k, scales, values);
    for (auto [scale, y] : llvm::zip(scales, quotients)) {
      codes.push_back(scale.code);
      bytes.push_back(
          arith::SelectOp::create(b, scale.zero, k.c32(0), pack(y)));
    }
  }
  // The neighbor's (the next column's) codes in the high nibbles.
  for (Value &mine : bytes)
    mine = arith::OrIOp::create(
        b, mine, arith::ShLIOp::create(b, shuffle(mine, pairXor), k.c32(4)));

  auto store = [&](Value pred, Value value, Value base, Value offset) {
    auto ifOp = scf::IfOp::create(b, pred, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    LLVM::StoreOp::create(b, arith::TruncIOp::create(b, k.i8, value),
                          k.offset(base, offset), 1);
  };
  auto i64 = [&](Value v) -> Value {
    return arith::ExtUIOp::create(b, k.i64, v);
  };
  Value evenLane = laneBitsClear(pairXor);
  Value leader = laneBitsClear(blockMask);
  if (scaleOwner)
    leader = both(leader, scaleOwner);
  const int64_t blockSize = out.format.blockSize;
  const int64_t kb = out.format.getScaleColumns(out.n);
  const int64_t chunks = llvm::divideCeil(kb, 4);
  const int64_t rowAtoms = llvm::divideCeil(out.m, 128);
  for (auto [block, code, packed] : llvm::zip(blocks, codes, bytes)) {
    Value inM = ult(block.mIdx, k.c32(out.m));
    Value row64 = arith::AddIOp::create(
        b, arith::MulIOp::create(b, out.batch64, k.c64(out.m)),
        i64(block.mIdx));
    // The values: the lanes of even columns, a byte each.
    for (auto [i, column] : llvm::enumerate(block.columns)) {
      Value byte = arith::ShRUIOp::create(
          b, packed, k.c32(8 * static_cast<int64_t>(i)));
      Value offset = arith::AddIOp::create(
          b, arith::MulIOp::create(b, row64, k.c64(out.n / 2)),
          i64(arith::ShRUIOp::create(b, column, k.c32(1))));
      store(both(both(evenLane, inM), ult(column, k.c32(out.n))), byte,
            out.base, offset);
    }
    // The scale: the block's first lane (of its owner warp).
    Value scaleColumn =
        arith::DivUIOp::create(b, block.columns.front(), k.c32(blockSize));
    Value owns = both(both(leader, inM), ult(scaleColumn, k.c32(kb)));
    if (!out.blockedScales) {
      Value offset = arith::AddIOp::create(
          b, arith::MulIOp::create(b, row64, k.c64(kb)), i64(scaleColumn));
      store(owns, code, out.scales, offset);
      continue;
    }
    // Blocked: the owner of a row's last block also writes zeros in the
    // atoms' padding columns (kb .. 4 x chunks), and every owner the same
    // in the padding rows (M .. 128 x rowAtoms) M apart from its own.
    Value batchBase = arith::MulIOp::create(b, out.batch64,
                                            k.c64(rowAtoms * chunks * 512));
    auto at = [&](Value rowIdx, Value column) -> Value {
      return arith::AddIOp::create(
          b, batchBase,
          blockedScaleOffset(b, i64(rowIdx), i64(column), chunks));
    };
    store(owns, code, out.scales, at(block.mIdx, scaleColumn));
    const int64_t padColumns = 4 * chunks - kb;
    if (padColumns == 0 && rowAtoms * 128 == out.m)
      continue;
    auto ifOp = scf::IfOp::create(b, owns, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value zero = arith::ConstantIntOp::create(b, k.i8, 0);
    Value last = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, scaleColumn,
                                       k.c32(kb - 1));
    // Zeros in row `rowIdx`: at this block's column where `own`, at the
    // padding columns where this is the row's last block.
    auto zeros = [&](Value rowIdx, bool own) {
      if (own)
        LLVM::StoreOp::create(b, zero,
                              k.offset(out.scales, at(rowIdx, scaleColumn)), 1);
      if (padColumns == 0)
        return;
      auto lastIf = scf::IfOp::create(b, last, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(lastIf.thenBlock());
      for (int64_t c = kb; c < 4 * chunks; ++c)
        LLVM::StoreOp::create(b, zero,
                              k.offset(out.scales, at(rowIdx, k.c32(c))), 1);
    };
    zeros(block.mIdx, /*own=*/false);
    if (rowAtoms * 128 == out.m)
      continue;
    auto loop = scf::ForOp::create(
        b, arith::AddIOp::create(b, block.mIdx, k.c32(out.m)),
        k.c32(rowAtoms * 128), k.c32(out.m));
    b.setInsertionPointToStart(loop.getBody());
    zeros(loop.getInductionVar(), /*own=*/true);
  }
}

namespace {

/// ex2.approx.f32: 2^x to about 2 ulp. LLVM 22 has no NVVM dialect op for
/// it (the missing op: nvvm.ex2.approx), and convert-gpu-to-nvvm turns
/// llvm.intr.exp2 into a libdevice call, so the NVVM intrinsic is called
/// by name.
Value ex2Approx(ImplicitLocOpBuilder &b, Value x) {
  return LLVM::CallIntrinsicOp::create(
             b, b.getF32Type(), b.getStringAttr("llvm.nvvm.ex2.approx.f32"),
             ValueRange{x})
      .getResult(0);
}

/// math.exp2 on f32 or a vector of f32 (an epilogue applied to whole
/// fragments): ex2.approx.f32 on each element.
struct Exp2Lowering : OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    auto vector = dyn_cast<VectorType>(op.getType());
    if (!vector) {
      rewriter.replaceOp(op, ex2Approx(b, op.getOperand()));
      return success();
    }
    Value result = LLVM::PoisonOp::create(b, vector);
    for (int64_t i = 0; i < vector.getNumElements(); ++i) {
      Value index = LLVM::ConstantOp::create(b, b.getI32Type(),
                                             b.getI32IntegerAttr(i));
      Value x = LLVM::ExtractElementOp::create(b, op.getOperand(), index);
      result =
          LLVM::InsertElementOp::create(b, result, ex2Approx(b, x), index);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateEpilogueMathPatterns(RewritePatternSet &patterns) {
  patterns.add<Exp2Lowering>(patterns.getContext());
}

void mlir::nvfp4::addEpilogueMathIllegalOps(ConversionTarget &target) {
  target.addIllegalOp<math::Exp2Op>();
}
