//===- SumSplits.cpp - nvfp4.sum_splits: the split-K GEMM's last kernel
//----===//
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
      // Stream-K: the slots of element e's tile are those of the CTAs
      // from the one holding the tile's first chunk to the one holding its
      // last (GemmPlanAttr::streamKCtaOf); the others hold nothing.
      Value count;
      if (std::optional<ArrayRef<int64_t>> stream = op.getStream()) {
        const int64_t ctas = (*stream)[0], chunks = (*stream)[1],
                      tileN = (*stream)[2];
        const int64_t n = cType.getShape().back();
        const int64_t total = llvm::divideCeil(n, tileN) * chunks;
        Value tile = arith::DivUIOp::create(
            b, arith::RemUIOp::create(b, e, k.c64(n)), k.c64(tileN));
        auto ctaOf = [&](Value g) {
          return arith::DivUIOp::create(
              b,
              arith::SubIOp::create(
                  b,
                  arith::MulIOp::create(
                      b, arith::AddIOp::create(b, g, k.c64(1)), k.c64(ctas)),
                  k.c64(1)),
              k.c64(total));
        };
        Value first = arith::MulIOp::create(b, tile, k.c64(chunks));
        count = arith::SubIOp::create(
            b, ctaOf(arith::AddIOp::create(b, first, k.c64(chunks - 1))),
            ctaOf(first));
      }
      Value sum = loadPart(0);
      for (int64_t s = 1; s < static_cast<int64_t>(op.getSplits()); ++s) {
        if (!count) {
          sum = arith::AddFOp::create(b, sum, loadPart(s));
          continue;
        }
        // count is the number of slots after the first.
        auto has = scf::IfOp::create(
            b, TypeRange{k.f32},
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, k.c64(s - 1),
                                  count),
            /*withElseRegion=*/true);
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(has.thenBlock());
        scf::YieldOp::create(b,
                             Value(arith::AddFOp::create(b, sum, loadPart(s))));
        b.setInsertionPointToStart(has.elseBlock());
        scf::YieldOp::create(b, sum);
        sum = has.getResult(0);
      }
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
