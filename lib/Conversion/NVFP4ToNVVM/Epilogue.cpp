//===- Epilogue.cpp - storing a GEMM tile's accumulators ------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "Lowerings.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

AccumulatorStore mlir::nvfp4::accumulatorStore(KernelBuilder &k, Value c,
                                               Value partials, Value batch,
                                               Value split) {
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
