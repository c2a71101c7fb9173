//===- WorkTiles.cpp - a persistent sm_90a CTA's walk over its tiles ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The scheduler part of a plan with #nvfp4.persistent: the grid has at
// most one CTA per SM, and CTA i walks the work tiles i, i + step, ... of
// the grid a one-tile-per-CTA plan would launch (work tile w: B's tile
// w % x_tiles, A's tile w / x_tiles, so the CTAs at work at once share few
// tiles of A and stream B's tiles). A grouped GEMM's tile of A is named on
// the device (nvfp4.group_tile over the run-time offsets); the empty ones,
// past the groups' last tile, are skipped. The producer and the consumers
// each walk the same tiles, carrying their ring positions, so the producer
// fills the next tile's first slots while the consumers store the last
// one.
//
//===----------------------------------------------------------------------===//

#include "WgmmaCta.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::gemm;

SmallVector<Value>
mlir::nvfp4::gemm::forEachWorkTile(
    WgmmaCta &cta, ValueRange init,
    function_ref<SmallVector<Value>(ValueRange)> body) {
  ImplicitLocOpBuilder &b = cta.b;
  GemmTileOp op = cta.op;
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, v);
  };
  const int64_t tileM = cta.plan.getTileM();
  const int64_t xTiles = cta.kernel.getCtasAlongN(
      getOperandShape(op.getWeight().getType()).rows);
  // The walk counts in i32: a 64-bit index would hold two more registers
  // through every K loop.
  auto i32 = [&](Value v) -> Value {
    return arith::IndexCastUIOp::create(b, cta.i32, v);
  };
  auto loop = scf::ForOp::create(b, i32(op.getFirstTile()),
                                 cta.c32(xTiles * cta.mTiles),
                                 i32(op.getTileStep()), init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value w = loop.getInductionVar();
  Value y = arith::DivUIOp::create(b, w, cta.c32(xTiles));
  Value x = arith::RemUIOp::create(b, w, cta.c32(xTiles));
  Type indexType = b.getIndexType();
  auto tile = GroupTileOp::create(
      b, indexType, indexType, indexType, op.getOffsets(),
      arith::IndexCastUIOp::create(b, indexType, y),
      b.getI64IntegerAttr(tileM),
      b.getI64IntegerAttr(getOperandShape(op.getA().getType()).rows));
  Value hasRows = cta.cmp(arith::CmpIPredicate::ult, tile.getRowBegin(),
                          tile.getRowEnd());
  auto ifOp = scf::IfOp::create(b, ValueRange(init).getTypes(), hasRows,
                                /*withElseRegion=*/true);
  ValueRange carried = loop.getRegionIterArgs();
  b.setInsertionPointToStart(ifOp.thenBlock());
  cta.mBase = arith::MulIOp::create(b, y, cta.c32(tileM));
  cta.setTile(arith::IndexCastUIOp::create(
                  b, indexType,
                  arith::MulIOp::create(b, x, cta.c32(cta.plan.getTileN()))),
              index(0), tile.getGroup(), tile.getRowBegin(),
              tile.getRowEnd());
  scf::YieldOp::create(b, body(carried));
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, carried);
  b.setInsertionPointAfter(ifOp);
  scf::YieldOp::create(b, ifOp.getResults());
  return SmallVector<Value>(loop.getResults());
}
