//===- BlockScales.cpp - nvfp4.block_scales_tile: the scales' pre-pass ---------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Thread t of the CTA writes 32-bit words base + i * kThreads + t, i =
// 0..3, of the blocked destination (consecutive threads, consecutive
// addresses). Word w of the blocked layout holds scale columns 4c..4c+3 of
// one row (lib/Reference/Layout.h): atom w / 128 is (batch, row block,
// chunk c) in that order, and inside it word j = w % 128 is row
// 32 * (j % 4) + j / 4 of the block. The word is loaded from the source,
// where the same 4 columns of the row are one aligned word too (plain:
// K / 16 is a multiple of 4; blocked: the same word of the atom), or is
// zero for rows and chunks the source does not have. The same code for
// every target.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "Lowerings.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

struct BlockScalesLowering : OpRewritePattern<BlockScalesTileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BlockScalesTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    ArrayRef<int64_t> dst = op.getDst().getType().getShape();
    ArrayRef<int64_t> src = op.getSrc().getType().getShape();
    const bool plain = op.isSrcPlain();
    const int64_t rowBlocks = dst[dst.size() - 5];
    const int64_t chunks = dst[dst.size() - 4];
    const int64_t srcChunks = plain ? src.back() / 4 : src[src.size() - 4];
    const int64_t rows = plain ? src[src.size() - 2] : rowBlocks * 128;
    const int64_t words = op.getDst().getType().getNumElements() / 4;
    Value srcPtr = k.pointer(op.getSrc());
    Value dstPtr = k.pointer(op.getDst());
    Value tid = arith::IndexCastUIOp::create(
        b, k.i64, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
    Value base = arith::IndexCastUIOp::create(b, k.i64, op.getBase());
    auto div = [&](Value x, int64_t d) -> Value {
      return arith::DivUIOp::create(b, x, k.c64(d));
    };
    auto rem = [&](Value x, int64_t d) -> Value {
      return arith::RemUIOp::create(b, x, k.c64(d));
    };
    auto lt = [&](Value x, int64_t v) -> Value {
      return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, k.c64(v));
    };
    for (int64_t i = 0; i < 4; ++i) {
      Value w = arith::AddIOp::create(
          b, base, arith::AddIOp::create(b, tid, k.c64(i * op.kThreads)));
      auto inside =
          scf::IfOp::create(b, lt(w, words), /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(inside.thenBlock());
      Value atom = div(w, 128), word = rem(w, 128);
      Value chunk = rem(atom, chunks);
      Value block = rem(div(atom, chunks), rowBlocks);
      Value batch = div(atom, chunks * rowBlocks);
      // Row of the block's 128: word j holds row 32 * (j % 4) + j / 4.
      Value quarter = rem(word, 4), lane = div(word, 4);
      Value inBlock = arith::AddIOp::create(
          b, arith::MulIOp::create(b, quarter, k.c64(32)), lane);
      Value row = arith::AddIOp::create(
          b, arith::MulIOp::create(b, block, k.c64(128)), inBlock);
      Value present = lt(chunk, srcChunks);
      if (plain)
        present = arith::AndIOp::create(b, present, lt(row, rows));
      auto load = scf::IfOp::create(b, k.i32, present, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(load.thenBlock());
        // The source word's index: plain (batch x rows + row) x K/64 +
        // chunk; blocked ((batch x blocks + block) x chunks + chunk) x 128 +
        // word.
        Value index =
            plain ? arith::AddIOp::create(
                        b,
                        arith::MulIOp::create(
                            b,
                            arith::AddIOp::create(
                                b, arith::MulIOp::create(b, batch, k.c64(rows)),
                                row),
                            k.c64(srcChunks)),
                        chunk)
                  : arith::AddIOp::create(
                        b,
                        arith::MulIOp::create(
                            b,
                            arith::AddIOp::create(
                                b,
                                arith::MulIOp::create(
                                    b,
                                    arith::AddIOp::create(
                                        b,
                                        arith::MulIOp::create(b, batch,
                                                              k.c64(rowBlocks)),
                                        block),
                                    k.c64(srcChunks)),
                                chunk),
                            k.c64(128)),
                        word);
        Value v = k.load(
            k.i32, k.offset(srcPtr, arith::MulIOp::create(b, index, k.c64(4))),
            4,
            /*invariant=*/true);
        scf::YieldOp::create(b, v);
      }
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(load.elseBlock());
        scf::YieldOp::create(b, k.c32(0));
      }
      LLVM::StoreOp::create(
          b, load.getResult(0),
          k.offset(dstPtr, arith::MulIOp::create(b, w, k.c64(4))), 4);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateBlockScalesPatterns(RewritePatternSet &patterns) {
  patterns.add<BlockScalesLowering>(patterns.getContext());
}
