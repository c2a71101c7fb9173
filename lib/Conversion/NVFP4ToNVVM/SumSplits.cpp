//===- SumSplits.cpp - nvfp4.sum_splits: the split-K GEMM's last kernel ---===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Thread t of the CTA adds elements base + i * kSumThreads + t, i = 0..3
// (consecutive threads, consecutive addresses), over every split's fp32
// partial output, in split order (a fixed order: the result does not
// depend on scheduling), and stores the sum in C's element type. The same
// code for every target.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "Lowerings.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

struct SumSplitsLowering : OpRewritePattern<SumSplitsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SumSplitsOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    // Launched as a programmatic dependent of the GEMM: its partials are
    // complete and visible once this returns (a no-op for a plain launch).
    NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
    MemRefType cType = op.getC().getType();
    Type outType = cType.getElementType();
    const int64_t outBytes = outType.getIntOrFloatBitWidth() / 8;
    const int64_t total = cType.getNumElements();
    Value partials = k.pointer(op.getPartials());
    Value c = k.pointer(op.getC());
    Value tid = arith::IndexCastUIOp::create(
        b, k.i64, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
    Value base = arith::IndexCastUIOp::create(b, k.i64, op.getBase());
    for (int64_t i = 0; i < 4; ++i) {
      Value e = arith::AddIOp::create(
          b, base,
          arith::AddIOp::create(b, tid, k.c64(i * SumSplitsOp::kSumThreads)));
      Value inside =
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, e, k.c64(total));
      auto ifOp = scf::IfOp::create(b, inside, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      auto loadPart = [&](int64_t s) -> Value {
        Value index = arith::AddIOp::create(b, e, k.c64(s * total));
        return k.load(
            k.f32,
            k.offset(partials, arith::MulIOp::create(b, index, k.c64(4))), 4,
            /*invariant=*/false);
      };
      Value sum = loadPart(0);
      for (int64_t s = 1; s < static_cast<int64_t>(op.getSplits()); ++s)
        sum = arith::AddFOp::create(b, sum, loadPart(s));
      Value out =
          outType.isF32() ? sum : arith::TruncFOp::create(b, outType, sum);
      LLVM::StoreOp::create(
          b, out, k.offset(c, arith::MulIOp::create(b, e, k.c64(outBytes))),
          outBytes);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateSumSplitsPatterns(RewritePatternSet &patterns) {
  patterns.add<SumSplitsLowering>(patterns.getContext());
}
