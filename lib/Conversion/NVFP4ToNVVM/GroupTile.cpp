//===- GroupTile.cpp - the grouped GEMM's tile scheduler on the device ----===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4.group_tile: which group and rows tile t of a grouped GEMM covers,
// from the G + 1 run-time offsets, by every warp on its own (no shared
// memory, no barrier). Lane j of a pass of 32 entries loads offset
// 32 p + j, clamps it to [0, rows], and the warp scans: a running maximum
// gives the clamped, monotonic row offsets e (nvfp4.grouped_matmul's
// definition), the difference with the lane below gives group 32 p + j - 1's
// rows and its tiles of tile_m, an inclusive sum of the tiles numbers them,
// and a ballot finds the lane whose range holds t. The passes are written
// out (G is static), every load first, so the warp waits for memory once.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "Lowerings.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

struct GroupTileLowering : OpRewritePattern<GroupTileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    using P = arith::CmpIPredicate;
    const int64_t entries = op.getOffsets().getType().getDimSize(0);
    const int64_t tileM = op.getTileM();
    auto cmp = [&](P p, Value x, Value y) {
      return arith::CmpIOp::create(b, p, x, y).getResult();
    };
    auto select = [&](Value c, Value x, Value y) {
      return arith::SelectOp::create(b, c, x, y).getResult();
    };
    auto shuffle = [&](Value v, Value offset, gpu::ShuffleMode mode) {
      return gpu::ShuffleOp::create(b, v, offset, k.c32(32), mode)
          .getShuffleResult();
    };
    Value lane = arith::AndIOp::create(b, k.threadIdX(), k.c32(31));
    Value tile = arith::IndexCastUIOp::create(b, k.i32, op.getTile());
    // Every pass's offset first (lanes past the last entry load it again).
    Value base = k.pointer(op.getOffsets());
    const int64_t passes = llvm::divideCeil(entries, 32);
    SmallVector<Value> loaded;
    for (int64_t p = 0; p < passes; ++p) {
      Value index = arith::MinUIOp::create(
          b, arith::AddIOp::create(b, lane, k.c32(32 * p)), k.c32(entries - 1));
      loaded.push_back(LLVM::LoadOp::create(
          b, k.i32,
          k.offset(base,
                   arith::MulIOp::create(
                       b, arith::ExtUIOp::create(b, k.i64, index), k.c64(4))),
          4));
    }
    // What the passes before carry: the last clamped offset and the tiles
    // numbered so far; the result so far (an empty tile of group 0).
    Value carryEnd = k.c32(0), carryTiles = k.c32(0);
    Value group = k.c32(0), begin = k.c32(0), end = k.c32(0);
    for (int64_t p = 0; p < passes; ++p) {
      Value index = arith::AddIOp::create(b, lane, k.c32(32 * p));
      // e[index]: clamped to [0, rows], then the running maximum.
      Value e = arith::MinSIOp::create(
          b, arith::MaxSIOp::create(b, loaded[p], k.c32(0)),
          k.c32(op.getRows()));
      for (int64_t d = 1; d < 32; d *= 2) {
        Value up = shuffle(e, k.c32(d), gpu::ShuffleMode::UP);
        e = select(cmp(P::uge, lane, k.c32(d)),
                   arith::MaxSIOp::create(b, e, up), e);
      }
      e = arith::MaxSIOp::create(b, e, carryEnd);
      // Group index - 1 owns rows [e[index - 1], e[index]).
      Value below = shuffle(e, k.c32(1), gpu::ShuffleMode::UP);
      Value first = cmp(P::eq, lane, k.c32(0));
      Value start = select(first, carryEnd, below);
      Value isGroup = arith::AndIOp::create(b, cmp(P::uge, index, k.c32(1)),
                                            cmp(P::ult, index, k.c32(entries)));
      Value tiles = select(
          isGroup,
          arith::DivUIOp::create(
              b,
              arith::AddIOp::create(b, arith::SubIOp::create(b, e, start),
                                    k.c32(tileM - 1)),
              k.c32(tileM)),
          k.c32(0));
      // Inclusive sum of the tiles: group index - 1's are [after - tiles,
      // after).
      Value after = tiles;
      for (int64_t d = 1; d < 32; d *= 2) {
        Value up = shuffle(after, k.c32(d), gpu::ShuffleMode::UP);
        after = select(cmp(P::uge, lane, k.c32(d)),
                       arith::AddIOp::create(b, after, up), after);
      }
      after = arith::AddIOp::create(b, after, carryTiles);
      Value before = arith::SubIOp::create(b, after, tiles);
      Value mine = arith::AndIOp::create(b, cmp(P::uge, tile, before),
                                         cmp(P::ult, tile, after));
      Value ballot = NVVM::VoteSyncOp::create(b, k.i32, k.c32(-1), mine,
                                              NVVM::VoteSyncKind::ballot);
      Value found = cmp(P::ne, ballot, k.c32(0));
      Value owner =
          LLVM::CountTrailingZerosOp::create(b, k.i32, ballot,
                                             /*is_zero_poison=*/false);
      Value ownerStart = shuffle(start, owner, gpu::ShuffleMode::IDX);
      Value ownerEnd = shuffle(e, owner, gpu::ShuffleMode::IDX);
      Value ownerBefore = shuffle(before, owner, gpu::ShuffleMode::IDX);
      Value rowBegin = arith::AddIOp::create(
          b, ownerStart,
          arith::MulIOp::create(b, arith::SubIOp::create(b, tile, ownerBefore),
                                k.c32(tileM)));
      Value rowEnd = arith::MinUIOp::create(
          b, arith::AddIOp::create(b, rowBegin, k.c32(tileM)), ownerEnd);
      group = select(found, arith::AddIOp::create(b, owner, k.c32(32 * p - 1)),
                     group);
      begin = select(found, rowBegin, begin);
      end = select(found, rowEnd, end);
      carryEnd = shuffle(e, k.c32(31), gpu::ShuffleMode::IDX);
      carryTiles = shuffle(after, k.c32(31), gpu::ShuffleMode::IDX);
    }
    auto toIndex = [&](Value v) {
      return arith::IndexCastUIOp::create(b, b.getIndexType(), v).getResult();
    };
    rewriter.replaceOp(op, {toIndex(group), toIndex(begin), toIndex(end)});
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateGroupTilePatterns(RewritePatternSet &patterns) {
  patterns.add<GroupTileLowering>(patterns.getContext());
}
