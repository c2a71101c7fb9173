//===- MainloopSm100.cpp - the sm_100a GEMM's tcgen05 mainloop ------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The K loop of a gemm_tile with a #nvfp4.tcgen05_mainloop, written out per
// thread for nvfp4-software-pipeline. The CTA is 4 warps around a ring of
// `stages` slots of 256 K values:
//
// - warp 0 (the producer) fills slot s = i % stages with the CTA's K
//   slice i: `nvfp4.ring.expect`, then TMA copies of the tiles of B (128
//   rows, the MMA's A) and A (tile_m rows, the MMA's B), 128B-swizzled
//   (values past K read as zero), and 1-D bulk copies of their scales (the
//   blocked layout's 128 x 4 atoms of the slice: 2 KiB per 128 rows, 1 KiB
//   for MXFP4, contiguous in global memory; zero past K,
//   nvfp4.block_scales_tile);
//   before reusing a slot it acquires it (`nvfp4.ring.acquire`);
// - warp 1 (the MMA warp) waits for the slot (`nvfp4.ring.wait`),
//   copies its scale atoms to the slot's TMEM columns (`nvfp4.tcgen05.cp`),
//   issues the slice's 4 MMAs of K = 64 (`nvfp4.tcgen05.mma`; an MXFP4
//   atom serves two, the second with scale id 2) and releases
//   the slot when they complete (`nvfp4.tcgen05.release`: tcgen05.commit on
//   its empty barrier); after the last slice it commits the accumulator
//   (`nvfp4.tcgen05.commit`);
// - the producer and MMA warps run their loops whole: all 32 lanes wait on
//   the barriers, one lane elected once before the loop (`nvvm.elect.sync`)
//   issues the copies, MMAs and commits; the warp meets after each trip's
//   wait (bar.warp.sync), so no lane falls a barrier phase behind, where
//   its parity wait would never pass. A lone lane whose 31 siblings
//   spin elsewhere hands a slot over about 3.6x slower (170 against 47 ns,
//   measured on an H200: docs/design.md), and the same lane must issue
//   every MMA its commits track;
// - all 4 warps wait for the accumulator (`nvfp4.tcgen05.wait`) and store
//   their lane quadrant of it (`nvfp4.tcgen05.store`), then free TMEM; with
//   an on-chip split-K the splits' CTAs first add their accumulators into the
//   first one's (`nvfp4.tcgen05.reduce_splits`), which alone stores.
//
// With cta_group = 2 the CTAs of a cluster of 2 along x are a pair: each
// producer fills its own slots (its 128 rows of B, half of the tile's rows
// of A, all of the tile's scales of A) on its own barriers; the second
// CTA's warp 1 tells the first when its slots landed (`nvfp4.ring.forward`
// onto the first's peer_full barriers, which the first's `nvfp4.ring.wait
// ... peer` also waits for); the first CTA's warp 1 issues the M = 256
// scale copies and MMAs for both (cta_group::2), and its commits arrive on
// both CTAs' barriers. Each CTA stores its own accumulator. (PTX ISA
// 9.7.16: the pair's operand split, tcgen05.cp and commit with
// cta_group::2; CUTLASS's 2x1SM MMA traits and pipelines, and DeepGEMM's
// sm100 kernels, whose second CTA forwards its slots the same way:
// docs/design.md, "CTA pairs on sm_100a".)
//
// A grouped GEMM's tile (nvfp4.group_tile's group and rows [begin, end))
// reads group g's weights and their scales (batch g), A's packed rows from
// `begin` (rows past the group's end are multiplied but not stored), and
// A's scales from the gathered tiles at m_base (nvfp4.gather_scales_tile);
// its store starts at C's row `begin` and ends at `end`.
//
// The pass computes every layout decision here, as attributes of the ops:
// slot offsets, TMEM columns and the MMAs' descriptors (built by
// include/nvfp4/Target/Tcgen05Descriptors.h with the operand's offset in
// the slot as start address), so the host model's tests
// (test/unit/Tcgen05PipelineTest.cpp) run what the compiler emitted.
//
//===----------------------------------------------------------------------===//

#include "../PipelineBuilders.h"

#include "nvfp4/Dialect/NVFP4/Tcgen05Tiles.h"
#include "nvfp4/Target/Tcgen05Descriptors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The K-major, 128B-swizzled operand of the slot at byte `offset`, K step
/// `step` (32 bytes each), as the TMA copy writes it.
uint64_t operandDescriptor(int64_t offset, int64_t step) {
  return tcgen05::kMajorSwizzled128BDescriptor(
             static_cast<uint32_t>(offset +
                                   step * (Tcgen05MainloopAttr::kMmaK / 2)))
      .encode();
}

class Tcgen05PipelineBuilder : FoldingBuilder {
public:
  Tcgen05PipelineBuilder(GemmTileOp op, ImplicitLocOpBuilder &b)
      : FoldingBuilder(b), op(op), kernel(op.getPlan()),
        plan(op.getTcgen05Mainloop()) {
    OperandShape a = getOperandShape(op.getA().getType());
    k = a.k;
    m = a.rows;
    // A's 128-row scale blocks: A's rows', or a grouped tile's gathered
    // tiles' (the verifier checked the shape).
    aScaleBlocks = op.getSfa().getType().getShape().drop_back(4).back();
    n = getOperandShape(op.getWeight().getType()).rows;
    slices = Tcgen05MainloopAttr::getSlices(a.k) / kernel.getSplitK();
  }

  LogicalResult build();

private:
  Value c64(int64_t v) {
    return arith::ConstantIntOp::create(b, b.getI64Type(), v);
  }
  Value ext(Value x) {
    return b.createOrFold<arith::ExtUIOp>(b.getI64Type(), x);
  }
  /// The slot and use of the CTA's K slice `i` (i32).
  std::pair<Value, Value> slotOf(Value i) {
    return {b.createOrFold<arith::RemUIOp>(i, c32(plan.getStages())),
            b.createOrFold<arith::DivUIOp>(i, c32(plan.getStages()))};
  }
  /// Byte offset (i64) of the scales of 128-row block `block` (i32) for K
  /// slice `global` (i32, in the whole K) of batch `batch` (index) in the
  /// blocked layout of `rowBlocks` blocks of rows, K padded to whole slices
  /// (the tile's scale operands): atom (block, chunk) is at (block x
  /// chunks + chunk) x 512 (lib/Reference/Layout.h), so a slice's atoms
  /// (4 NVFP4, 2 MXFP4) are contiguous from chunk atoms x global.
  Value scaleOffset(int64_t rowBlocks, Value batch, Value block,
                    Value global) {
    const int64_t chunks = Tcgen05MainloopAttr::getSlotK(k) /
                           plan.getBlockFormat().getAtomK();
    const int64_t batchBytes = rowBlocks * chunks * 512;
    Value batch64 = b.createOrFold<arith::IndexCastUIOp>(b.getI64Type(), batch);
    return add(
        add(mul(batch64, c64(batchBytes)), mul(ext(block), c64(chunks * 512))),
        mul(ext(global), c64(plan.getScaleBlockBytes())));
  }
  void produce(Value leader);
  void issue(Value leader);
  void forward(Value leader);

  GemmTileOp op;
  KernelPlanAttr kernel;
  Tcgen05MainloopAttr plan;
  int64_t k, m, n, slices, aScaleBlocks;
  /// The weights' batch (a grouped tile's group; index and i32) and A's
  /// first row (a grouped tile's first row of its group, else m_base).
  Value ring, tmem, mBase, nBase, batch32, weightBatch, weightBatch32, aRow,
      sliceBase;
  /// A CTA pair's rank of this CTA (i32: block x % 2; the pair is a
  /// cluster of 2 along x); null for cta_group = 1.
  Value pairRank;
};

/// Warp 0: every K slice into its slot, in order; the whole warp acquires
/// the slot, its `leader` lane issues the copies.
void Tcgen05PipelineBuilder::produce(Value leader) {
  auto loop = scf::ForOp::create(b, c32(0), c32(slices), c32(1));
  if (pairRank) {
    // A pair's CTA leaves only once the first CTA's releases of its last
    // slots arrived (they arrive on both CTAs' barriers): it acquires each
    // slot once more after the loop, as slices max(slices, stages) ..
    // slices + stages - 1 would (each a slot's next use: it waits for the
    // release of its last).
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(loop);
    auto tail = scf::ForOp::create(b, c32(std::max(slices, plan.getStages())),
                                   c32(slices + plan.getStages()), c32(1));
    b.setInsertionPointToStart(tail.getBody());
    auto [slot, use] = slotOf(tail.getInductionVar());
    acquireForReuse(b, ring, slot, use);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  auto [slot, use] = slotOf(i);
  acquireForReuse(b, ring, slot, use);
  // The warp meets after every trip's wait (an elect.sync made once does
  // not make it): no lane lags a phase of a slot's barrier behind.
  NVVM::SyncWarpOp::create(b, c32(-1));
  b.setInsertionPointToStart(
      scf::IfOp::create(b, leader, /*withElseRegion=*/false).thenBlock());
  Value global = add(i, sliceBase);
  Value kByte = mul(global, c32(Tcgen05MainloopAttr::kStageRowBytes));
  Value aMap = op.getABytes();
  const int64_t weights = plan.getWeights();
  RingExpectOp::create(b, ring, slot, /*bytes=*/IntegerAttr());
  for (int64_t w = 0; w < weights; ++w)
    RingCopyOp::create(b, ring, slot, Tcgen05MainloopAttr::getBOffset(w),
                       op.getBBytes()[w],
                       ValueRange{weightBatch32, nBase, kByte});
  // Every CTA of a column of the grid reads this tile of A (the
  // activations) while the weights stream through L2 once: A's lines are
  // kept longer, as on sm_90a (performance.md GEMM v17). A pair's CTAs
  // copy half of the tile's rows each.
  Value aCopyRow = aRow;
  if (pairRank)
    aCopyRow = add(aRow, mul(pairRank, c32(plan.getARowsPerCta())));
  RingCopyOp::create(b, ring, slot, plan.getAOffset(), aMap,
                     ValueRange{batch32, aCopyRow, kByte},
                     /*keep_in_l2=*/true);
  // (A pair's second CTA past N, when B has an odd number of tiles, reads
  // the last block of B's scales again: its rows of B are zero.)
  const int64_t weightBlocks = BlockFormat::getRowAtoms(n);
  Value weightBlock = b.createOrFold<arith::DivUIOp>(nBase, c32(128));
  if (pairRank && weightBlocks % 2)
    weightBlock =
        b.createOrFold<arith::MinUIOp>(weightBlock, c32(weightBlocks - 1));
  for (int64_t w = 0; w < weights; ++w)
    RingCopyBytesOp::create(
        b, ring, slot, plan.getSfbOffset(w), op.getSfb()[w],
        scaleOffset(weightBlocks, weightBatch, weightBlock, global),
        plan.getScaleBlockBytes());
  // A's blocks: past M's last block (a 256-row tile over fewer rows) the
  // last one again; its rows of A are zero (TMA's bounds) and unstored.
  const int64_t lastBlock = aScaleBlocks - 1;
  for (int64_t j = 0; j < plan.getScaleBlocksA(); ++j) {
    Value block = b.createOrFold<arith::MinUIOp>(
        add(b.createOrFold<arith::DivUIOp>(mBase, c32(128)), c32(j)),
        c32(lastBlock));
    RingCopyBytesOp::create(b, ring, slot,
                            plan.getSfaOffset() + j * plan.getScaleBlockBytes(),
                            op.getSfa(),
                            scaleOffset(aScaleBlocks, op.getBatch(), block,
                                        global),
                            plan.getScaleBlockBytes());
  }
}

/// A pair's second CTA, warp 1: for every K slice, once this CTA's bytes
/// of the slot landed (`nvfp4.ring.wait`), its `leader` lane tells the
/// first CTA, whose MMAs read them (`nvfp4.ring.forward`).
void Tcgen05PipelineBuilder::forward(Value leader) {
  auto loop = scf::ForOp::create(b, c32(0), c32(slices), c32(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  auto [slot, use] = slotOf(loop.getInductionVar());
  RingWaitOp::create(b, ring, slot, arith::AndIOp::create(b, use, c32(1)));
  NVVM::SyncWarpOp::create(b, c32(-1));
  b.setInsertionPointToStart(
      scf::IfOp::create(b, leader, /*withElseRegion=*/false).thenBlock());
  RingForwardOp::create(b, ring, slot);
}

/// Warp 1: each slice's scales to TMEM, its 4 MMAs, the slot's release;
/// then the accumulator's commit. The whole warp waits for the slot, its
/// `leader` lane issues.
void Tcgen05PipelineBuilder::issue(Value leader) {
  MLIRContext *ctx = b.getContext();
  const int64_t steps =
      Tcgen05MainloopAttr::kStageK / Tcgen05MainloopAttr::kMmaK;
  const int64_t atoms = plan.getScaleAtomsPerSlot();
  const int64_t mmasPerAtom = plan.getMmasPerAtom();
  const bool mx = plan.getFormat() == ScaleFormat::MXFP4;
  const int64_t blocksA = plan.getScaleBlocksA();
  const int64_t weights = plan.getWeights();
  const int64_t step = plan.getScaleColumnsPerSlot();
  // Per slot: each weight's B scales (4 columns per atom), then A's.
  const int64_t sfbBase = plan.getScaleColumnBase();
  auto sfbColumn = [&](int64_t w, int64_t u) {
    return sfbBase + (w * atoms + u) * plan.getSfbColumnsPerAtom();
  };
  const int64_t sfaBase = sfbColumn(weights, 0);
  // MMA step t reads atom t / mmasPerAtom; MXFP4's .block32 the half word
  // of its cells that scale id 2 (t % 2) selects.
  auto idescOf = [&](int64_t t) {
    tcgen05::Mxf4InstrDescriptor instr;
    // A pair's MMA covers both CTAs' tiles of B (M = 256).
    instr.m = Tcgen05MainloopAttr::kTileN * plan.getCtaGroup();
    instr.n = plan.getTileM();
    if (mx) {
      instr.scaleFormat = tcgen05::ScaleFormat::UE8M0;
      instr.scaleIdA = instr.scaleIdB =
          static_cast<uint8_t>(2 * (t % mmasPerAtom));
    }
    return instr.encode();
  };
  // A tile of fewer than 128 rows of A reads its quarters of the 128-row
  // block's scales: columns + (m_base % 128) / 32.
  Value sfbShift =
      plan.getTileM() < 128
          ? b.createOrFold<arith::DivUIOp>(
                b.createOrFold<arith::RemUIOp>(mBase, c32(128)), c32(32))
          : c32(0);

  auto loop = scf::ForOp::create(b, c32(0), c32(slices), c32(1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    auto [slot, use] = slotOf(i);
    // A pair's first CTA waits for the second's bytes of the slot too.
    RingWaitOp::create(b, ring, slot, arith::AndIOp::create(b, use, c32(1)),
                       /*peer=*/static_cast<bool>(pairRank));
    NVVM::SyncWarpOp::create(b, c32(-1));
    b.setInsertionPointToStart(
        scf::IfOp::create(b, leader, /*withElseRegion=*/false).thenBlock());
    // Atom u of weight w's B scales goes to sfbColumn(w, u), A's to
    // sfaBase + 4 blocksA u (+ 4 j for A's block j).
    for (int64_t w = 0; w < weights; ++w)
      for (int64_t u = 0; u < atoms; ++u)
        Tcgen05CopyScalesOp::create(b, ring, slot,
                                    plan.getSfbOffset(w) + 512 * u, tmem,
                                    sfbColumn(w, u), step);
    for (int64_t j = 0; j < blocksA; ++j)
      for (int64_t u = 0; u < atoms; ++u)
        Tcgen05CopyScalesOp::create(
            b, ring, slot,
            plan.getSfaOffset() + j * plan.getScaleBlockBytes() + 512 * u,
            tmem, sfaBase + 4 * blocksA * u + 4 * j, step);
    Value notFirst = cmp(arith::CmpIPredicate::ugt, i, c32(0));
    Value yes = arith::ConstantIntOp::create(b, b.getI1Type(), 1);
    // A last slice of fewer than 4 K steps (K % 256 != 0) issues only its
    // own: the steps past K would add zero values times the scales of the
    // padding, which a blocked layout's producer may have left non-zero
    // (an MXFP4 atom half past K; NaN times zero is NaN).
    const int64_t lastSteps =
        (k % Tcgen05MainloopAttr::kStageK) / Tcgen05MainloopAttr::kMmaK;
    Value notLast;
    if (lastSteps)
      notLast = cmp(arith::CmpIPredicate::ne, add(i, sliceBase),
                    c32(Tcgen05MainloopAttr::getSlices(k) - 1));
    // Each weight's MMA on the same tile of A and its scales, into its
    // own accumulator.
    for (int64_t t = 0; t < steps; ++t)
      for (int64_t w = 0; w < weights; ++w) {
        const int64_t u = t / mmasPerAtom;
        OpBuilder::InsertionGuard stepGuard(b);
        if (lastSteps && t >= lastSteps)
          b.setInsertionPointToStart(
              scf::IfOp::create(b, notLast, /*withElseRegion=*/false)
                  .thenBlock());
        Tcgen05MmaOp::create(
            b, tmem, ring, slot, t == 0 ? notFirst : yes, sfbShift,
            b.getI64IntegerAttr(static_cast<int64_t>(
                operandDescriptor(Tcgen05MainloopAttr::getBOffset(w), t))),
            b.getI64IntegerAttr(
                static_cast<int64_t>(operandDescriptor(plan.getAOffset(), t))),
            IntegerAttr::get(IntegerType::get(ctx, 32), idescOf(t)),
            b.getI64IntegerAttr(plan.getAccumulatorColumn(w)),
            b.getI64IntegerAttr(sfbColumn(w, u)),
            b.getI64IntegerAttr(sfaBase + 4 * blocksA * u),
            b.getI64IntegerAttr(step));
      }
    Tcgen05ReleaseOp::create(b, ring, slot);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(
      scf::IfOp::create(b, leader, /*withElseRegion=*/false).thenBlock());
  Tcgen05CommitOp::create(b, tmem);
}

LogicalResult Tcgen05PipelineBuilder::build() {
  MLIRContext *ctx = b.getContext();
  if (DenseI32ArrayAttr block = getKnownBlockSize(op);
      block && !isRowShape(block, Tcgen05MainloopAttr::kThreads))
    return op.emitOpError()
           << "has a #nvfp4.tcgen05_mainloop, whose CTA is "
           << Tcgen05MainloopAttr::kThreads
           << " x 1 x 1 threads, but its kernel's known_block_size says "
              "otherwise";
  // The MMA's A is the tile of B (the weights), its B the tile of A.
  // An on-chip split-K's cluster is the splits of a tile.
  if (failed(checkClusterShape(op, kernel.getClusterShape())))
    return failure();
  // The splits' exchange reuses the ring's memory after the K loop.
  const int64_t group = plan.getCtaGroup();
  auto ringType =
      RingType::get(ctx, plan.getStages(), plan.getSlotBytes(),
                    /*consumers=*/1, kernel.getScratchBytes(), group);
  // Every slot's copies must deliver exactly what ring.expect waits for.
  const int64_t weights = plan.getWeights();
  const int64_t copied =
      weights * Tcgen05MainloopAttr::kTileN *
          Tcgen05MainloopAttr::kStageRowBytes +
      plan.getARowsPerCta() * Tcgen05MainloopAttr::kStageRowBytes +
      (weights + plan.getScaleBlocksA()) * plan.getScaleBlockBytes();
  if (copied != ringType.getSlotBytes())
    return op.emitOpError() << "has a slot of " << ringType.getSlotBytes()
                            << " bytes that its copies (" << copied
                            << " bytes) do not fill exactly";
  // (The plan may launch with more: the padding that keeps CTAs from
  // sharing an SM beyond its TMEM columns.)
  if (ringType.getSharedBytes() > kernel.getSharedBytes())
    return op.emitOpError() << "needs a ring of " << ringType.getSharedBytes()
                            << " bytes of dynamic shared memory, but its plan "
                               "launches the kernel with "
                            << kernel.getSharedBytes();
  if (!plan.getTmemColumns())
    return op.emitOpError() << "needs " << plan.getTmemColumnsUsed()
                            << " TMEM columns, more than 512";
  ring = RingAllocOp::create(b, ringType);
  tmem =
      TmemAllocOp::create(b, TmemType::get(ctx, plan.getTmemColumns(), group));

  Value tid = arith::IndexCastUIOp::create(
      b, i32, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  mBase = arith::IndexCastUIOp::create(b, i32, op.getMBase());
  nBase = arith::IndexCastUIOp::create(b, i32, op.getNBase());
  batch32 = arith::IndexCastUIOp::create(b, i32, op.getBatch());
  weightBatch = op.getBatch();
  weightBatch32 = batch32;
  aRow = mBase;
  Value rowEnd;
  if (op.getGroup()) {
    weightBatch = op.getGroup();
    weightBatch32 = arith::IndexCastUIOp::create(b, i32, weightBatch);
    aRow = arith::IndexCastUIOp::create(b, i32, op.getRowBegin());
    rowEnd = arith::IndexCastUIOp::create(b, i32, op.getRowEnd());
  }
  sliceBase = kernel.getSplitK() > 1
                  ? mul(arith::IndexCastUIOp::create(b, i32, op.getSplit()),
                        c32(slices))
                  : c32(0);
  if (group == 2)
    pairRank = b.createOrFold<arith::RemUIOp>(
        arith::IndexCastUIOp::create(
            b, i32, gpu::BlockIdOp::create(b, gpu::Dimension::x)),
        c32(2));
  // Warp 0 produces, warp 1 issues the MMAs (a pair's second CTA: tells
  // the first that its slots landed); each elects its issuing lane once,
  // where the warp is converged.
  Value warp = b.createOrFold<arith::DivUIOp>(tid, c32(32));
  for (int64_t role = 0; role < 2; ++role) {
    auto roleIf =
        scf::IfOp::create(b, cmp(arith::CmpIPredicate::eq, warp, c32(role)),
                          /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(roleIf.thenBlock());
    Value leader = NVVM::ElectSyncOp::create(b, b.getI1Type(), Value());
    if (role == 0) {
      produce(leader);
      continue;
    }
    if (!pairRank) {
      issue(leader);
      continue;
    }
    auto first =
        scf::IfOp::create(b, cmp(arith::CmpIPredicate::eq, pairRank, c32(0)),
                          /*withElseRegion=*/true);
    b.setInsertionPointToStart(first.thenBlock());
    issue(leader);
    b.setInsertionPointToStart(first.elseBlock());
    forward(leader);
  }
  Tcgen05WaitOp::create(b, tmem);
  // The store applies the tile's epilogue to its accumulators (none: the
  // GEMM's identity, its one accumulator as it is).
  auto store = [&](Value partials, Value split) {
    auto storeOp = Tcgen05StoreOp::create(
        b, tmem, plan.getTileM(), op.getC(), op.getCScales(),
        op.getCGlobalScale(), partials, aRow, rowEnd, nBase, op.getBatch(),
        split, op.getCScalesLayout(), op.getCScaleRoundingAttr());
    // (The identity of the first accumulator needs no region; any other
    // epilogue, the identity of a later one included, is carried.)
    if (op.getEpilogueIdentity() != std::optional<unsigned>(0)) {
      IRMapping map;
      op.getEpilogue().cloneInto(&storeOp.getEpilogue(),
                                 storeOp.getEpilogue().end(), map);
    }
  };
  if (pairRank && BlockFormat::getRowAtoms(n) % 2) {
    // A pair's second CTA past N (B's tiles are odd) stores nothing.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(
        scf::IfOp::create(b, cmp(arith::CmpIPredicate::ult, nBase, c32(n)),
                          /*withElseRegion=*/false)
            .thenBlock());
    store(op.getPartials(), op.getSplit());
  } else if (!kernel.getSplitCluster()) {
    store(op.getPartials(), op.getSplit());
  } else {
    // The cluster's splits add their accumulators (every weight's: they
    // are adjacent columns) into the first one's, which alone stores C.
    Value isFirst = Tcgen05ReduceSplitsOp::create(
        b, b.getI1Type(), tmem, weights * plan.getTileM(), ring,
        kernel.getSplitK());
    auto first = scf::IfOp::create(b, isFirst, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    store(/*partials=*/Value(), /*split=*/Value());
  }
  TmemDeallocOp::create(b, tmem);
  return success();
}

} // namespace

LogicalResult mlir::nvfp4::buildTcgen05Pipeline(GemmTileOp op,
                                                ImplicitLocOpBuilder &b) {
  return Tcgen05PipelineBuilder(op, b).build();
}
