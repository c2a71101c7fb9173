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
// - with split_weights (one warpgroup a weight) there is nothing to add:
//   the two warpgroups swap halves of their tiles there instead
//   (nvfp4.wgmma.swap_halves), so each holds both weights' values of half
//   the tile's rows of A and stores them;
// - a #nvfp4.split_k on chip: the holders of the tile's sum (K group 0) of
//   the cluster's CTAs add their tiles into the first one's, which alone
//   stores (mode cluster, nvfp4.wgmma.reduce_splits), or each split adds
//   and stores its part of the tile (mode scatter,
//   nvfp4.wgmma.reduce_scatter_splits), through the plan's exchange area;
// - in mode global each split stores its partial tile to its copy in
//   `partials` and a third kernel adds them (nvfp4.sum_splits).
//
// Every reduction adds whole tiles element by element, before the
// epilogue (the gated dual GEMM's gate is not linear: its splits must meet
// before it). Several weights' accumulators go through them as one vector,
// interleaved by groups of 4 values (one 8-column group of the fragment),
// so that a split's part of the tile holds every weight's values of the
// same rows of A.
//
//===----------------------------------------------------------------------===//

#include "WgmmaCta.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::gemm;

namespace {

/// Values per group of the D fragment: 2 rows x 2 columns of 8 columns.
constexpr int64_t kGroup = 4;

/// The weights' accumulators as one vector, group g of weight w at group
/// g x weights + w.
Value joinAccumulators(ImplicitLocOpBuilder &b, ValueRange accs) {
  if (accs.size() == 1)
    return accs.front();
  assert(accs.size() == 2 && "vector.shuffle joins two vectors");
  const int64_t n = cast<VectorType>(accs[0].getType()).getNumElements();
  SmallVector<int64_t> mask;
  for (int64_t g = 0; g < n / kGroup; ++g)
    for (int64_t w = 0; w < 2; ++w)
      for (int64_t e = 0; e < kGroup; ++e)
        mask.push_back(w * n + g * kGroup + e);
  return vector::ShuffleOp::create(b, accs[0], accs[1], mask);
}

/// The inverse of joinAccumulators: each weight's values of `joined`.
SmallVector<Value> splitAccumulators(ImplicitLocOpBuilder &b, Value joined,
                                     int64_t weights) {
  if (weights == 1)
    return {joined};
  const int64_t n =
      cast<VectorType>(joined.getType()).getNumElements() / weights;
  SmallVector<Value> accs;
  for (int64_t w = 0; w < weights; ++w) {
    SmallVector<int64_t> mask;
    for (int64_t g = 0; g < n / kGroup; ++g)
      for (int64_t e = 0; e < kGroup; ++e)
        mask.push_back((g * weights + w) * kGroup + e);
    accs.push_back(vector::ShuffleOp::create(b, joined, joined, mask));
  }
  return accs;
}

} // namespace

LogicalResult mlir::nvfp4::gemm::swapHalvesAndStore(WgmmaCta &cta, Value acc,
                                                    WgmmaEpilogue &epilogue) {
  ImplicitLocOpBuilder &b = cta.b;
  const int64_t n = cast<VectorType>(acc.getType()).getNumElements();
  auto halfType = VectorType::get({n / 2}, b.getF32Type());
  // The plan reserved the halves' bytes below the staged store
  // (getKGroupSumsBytes, by the op's own formula).
  Value theirs = WgmmaSwapHalvesOp::create(b, halfType, acc, cta.ring);
  auto half = [&](int64_t h) -> Value {
    SmallVector<int64_t> mask;
    for (int64_t i = 0; i < n / 2; ++i)
      mask.push_back(h * n / 2 + i);
    return vector::ShuffleOp::create(b, acc, acc, mask);
  };
  // Warpgroup w (weight w) kept half w of its tile: rows w x tile_m / 2.
  Value first =
      cta.cmp(arith::CmpIPredicate::eq, cta.weightWarpgroup, cta.c32(0));
  Value lower = half(0);
  Value upper = half(1);
  Value kept = arith::SelectOp::create(b, first, lower, upper);
  Value gate = arith::SelectOp::create(b, first, kept, theirs);
  Value up = arith::SelectOp::create(b, first, theirs, kept);
  Value m = cta.add(cta.mBase, cta.mul(cta.weightWarpgroup,
                                       cta.c32(cta.plan.getTileM() / 2)));
  return epilogue.store({gate, up}, Value(), m);
}

LogicalResult mlir::nvfp4::gemm::reduceAndStore(WgmmaCta &cta, ValueRange accs,
                                                WgmmaEpilogue &epilogue) {
  ImplicitLocOpBuilder &b = cta.b;
  const int64_t weights = cta.weights;
  Value acc = joinAccumulators(b, accs);
  auto c32 = [&](int64_t v) { return cta.c32(v); };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return cta.cmp(p, x, y);
  };
  auto add = [&](Value x, Value y) { return cta.add(x, y); };
  const int64_t warpgroups = cta.plan.getWarpgroups();
  // The K groups' partial sums meet in group 0, which stores.
  // The store's split: which copy of C in `partials` (without them, C).
  Value split = cta.op.getPartials() ? cta.op.getSplit() : Value();
  LogicalResult stored = success();
  auto store = [&] {
    stored = epilogue.store(splitAccumulators(b, acc, weights), split);
  };
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
          VectorType::get({weights * tileM / splitK / 2}, b.getF32Type()), acc,
          cta.ring, b.getI64IntegerAttr(splitK),
          b.getI64IntegerAttr(warpgroups), releaseReads, aTiles);
      // The op counts rows by the joined tile's values: weights x as many.
      Value rowOffset = b.createOrFold<arith::DivUIOp>(
          scattered.getRowOffset(), c32(weights));
      stored =
          epilogue.store(splitAccumulators(b, scattered.getPart(), weights),
                         Value(), add(cta.mBase, rowOffset));
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
  return stored;
}
