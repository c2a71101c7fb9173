//===- TileScheduler.cpp - the GEMM's grid, kernels and launches ----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// How nvfp4-tile maps a GEMM with a #nvfp4.kernel plan onto CTAs: the grid
// (one CTA per tile: x over B's tiles of tile_n rows, y over A's tiles of
// tile_m rows, z over batches x split-K's splits, gemmGrid), the block ids
// that give each CTA its tile's origin, the pre-pass kernels its mainloop
// needs (A decoded once for a wgmma ring; scales blocked into whole slots
// for tcgen05), split-K's workspace and sum kernel or its cluster, and the
// launches. The CTA itself is a gemm_tile the pipeline pass writes out.
//
//===----------------------------------------------------------------------===//

#include "../TileBuilders.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Dialect/NVFP4/Tcgen05Tiles.h"
#include "nvfp4/Dialect/NVFP4/WgmmaBTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The GEMM's grid, one CTA per tile: x over B's tiles of tile_n rows, y
/// over A's `mTiles` tiles (getATileCount), z over batches x split-K's
/// splits (block z = batch x splits + split, batchAndSplit).
gpu::KernelDim3 gemmGrid(OpBuilder &hb, Location loc, KernelPlanAttr plan,
                         int64_t mTiles, int64_t batch, int64_t n) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  return {idx(plan.getCtasAlongN(n)), idx(mTiles),
          idx(batch * plan.getSplitK())};
}

/// Split-K's last kernel, `<name>_sum_splits`: adds the splits' fp32
/// partial tiles into C (one block per 4 x kSumThreads elements), as the
/// programmatic dependent of the GEMM; then frees the partials.
void launchSumSplits(OpBuilder &hb, OpBuilder &kb, Location loc,
                     gpu::GPUModuleOp kernels, SymbolTable &symbols,
                     StringRef kernelName, Value partials, Value c,
                     int64_t splitK, Attribute plan) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  auto partialsType = cast<MemRefType>(partials.getType());
  // The sum: block x covers 4 * kSumThreads flat elements of C.
  auto cType = cast<MemRefType>(c.getType());
  std::string name = (kernelName + "_sum_splits").str();
  kb.setInsertionPointToEnd(kernels.getBody());
  auto sum = createKernel(kb, loc, name, {partialsType, cType},
                          SumSplitsOp::kSumThreads, symbols);
  Block &sumBody = sum.getBody().front();
  SumSplitsOp::create(
      kb, loc, sumBody.getArgument(0), sumBody.getArgument(1),
      scaledBlockId(kb, loc, gpu::Dimension::x, 4 * SumSplitsOp::kSumThreads),
      splitK);
  gpu::ReturnOp::create(kb, loc);
  auto sumLaunch = launchWithPlan(
      hb, loc, sum,
      gpu::KernelDim3{idx(llvm::divideCeil(cType.getNumElements(),
                                           4 * SumSplitsOp::kSumThreads)),
                      idx(1), idx(1)},
      gpu::KernelDim3{idx(SumSplitsOp::kSumThreads), idx(1), idx(1)},
      /*dynamicShared=*/Value(), ValueRange{partials, c}, plan);
  // The sum waits for the GEMM's partials with griddepcontrol.wait, so it
  // may be launched while the GEMM finishes.
  sumLaunch->setAttr(NVFP4Dialect::kDependentLaunchAttrName, hb.getUnitAttr());
  freeWorkspace(hb, loc, partials);
}

/// Split-K's workspace of the splits' fp32 partial tiles (`bytes`), added
/// to the GEMM's `operands`; null when the plan writes none (`bytes` = 0).
Value allocPartials(OpBuilder &hb, Location loc, int64_t bytes,
                    SmallVectorImpl<Value> &operands) {
  if (bytes == 0)
    return Value();
  Value partials =
      allocWorkspace(hb, loc, MemRefType::get({bytes}, hb.getI8Type()));
  operands.push_back(partials);
  return partials;
}

/// The GEMM CTA's batch and split from block id z = batch * split_k +
/// split (no split without split-K).
std::pair<Value, Value> batchAndSplit(OpBuilder &kb, Location loc,
                                      int64_t splitK) {
  Value z = scaledBlockId(kb, loc, gpu::Dimension::z, 1);
  if (splitK == 1)
    return {z, Value()};
  Value splits = arith::ConstantIndexOp::create(kb, loc, splitK);
  return {arith::DivUIOp::create(kb, loc, z, splits),
          arith::RemUIOp::create(kb, loc, z, splits)};
}

/// A grouped GEMM's tile in a kernel whose block y numbers the tiles
/// (nvfp4.group_tile over the offsets parameter `offsets`): builds what
/// `body` builds for a tile that has rows, with its group and rows,
/// skipping the empty tiles past the last; the builder is left after it.
void forGroupTile(
    OpBuilder &kb, Location loc, Value offsets, int64_t rows, int64_t tileM,
    function_ref<void(Value group, Value begin, Value end)> body) {
  Type index = kb.getIndexType();
  auto tile = GroupTileOp::create(kb, loc, index, index, index, offsets,
                                  scaledBlockId(kb, loc, gpu::Dimension::y, 1),
                                  kb.getI64IntegerAttr(tileM),
                                  kb.getI64IntegerAttr(rows));
  auto hasRows = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::ult,
                                       tile.getRowBegin(), tile.getRowEnd());
  auto ifOp = scf::IfOp::create(kb, loc, hasRows, /*withElseRegion=*/false);
  kb.setInsertionPointToStart(ifOp.thenBlock());
  body(tile.getGroup(), tile.getRowBegin(), tile.getRowEnd());
  kb.setInsertionPointAfter(ifOp);
}

/// The CTA's gemm_tile in the GEMM kernel `body`, whose parameters start
/// with the op's operands (A, its scales, each weight and its scales, C,
/// an NVFP4 C's scales and per-tensor scale, a grouped GEMM's offsets), with the op's epilogue; a grouped GEMM's
/// tile is its block's (forGroupTile). The builder is left after it.
void createGemmTile(OpBuilder &kb, Location loc, const GemmOperands &g,
                    Block &body, Value mBase, Value nBase, Value batch,
                    Value aTiles, Value aBytes, ValueRange bBytes,
                    ValueRange bScales, Value split, Value partials,
                    KernelPlanAttr plan, ScaleLayout sfaLayout,
                    ScaleLayout sfbLayout) {
  SmallVector<Value> b, sfb;
  for (int64_t w = 0; w < g.getWeights(); ++w) {
    b.push_back(body.getArgument(2 + 2 * w));
    sfb.push_back(body.getArgument(3 + 2 * w));
  }
  // After C: an NVFP4 C's scales and per-tensor scale.
  const unsigned cIndex = 2 + 2 * g.getWeights();
  Value cScales, cGlobalScale;
  if (g.cScales)
    cScales = body.getArgument(cIndex + 1);
  if (g.cGlobalScale)
    cGlobalScale = body.getArgument(cIndex + 2);
  auto create = [&](Value group, Value begin, Value end) {
    auto tile = GemmTileOp::create(
        kb, loc, body.getArgument(0), body.getArgument(1), b, sfb,
        body.getArgument(cIndex), cScales, cGlobalScale, mBase, nBase, batch,
        aTiles, aBytes, bBytes, bScales, split, partials, group, begin, end,
        plan, sfaLayout, sfbLayout, g.cScalesLayout, g.cScaleRounding);
    g.buildEpilogue(kb, loc, tile.getEpilogue());
    kb.setInsertionPointAfter(tile);
  };
  if (!g.isGrouped())
    return create(Value(), Value(), Value());
  forGroupTile(kb, loc, body.getArgument(3 + 2 * g.getWeights()),
               g.getAShape().rows, plan.getTileM(), create);
}

/// The sm_100a grouped GEMM's A scales: each tile's rows of A gathered into
/// rows of its own, blocked, K padded to whole slots (a workspace of as
/// many tiles of `plan`'s tile_m rows as the groups can need), by the
/// pre-pass kernel `<name>_gather_sfa` (one CTA of
/// nvfp4.gather_scales_tile per tile, block y as in the GEMM).
Value gatherGroupScales(OpBuilder &hb, OpBuilder &kb, Location loc,
                        gpu::GPUModuleOp kernels, SymbolTable &symbols,
                        StringRef name, const GemmOperands &g,
                        KernelPlanAttr plan,
                        SmallVectorImpl<Value> &workspaces) {
  OperandShape a = g.getAShape();
  const int64_t tileM = plan.getTileM();
  const int64_t tiles = getATileCount(a.rows, g.getWeightBatch(), tileM);
  auto sfaType = cast<MemRefType>(g.sfa.getType());
  auto type = MemRefType::get(
      getScaleShape(BlockFormat::of(sfaType), ScaleLayout::Blocked,
                    tiles * tileM, Tcgen05MainloopAttr::getSlotK(a.k),
                    /*batched=*/false, 1),
      sfaType.getElementType());
  Value gathered = allocWorkspace(hb, loc, type);
  workspaces.push_back(gathered);
  kb.setInsertionPointToEnd(kernels.getBody());
  auto kernel = createKernel(kb, loc, name,
                             {sfaType, type, g.offsets.getType()},
                             GatherScalesTileOp::kThreads, symbols);
  Block &body = kernel.getBody().front();
  forGroupTile(kb, loc, body.getArgument(2), a.rows, tileM,
               [&](Value, Value begin, Value end) {
                 GatherScalesTileOp::create(
                     kb, loc, body.getArgument(0), body.getArgument(1), begin,
                     end,
                     scaledBlockId(kb, loc, gpu::Dimension::y, tileM),
                     tileM);
               });
  gpu::ReturnOp::create(kb, loc);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  launchWithPlan(hb, loc, kernel, gpu::KernelDim3{idx(1), idx(tiles), idx(1)},
                 gpu::KernelDim3{idx(GatherScalesTileOp::kThreads), idx(1),
                                 idx(1)},
                 /*dynamicShared=*/Value(),
                 ValueRange{g.sfa, gathered, g.offsets}, plan);
  return gathered;
}

} // namespace

Value mlir::nvfp4::slotBlockedScales(
    OpBuilder &hb, OpBuilder &kb, Location loc, gpu::GPUModuleOp kernels,
    SymbolTable &symbols, StringRef name, Value scales, ScaleLayout layout,
    int64_t k, int64_t rows, bool batched, int64_t batch, Attribute plan,
    SmallVectorImpl<Value> &workspaces) {
  if (!Tcgen05MainloopAttr::needsScalePrePass(layout, k))
    return scales;
  const int64_t slotK = Tcgen05MainloopAttr::getSlotK(k);
  auto type = MemRefType::get(
      getScaleShape(BlockFormat::of(scales.getType()), ScaleLayout::Blocked,
                    rows, slotK, batched, batch),
      cast<MemRefType>(scales.getType()).getElementType());
  Value blocked = allocWorkspace(hb, loc, type);
  workspaces.push_back(blocked);
  launchBlockScales(hb, kb, loc, kernels, symbols, name, scales, blocked, plan);
  return blocked;
}

/// A GEMM: with stages > 0, a workspace (gpu.alloc) for A's decoded tiles,
/// the pre-pass kernel `<name>_decode_a` (one CTA per tile of A's rows and
/// K chunk) and the GEMM kernel reading the tiles through a tensor map
/// (nvfp4.tensor_map, next to the launch); with stages = 0 the GEMM
/// kernel alone. The GEMM grid: x -> tiles of B's rows, y -> tiles of A's
/// rows, z -> batch (times split_k + the split). With split_k > 1 a second
/// workspace takes the splits' fp32 partial outputs and a third kernel,
/// `<name>_sum_splits`, adds them into C; on chip (cluster) the splits of
/// a tile are a cluster (1 x 1 x split_k) that adds them on chip instead.
LogicalResult mlir::nvfp4::tileGemm(const GemmOperands &g,
                                    KernelPlanAttr plan,
                                    gpu::GPUModuleOp kernels,
                                    SymbolTable &symbols,
                                    StringRef kernelName) {
  Location loc = g.op->getLoc();
  OperandShape a = g.getAShape();
  int64_t n = g.getN();
  WgmmaMainloopAttr mainloop = plan.getWgmma();
  // A grouped GEMM's tiles of A hold one group's rows each: as many as
  // its groups can need, numbered on the device (nvfp4.group_tile).
  const bool grouped = g.isGrouped();
  const int64_t mTiles = getATileCount(
      a.rows, grouped ? g.getWeightBatch() : 0, plan.getTileM());
  const int64_t tileRows = grouped ? mTiles * plan.getTileM() : a.rows;
  const bool prepass = plan.getStages() > 0;
  OpBuilder hb(g.op);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  SmallVector<Value> operands = g.getKernelOperands();
  const size_t opOperands = operands.size();
  OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());

  Value tiles;
  if (prepass) {
    auto tilesType = MemRefType::get(
        {mainloop.getATilesBytes(a.batch, tileRows, a.k)}, hb.getI8Type());
    tiles = allocWorkspace(hb, loc, tilesType);
    // The pre-pass: block x -> K chunk, y -> tile of A's rows, z -> batch;
    // a grouped GEMM's gathers its tile's rows of one group.
    SmallVector<Type> types = {g.a.getType(), g.sfa.getType(), tilesType};
    SmallVector<Value> decodeOperands = {g.a, g.sfa, tiles};
    if (grouped) {
      types.push_back(g.offsets.getType());
      decodeOperands.push_back(g.offsets);
    }
    std::string name = (kernelName + "_decode_a").str();
    auto decode = createKernel(kb, loc, name, types,
                               mainloop.getDecodeThreads(), symbols);
    Block &body = decode.getBody().front();
    // Launched as a programmatic dependent of whatever precedes it (below):
    // A may be that kernel's result and the workspace its input, so the
    // pre-pass waits before it touches memory. Then the GEMM that reads the
    // tiles may be scheduled (it waits for this grid's completion before
    // its first copy of a tile); not before the wait, since the GEMM loads
    // B from its start and B may be the predecessor's result too.
    NVVM::GriddepcontrolOp::create(kb, loc, NVVM::GridDepActionKind::wait);
    NVVM::GriddepcontrolOp::create(kb, loc,
                                   NVVM::GridDepActionKind::launch_dependents);
    auto decodeTile = [&](Value begin, Value end) {
      DecodeATileOp::create(
          kb, loc, body.getArgument(0), body.getArgument(1),
          body.getArgument(2),
          scaledBlockId(kb, loc, gpu::Dimension::y, plan.getTileM()),
          scaledBlockId(kb, loc, gpu::Dimension::x, 1),
          scaledBlockId(kb, loc, gpu::Dimension::z, 1), begin, end, mainloop,
          g.sfaLayout);
    };
    if (grouped)
      forGroupTile(
          kb, loc, body.getArgument(3), a.rows, plan.getTileM(),
          [&](Value, Value begin, Value end) { decodeTile(begin, end); });
    else
      decodeTile(Value(), Value());
    gpu::ReturnOp::create(kb, loc);
    kb.setInsertionPointToEnd(kernels.getBody());
    auto decodeLaunch = launchWithPlan(
        hb, loc, decode,
        gpu::KernelDim3{idx(a.k / WgmmaMainloopAttr::kTileK), idx(mTiles),
                        idx(a.batch)},
        gpu::KernelDim3{idx(mainloop.getDecodeThreads()), idx(1), idx(1)},
        /*dynamicShared=*/Value(), decodeOperands, plan);
    // Since it waits for its predecessor before it touches memory, it may
    // be launched as the predecessor's CTAs exit (back to back: the
    // previous call's GEMM) instead of after its completion (performance.md,
    // GEMM v23).
    decodeLaunch->setAttr(NVFP4Dialect::kDependentLaunchAttrName,
                          hb.getUnitAttr());
    // The GEMM copies the tiles with TMA: a tensor map of the workspace,
    // which the launcher encodes and passes by value.
    operands.push_back(TensorMapOp::create(
        hb, loc,
        getATilesMapType(mainloop, a.batch, tileRows, a.k,
                         BlockFormat::of(g.sfa.getType())),
        tiles));
    // b_tma: the producer copies B's chunks and scale codes into the ring
    // too, through maps of B's own buffers: each weight's bytes, then each
    // one's scale codes.
    if (mainloop.getBTma()) {
      MLIRContext *ctx = g.op->getContext();
      const int64_t weightBatch = g.getWeightBatch();
      for (Value b : g.b)
        operands.push_back(TensorMapOp::create(
            hb, loc, getWgmmaBMapType(ctx, mainloop, weightBatch, n, a.k), b));
      for (Value sfb : g.sfb)
        operands.push_back(TensorMapOp::create(
            hb, loc,
            getWgmmaSfbMapType(ctx, mainloop, BlockFormat::of(sfb.getType()),
                               g.sfbLayout, weightBatch, n, a.k),
            sfb));
    }
  }

  // Split-K: the CTAs' fp32 partial tiles, summed by a third kernel, or
  // (on chip) added by the cluster of a tile's splits.
  const int64_t splitK = plan.getSplitK();
  const bool sumKernel = plan.needsSumKernel();
  Value partials = allocPartials(
      hb, loc, plan.getPartialsBytes(a.batch, a.rows, n), operands);

  // The GEMM kernel: one CTA-level gemm_tile per block; block z is
  // batch * split_k + split.
  SmallVector<Type> argTypes(ValueRange(operands).getTypes());
  auto kernel = createKernel(kb, loc, kernelName, argTypes,
                             plan.getThreadsPerCta(), symbols);
  Block &body = kernel.getBody().front();
  // The tensor maps after the op's operands: A's tiles, then b_tma's.
  const size_t mapCount =
      llvm::count_if(ValueRange(operands).drop_front(opOperands),
                     [](Value v) { return isa<TensorMapType>(v.getType()); });
  Value nBase = scaledBlockId(kb, loc, gpu::Dimension::x, plan.getTileN());
  Value mBase = scaledBlockId(kb, loc, gpu::Dimension::y, plan.getTileM());
  auto [batch, split] = batchAndSplit(kb, loc, splitK);
  // The maps by role: A's tiles, then b_tma's B bytes and scale codes.
  const int64_t weights = g.getWeights();
  ValueRange maps = body.getArguments().slice(opOperands, mapCount);
  Value aTiles = maps.empty() ? Value() : maps[0];
  ValueRange bBytes =
      maps.size() > 1 ? maps.slice(1, weights) : ValueRange();
  ValueRange bScales =
      maps.size() > 1 ? maps.slice(1 + weights, weights) : ValueRange();
  createGemmTile(kb, loc, g, body, mBase, nBase, batch, aTiles,
                 /*aBytes=*/Value(), bBytes, bScales, split,
                 sumKernel ? body.getArguments().back() : Value(), plan,
                 g.sfaLayout, g.sfbLayout);
  gpu::ReturnOp::create(kb, loc);

  gpu::KernelDim3 grid = gemmGrid(hb, loc, plan, mTiles, a.batch, n);
  gpu::KernelDim3 block{idx(plan.getThreadsPerCta()), idx(1), idx(1)};
  // The ring lives in dynamic shared memory.
  Value dynamicShared;
  if (prepass)
    dynamicShared = arith::ConstantIntOp::create(hb, loc, hb.getI32Type(),
                                                 plan.getSharedBytes());
  // With a producer warpgroup the kernel starts with what fits 65536 /
  // threads registers (setmaxnreg then moves them from the producer to the
  // consumers); ptxas needs that entry count to honour setmaxnreg.
  if (mainloop.getProducer())
    kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    kb.getI32IntegerAttr(mainloop.getEntryRegisters()));
  // Clusters: an on-chip split-K's splits of a tile (along z) add their
  // partial tiles on chip.
  std::optional<gpu::KernelDim3> cluster =
      clusterOf(hb, kb, loc, kernel, plan.getClusterShape());
  auto launch = launchWithPlan(hb, loc, kernel, grid, block, dynamicShared,
                               operands, plan, cluster);
  // The GEMM's prologue (barriers, B's first loads) may overlap the
  // pre-pass: it waits for the decoded tiles with griddepcontrol.wait.
  if (prepass)
    launch->setAttr(NVFP4Dialect::kDependentLaunchAttrName, hb.getUnitAttr());
  if (sumKernel)
    launchSumSplits(hb, kb, loc, kernels, symbols, kernelName, partials, g.c,
                    splitK, plan);
  if (prepass)
    freeWorkspace(hb, loc, tiles);
  g.op->erase();
  return success();
}

/// The sm_100a GEMM: the scales' pre-passes where needed, then one kernel
/// of 128-thread CTAs over the grid x -> tiles of 128 rows of B, y -> tiles
/// of A's rows, z -> batch (times split_k + the split), reading A and B
/// through tensor maps of their packed bytes (Tcgen05Tiles.h), created
/// next to the launch; split-K's sum kernel, or its cluster, as for sm_90a.
/// A grouped GEMM's grid numbers the tiles its groups can need in y (each
/// CTA's nvfp4.group_tile), and its A scales are gathered per tile.
LogicalResult mlir::nvfp4::tileGemmTcgen05(const GemmOperands &g,
                                           KernelPlanAttr plan,
                                           gpu::GPUModuleOp kernels,
                                           SymbolTable &symbols,
                                           StringRef kernelName) {
  Location loc = g.op->getLoc();
  MLIRContext *ctx = g.op->getContext();
  OperandShape a = g.getAShape();
  int64_t n = g.getN();
  const bool grouped = g.isGrouped();
  // A grouped GEMM's grid numbers the tiles its groups can need.
  const int64_t mTiles = getATileCount(
      a.rows, grouped ? g.getWeightBatch() : 0, plan.getTileM());
  OpBuilder hb(g.op);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());
  SmallVector<Value> operands = g.getKernelOperands(), workspaces;
  const size_t opOperands = operands.size();
  const int64_t weights = g.getWeights();
  operands[1] =
      grouped
          ? gatherGroupScales(hb, kb, loc, kernels, symbols,
                              (kernelName + "_gather_sfa").str(), g, plan,
                              workspaces)
          : slotBlockedScales(hb, kb, loc, kernels, symbols,
                              (kernelName + "_block_sfa").str(), g.sfa,
                              g.sfaLayout, a.k, a.rows, a.batched, a.batch,
                              plan, workspaces);
  for (int64_t w = 0; w < weights; ++w)
    operands[3 + 2 * w] = slotBlockedScales(
        hb, kb, loc, kernels, symbols,
        (kernelName + "_block_sfb" + (w ? std::to_string(w + 1) : "")).str(),
        g.sfb[w], g.sfbLayout, a.k, n, a.batched || grouped,
        g.getWeightBatch(), plan, workspaces);
  operands.push_back(TensorMapOp::create(
      hb, loc,
      getPackedOperandMapType(ctx, a.batch, a.rows, a.k,
                              plan.getTcgen05().getARowsPerCta()),
      g.a));
  for (Value b : g.b)
    operands.push_back(TensorMapOp::create(
        hb, loc,
        getPackedOperandMapType(ctx, g.getWeightBatch(), n, a.k,
                                Tcgen05MainloopAttr::kTileN),
        b));
  const int64_t splitK = plan.getSplitK();
  const bool sumKernel = plan.needsSumKernel();
  Value partials = allocPartials(
      hb, loc, plan.getPartialsBytes(a.batch, a.rows, n), operands);

  kb.setInsertionPointToEnd(kernels.getBody());
  SmallVector<Type> argTypes(ValueRange(operands).getTypes());
  auto kernel = createKernel(kb, loc, kernelName, argTypes,
                             Tcgen05MainloopAttr::kThreads, symbols);
  Block &body = kernel.getBody().front();
  auto [batch, split] = batchAndSplit(kb, loc, splitK);
  createGemmTile(
      kb, loc, g, body,
      scaledBlockId(kb, loc, gpu::Dimension::y, plan.getTileM()),
      scaledBlockId(kb, loc, gpu::Dimension::x, Tcgen05MainloopAttr::kTileN),
      batch, /*aTiles=*/Value(), /*aBytes=*/body.getArgument(opOperands),
      /*bBytes=*/body.getArguments().slice(opOperands + 1, weights),
      /*bScales=*/ValueRange(), split,
      sumKernel ? body.getArguments().back() : Value(), plan,
      ScaleLayout::Blocked, ScaleLayout::Blocked);
  gpu::ReturnOp::create(kb, loc);
  // An on-chip split-K's splits of a tile (along z) add their accumulators.
  std::optional<gpu::KernelDim3> cluster =
      clusterOf(hb, kb, loc, kernel, plan.getClusterShape());
  launchWithPlan(
      hb, loc, kernel,
      gemmGrid(hb, loc, plan, mTiles, a.batch, n),
      gpu::KernelDim3{idx(plan.getThreadsPerCta()), idx(1), idx(1)},
      arith::ConstantIntOp::create(hb, loc, hb.getI32Type(),
                                   plan.getSharedBytes()),
      operands, plan, cluster);
  if (sumKernel)
    launchSumSplits(hb, kb, loc, kernels, symbols, kernelName, partials, g.c,
                    splitK, plan);
  for (Value workspace : workspaces)
    freeWorkspace(hb, loc, workspace);
  g.op->erase();
  return success();
}
