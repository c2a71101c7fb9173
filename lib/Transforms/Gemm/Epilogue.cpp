//===- Epilogue.cpp - the sm_90a GEMM's store of its accumulators ---------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The epilogue of a wgmma CTA: a tile of fp32 accumulators (the D
// fragment) to C, converted to C's type and masked at M and N, or to its
// fp32 partials copy with split-K in mode global (nvfp4.wgmma.store).
// C's tile goes through the ring's memory, free after the K loop, where
// the shared-memory plan has room for it, so that C is written in whole
// lines (`staged`); an MXFP4 C's warps exchange their blocks' amaxes
// there (a block spans two warps). The tile's epilogue region, after every
// reduction, gives the value stored: the GEMM's is the identity (nothing to
// apply).
//
//===----------------------------------------------------------------------===//

#include "WgmmaCta.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::gemm;

Value WgmmaEpilogue::apply(ValueRange accs) {
  std::optional<unsigned> identity = cta.op.getEpilogueIdentity();
  if (identity)
    return accs[*identity];
  // The region's elementwise ops on whole fragments: each op cloned with
  // vector results, its f32 constants splat.
  auto type = cast<VectorType>(accs.front().getType());
  Block &body = cta.op.getEpilogue().front();
  IRMapping map;
  map.map(body.getArguments(), accs);
  for (Operation &op : body.without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      map.map(constant.getResult(),
              arith::ConstantOp::create(
                  b, DenseElementsAttr::get(
                         type, cast<FloatAttr>(constant.getValue()))));
      continue;
    }
    Operation *clone = b.clone(op, map);
    for (Value result : clone->getResults())
      result.setType(type);
  }
  return map.lookup(cast<YieldOp>(body.getTerminator()).getValue());
}

LogicalResult WgmmaEpilogue::store(ValueRange accs, Value split, Value m) {
  if (!m)
    m = cta.cRowBegin ? cta.cRowBegin : cta.mBase;
  // C's tile goes through the ring's memory (free after the K loop) where
  // it can, so that C is written in whole lines (wgmma.store `staged`):
  // above the K groups' sums, below a split cluster's exchange area.
  Value staging;
  IntegerAttr stagingOffset, stagingWarpgroups;
  const int64_t accumulators =
      cast<VectorType>(accs.front().getType()).getNumElements();
  MemRefType cType = cta.op.getC().getType();
  // Every consumer thread must be past its K loop, its loads of B's
  // fragments from the ring included, before any writes there: after the
  // K groups' barrier, the swap of halves' or the split cluster's;
  // otherwise the consumers meet
  // a barrier first (below). (Within one warpgroup a warp's last loads
  // precede its part of the last MMA, which the others wait for, but
  // compute-sanitizer's racecheck cannot see that order: a tile staged
  // over B's bytes of a slot was reported as a race without the barrier.)
  const bool loopsOver = cta.kGroups > 1 || cta.kernel.getSplitCluster() ||
                         cta.plan.getSplitWeights();
  const int64_t exchangeFloats =
      cta.plan.getWarpgroups() * 128 * accumulators * cta.weights;
  // An MXFP4 C's warps exchange their amaxes in the same place (the store
  // waits for both warpgroups itself, so it is not skipped for either).
  Value cScales = cta.op.getCScales();
  const bool mxC = cScales && BlockFormat::of(cScales.getType()).isMX();
  std::optional<int64_t> offset;
  if (mxC) {
    const int64_t bytes =
        cta.storeWarpgroups * WgmmaStoreOp::getMXExchangeBytes(accumulators);
    offset = cta.smem->getMXExchangeOffset(bytes, exchangeFloats);
    if (!offset)
      return cta.op.emitOpError()
             << "has an MXFP4 C, whose warps exchange their blocks' amaxes "
                "in the ring after the K loop, but its plan "
             << cta.kernel << " leaves no " << bytes
             << " bytes free there (above the K groups' sums, beside the "
                "split-K exchange); use fewer K groups or splits, or more "
                "stages";
  }
  // (Tiles past M, or a grouped GEMM's, which end at a run-time row, stage
  // too: their 16-byte stores are masked there.)
  else if (!split && WgmmaStoreOp::canStage(cType)) {
    const int64_t bytes =
        cta.storeWarpgroups *
        WgmmaStoreOp::getStagedTileBytes(
            accumulators, cType.getElementType().getIntOrFloatBitWidth() / 8);
    // Below a split cluster's exchange: the other splits' tiles, or with
    // reduce_scatter_splits (a part of the tile to store) their parts.
    offset = cta.smem->getStagingOffset(bytes, exchangeFloats);
  }
  if (offset) {
    staging = cta.ring;
    stagingOffset = b.getI64IntegerAttr(*offset);
    stagingWarpgroups = b.getI64IntegerAttr(cta.storeWarpgroups);
    // Consumers that have met no barrier since their K loops (no K groups,
    // no split cluster) meet one first: none stages its tile over ring
    // slots another may still be reading. Before any guard, so that a
    // warpgroup that stores nothing still arrives (an MXFP4 C's store
    // meets it itself with two warpgroups).
    if (!loopsOver && !(mxC && cta.storeWarpgroups > 1))
      NVVM::BarrierOp::create(b, Type(), c32(WgmmaSmemPlan::kLoopsOverBarrier),
                              c32(128 * cta.storeWarpgroups),
                              NVVM::BarrierReductionAttr(), Value());
  }
  auto emitStore = [&] {
    WgmmaStoreOp::create(b, apply(accs), cta.op.getC(), cta.op.getCScales(),
                         cta.op.getCGlobalScale(), cta.op.getPartials(), m,
                         cta.cRowEnd, cta.rowBase, cta.batch, split, staging,
                         stagingOffset, stagingWarpgroups,
                         cta.op.getCScalesLayout(),
                         cta.op.getCScaleRoundingAttr());
  };
  if (mxC) {
    emitStore();
    return success();
  }
  // When the CTA's rows of B can reach past N, a warpgroup whose rows all
  // lie past N (N a multiple of 64: its rows are not masked one by one)
  // stores nothing; so does a part of the tile (reduce_scatter_splits)
  // whose rows all lie past M (M a multiple of the part, not of the tile;
  // otherwise the store masks them).
  const int64_t n = getOperandShape(cta.op.getWeight().getType()).rows;
  const int64_t rows = getOperandShape(cta.op.getA().getType()).rows;
  const int64_t partRows = 2 * accumulators;
  Value stores;
  if (n % cta.plan.getTileN() != 0 && n % 64 == 0)
    stores = cmp(arith::CmpIPredicate::ult, cta.rowBase, c32(n));
  if (rows % cta.plan.getTileM() != 0 && rows % partRows == 0) {
    Value inM = cmp(arith::CmpIPredicate::ult, m, c32(rows));
    stores = stores ? arith::AndIOp::create(b, stores, inM) : inM;
  }
  if (!stores) {
    emitStore();
    return success();
  }
  auto ifOp = scf::IfOp::create(b, stores, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  emitStore();
  return success();
}
