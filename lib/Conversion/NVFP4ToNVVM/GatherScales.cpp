//===- GatherScales.cpp - nvfp4.gather_scales_tile: a group tile's scales -===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The sm_100a grouped GEMM's pre-pass for A's scales: the CTA writes the
// tile_m x chunks words of its tile's rows of the blocked destination. Word
// i of the tile (thread t takes i = t, t + kThreads, ...) is row j =
// i / chunks, chunk c = i % chunks: consecutive threads read consecutive
// words of a plain source row (the source row begin + j, its 4 scales of
// chunk c, one aligned word), or write zero past the group's end or the
// source's chunks; the word goes to atom (block, c) of destination row
// r = row + j, word 4 (r % 32) + (r % 128) / 32 of the atom
// (lib/Reference/Layout.h).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "Lowerings.h"
#include "ScaleWords.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

struct GatherScalesLowering : OpRewritePattern<GatherScalesTileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherScalesTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    BlockScalesShape shape =
        getBlockScalesShape(op.getSrc().getType(), op.getDst().getType());
    const int64_t chunks = shape.chunks, srcChunks = shape.srcChunks;
    const int64_t tileM = op.getTileM();
    Value srcPtr = k.pointer(op.getSrc());
    Value dstPtr = k.pointer(op.getDst());
    auto i64 = [&](Value index) -> Value {
      return arith::IndexCastUIOp::create(b, k.i64, index);
    };
    ScaleIndex ix{k};
    Value begin = i64(op.getBegin());
    Value rows = arith::SubIOp::create(b, i64(op.getEnd()), begin);
    Value row = i64(op.getRow());
    Value tid = arith::IndexCastUIOp::create(
        b, k.i64, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
    auto loop = scf::ForOp::create(b, tid, k.c64(tileM * chunks),
                                   k.c64(GatherScalesTileOp::kThreads));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value i = loop.getInductionVar();
      Value j = ix.div(i, chunks), c = ix.rem(i, chunks);
      Value present =
          arith::AndIOp::create(b, ix.lt(j, rows), ix.lt(c, srcChunks));
      // Word j' of atom (r / 128, c), j' row r's word in the atom.
      Value r = arith::AddIOp::create(b, row, j);
      Value atom = ix.mulAdd(ix.div(r, 128), chunks, c);
      Value w = ix.mulAdd(atom, 128, ix.wordOfRow(r));
      // Word c of the plain source row begin + j (its row holds srcChunks
      // words: K/64 of them, MXFP4's K/128).
      copyScaleWord(
          k, present, srcPtr,
          [&] {
            return ix.mulAdd(arith::AddIOp::create(b, begin, j), srcChunks,
                             c);
          },
          dstPtr, w);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateGatherScalesPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherScalesLowering>(patterns.getContext());
}
