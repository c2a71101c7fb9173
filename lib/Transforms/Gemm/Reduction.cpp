//===- Reduction.cpp - the sm_90a GEMM's sums after the K loop ------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// What a wgmma CTA adds after its K loop, before the epilogue stores:
//
// - the K groups' partial sums meet in group 0 (nvfp4.wgmma.reduce_k_groups,
//   through the shared-memory plan's K-group area);
// - a #nvfp4.split_k on chip: the holders of the tile's sum (K group 0) of
//   the cluster's CTAs add their tiles into the first one's, which alone
//   stores (mode cluster, nvfp4.wgmma.reduce_splits), or each split adds
//   and stores its part of the tile (mode scatter,
//   nvfp4.wgmma.reduce_scatter_splits), through the plan's exchange area;
// - in mode global each split stores its partial tile to its copy in
//   `partials` and a third kernel adds them (nvfp4.sum_splits).
//
//===----------------------------------------------------------------------===//

#include "WgmmaCta.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::gemm;

void mlir::nvfp4::gemm::reduceAndStore(WgmmaCta &cta, Value acc,
                                       WgmmaEpilogue &epilogue) {
  ImplicitLocOpBuilder &b = cta.b;
  auto c32 = [&](int64_t v) { return cta.c32(v); };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return cta.cmp(p, x, y);
  };
  auto add = [&](Value x, Value y) { return cta.add(x, y); };
  const int64_t warpgroups = cta.plan.getWarpgroups();
  // The K groups' partial sums meet in group 0, which stores.
  // The store's split: which copy of C in `partials` (without them, C).
  Value split = cta.op.getPartials() ? cta.op.getSplit() : Value();
  auto store = [&] { epilogue.store(acc, split); };
  // On chip (cluster or scatter) the holders of the tile's sum (K group 0) of
  // the cluster's CTAs add their tiles into the first one's, which alone
  // stores.
  auto reduceSplitsAndStore = [&] {
    if (!cta.kernel.getSplitCluster()) {
      store();
      return;
    }
    const int64_t splitK = cta.kernel.getSplitK();
    const int64_t tileM = cta.plan.getTileM();
    // b_tma: the holders read slots with plain loads; the exchange skips
    // those bytes where it fits in the slots' A tiles, else its first
    // phase releases the reads (performance.md, GEMM v33).
    const bool scatter = cta.kernel.getSplitScatter();
    const int64_t accs = cast<VectorType>(acc.getType()).getNumElements();
    IntegerAttr aTiles;
    if (int64_t t = cta.smem
                        ->getExchange(warpgroups * 128 *
                                      (scatter ? accs / splitK : accs))
                        .aTileBytes)
      aTiles = b.getI64IntegerAttr(t);
    UnitAttr releaseReads =
        cta.plan.getBTma() && !aTiles ? b.getUnitAttr() : UnitAttr();
    if (scatter) {
      // Each split adds and stores tile_m / split_k of the tile's rows of A
      // (performance.md, GEMM v32).
      auto scattered = WgmmaReduceScatterSplitsOp::create(
          b, b.getI32Type(),
          VectorType::get({tileM / splitK / 2}, b.getF32Type()), acc, cta.ring,
          b.getI64IntegerAttr(splitK), b.getI64IntegerAttr(warpgroups),
          releaseReads, aTiles);
      epilogue.store(scattered.getPart(), Value(),
                     add(cta.mBase, scattered.getRowOffset()));
      return;
    }
    auto reduced = WgmmaReduceSplitsOp::create(
        b, b.getI1Type(), acc.getType(), acc, cta.ring,
        b.getI64IntegerAttr(splitK), b.getI64IntegerAttr(warpgroups),
        releaseReads, aTiles);
    acc = reduced.getResult();
    auto first = scf::IfOp::create(b, reduced.getFirst(),
                                   /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    store();
  };
  if (cta.kGroups == 1) {
    reduceSplitsAndStore();
  } else {
    acc = WgmmaReduceKGroupsOp::create(b, acc.getType(), acc, cta.ring,
                                       b.getI64IntegerAttr(cta.kGroups),
                                       b.getI64IntegerAttr(warpgroups));
    auto ifOp =
        scf::IfOp::create(b, cmp(arith::CmpIPredicate::eq, cta.kGroup, c32(0)),
                          /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    reduceSplitsAndStore();
  }
}
