//===- BlockScales.cpp - nvfp4.block_scales_tile: the scales' pre-pass ---------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The CTA writes 32-bit words [base, base + 4 kThreads) of the blocked
// destination. Word w of the blocked layout holds scale columns 4c..4c+3
// of one row (lib/Reference/Layout.h): atom w / 128 is (batch, row block,
// chunk c) in that order, and inside it word j = w % 128 is row
// 32 * (j % 4) + j / 4 of the block. The word is loaded from the source,
// where the same 4 columns of the row are one aligned word too (plain:
// K / 16 is a multiple of 4; blocked: the same word of the atom), or is
// zero for rows and chunks the source does not have. Generally thread t
// writes words base + i * kThreads + t, i = 0..3 (consecutive threads,
// consecutive addresses); plain rows of whole 16-byte groups are read 16
// bytes at a time instead (see below). The same code for every target.
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

struct BlockScalesLowering : OpRewritePattern<BlockScalesTileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BlockScalesTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    BlockScalesShape shape =
        getBlockScalesShape(op.getSrc().getType(), op.getDst().getType());
    const bool plain = shape.plain;
    const int64_t rowBlocks = shape.rowBlocks, chunks = shape.chunks,
                  srcChunks = shape.srcChunks, rows = shape.rows;
    const int64_t words = op.getDst().getType().getNumElements() / 4;
    Value srcPtr = k.pointer(op.getSrc());
    Value dstPtr = k.pointer(op.getDst());
    Value tid = arith::IndexCastUIOp::create(
        b, k.i64, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
    Value base = arith::IndexCastUIOp::create(b, k.i64, op.getBase());
    ScaleIndex ix{k};
    auto div = [&](Value x, int64_t d) { return ix.div(x, d); };
    auto rem = [&](Value x, int64_t d) { return ix.rem(x, d); };
    auto lt = [&](Value x, int64_t v) { return ix.lt(x, v); };
    auto mulAdd = [&](Value x, int64_t s, Value y) {
      return ix.mulAdd(x, s, y);
    };
    auto rowOf = [&](Value block, Value word) {
      return ix.rowOfWord(block, word);
    };
    // Plain rows of whole 16-byte groups (4 chunks) into whole groups:
    // thread t of the CTA takes unit u = base / 4 + t, word j = u % 128 of
    // the 4 atoms of group g (the CTA's 256 units cover the same 1024
    // words): one 16-byte load of its row (a warp reads 32 rows' 16 bytes
    // instead of 4 bytes each), 4 stores (a warp's 32 consecutive words of
    // each atom).
    if (plain && srcChunks % 4 == 0 && chunks % 4 == 0) {
      const int64_t groups = chunks / 4, srcGroups = srcChunks / 4;
      Value u = arith::AddIOp::create(b, div(base, 4), tid);
      auto inside =
          scf::IfOp::create(b, lt(u, words / 4), /*withElseRegion=*/false);
      b.setInsertionPointToStart(inside.thenBlock());
      Value word = rem(u, 128), unitGroup = div(u, 128);
      Value g = rem(unitGroup, groups);
      Value blockBatch = div(unitGroup, groups); // batch x blocks + block
      Value block = rem(blockBatch, rowBlocks);
      Value batch = div(blockBatch, rowBlocks);
      Value row = rowOf(block, word);
      Value inGroups = lt(g, srcGroups), inRows = lt(row, rows);
      Value present = arith::AndIOp::create(b, inGroups, inRows);
      auto load =
          scf::IfOp::create(b, k.v4i32, present, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(load.thenBlock());
        // Byte (batch x rows + row) x K/16 + 16 g of the plain scales.
        Value groupByte = arith::MulIOp::create(b, g, k.c64(16));
        Value rowIndex = mulAdd(batch, rows, row);
        Value offset = mulAdd(rowIndex, srcChunks * 4, groupByte);
        scf::YieldOp::create(b, k.load(k.v4i32, k.offset(srcPtr, offset), 16,
                                       /*invariant=*/true));
      }
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(load.elseBlock());
        Value zero = arith::ConstantOp::create(
            b, cast<TypedAttr>(b.getZeroAttr(k.v4i32)));
        scf::YieldOp::create(b, zero);
      }
      for (int64_t q = 0; q < 4; ++q) {
        // Word j of atom (batch, block, 4 g + q).
        Value atom = mulAdd(blockBatch, chunks, mulAdd(g, 4, k.c64(q)));
        Value w = mulAdd(atom, 128, word);
        LLVM::StoreOp::create(
            b, k.extract(load.getResult(0), q),
            k.offset(dstPtr, arith::MulIOp::create(b, w, k.c64(4))), 4);
      }
      rewriter.eraseOp(op);
      return success();
    }
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
      Value row = rowOf(block, word);
      Value present = lt(chunk, srcChunks);
      if (plain)
        present = arith::AndIOp::create(b, present, lt(row, rows));
      // The source word's index: plain (batch x rows + row) x K/64 +
      // chunk; blocked ((batch x blocks + block) x chunks + chunk) x 128 +
      // word.
      copyScaleWord(
          k, present, srcPtr,
          [&] {
            return plain ? mulAdd(mulAdd(batch, rows, row), srcChunks, chunk)
                         : mulAdd(mulAdd(mulAdd(batch, rowBlocks, block),
                                         srcChunks, chunk),
                                  128, word);
          },
          dstPtr, w);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateBlockScalesPatterns(RewritePatternSet &patterns) {
  patterns.add<BlockScalesLowering>(patterns.getContext());
}
