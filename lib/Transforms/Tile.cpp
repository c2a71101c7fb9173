//===- Tile.cpp - map planned nvfp4 ops onto a CTA grid -------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Each planned GEMV is outlined into a kernel of the gpu.module
// @nvfp4_kernels: block id x picks the CTA's rows (row_groups groups of
// warps_per_cta / k_split * rows_per_warp rows), block id y the batch; the body
// is one CTA-level nvfp4.gemv_tile. The host op becomes a gpu.launch_func, so
// the host side stays standard MLIR that an embedding compiler lowers with its
// own runtime.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Dialect/NVFP4/Tcgen05Tiles.h"
#include "nvfp4/Dialect/NVFP4/WgmmaBTiles.h"
#include "nvfp4/Target/KernelModule.h"
#include "nvfp4/Target/Target.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4TILEPASS
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Returns the module's kernel container `name`, creating it for `target`.
gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module, GpuTarget target,
                                         StringRef name) {
  MLIRContext *ctx = module.getContext();
  auto nvvmTarget =
      NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda",
                                getChip(target), getPtxFeatures(target));
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>(name)) {
    // A module the input brought without an NVVM target gets the one the
    // kernels are built for (resolveGpuTarget checked any it has).
    ArrayAttr targets = existing.getTargetsAttr();
    if (!targets ||
        llvm::none_of(targets, llvm::IsaPred<NVVM::NVVMTargetAttr>)) {
      SmallVector<Attribute> all;
      if (targets)
        llvm::append_range(all, targets.getValue());
      all.push_back(nvvmTarget);
      existing.setTargetsAttr(ArrayAttr::get(ctx, all));
    }
    return existing;
  }
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return gpu::GPUModuleOp::create(b, module.getLoc(), name,
                                  b.getArrayAttr({nvvmTarget}));
}

/// The gpu.modules the kernels go to: @nvfp4_kernels for the first
/// kOpsPerKernelModule ops, then @nvfp4_kernels_1, @nvfp4_kernels_2, ...
/// Upstream lowers a gpu.module's kernels and serializes them as one unit,
/// so a module of thousands of ops in one gpu.module used one core; in
/// several, the nested passes and nvfp4-serialize spread them over the
/// context's threads. Kernel names stay unique across the modules (a
/// launcher finds kernels by name).
class KernelModules {
public:
  /// The names of the input's kernels, in any gpu.module, are taken.
  KernelModules(ModuleOp module, GpuTarget target)
      : module(module), target(target) {
    for (auto kernels : module.getOps<gpu::GPUModuleOp>())
      for (Operation &op : kernels.getBody()->getOperations())
        if (auto symbol = dyn_cast<SymbolOpInterface>(op))
          taken.insert(symbol.getName());
  }

  /// The module and symbol table for the next op's kernels; fails when
  /// the input's module of that name is built for another chip
  /// (resolveGpuTarget checked @nvfp4_kernels; this checks the others).
  FailureOr<std::pair<gpu::GPUModuleOp, SymbolTable *>> next() {
    size_t shard = ops++ / kOpsPerKernelModule;
    if (shard == shards.size()) {
      std::string name = kKernelModuleName.str();
      if (shard)
        name += "_" + std::to_string(shard);
      if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>(name)) {
        FailureOr<std::optional<GpuTarget>> chip =
            getKernelModuleTarget(existing, "nvfp4-tile");
        if (failed(chip))
          return failure();
        if (*chip && **chip != target)
          return existing.emitError()
                 << "nvfp4-tile: gpu.module @" << name << " is built for "
                 << getChip(**chip) << ", but the kernels are for "
                 << getChip(target);
      }
      gpu::GPUModuleOp kernels = getOrCreateKernelModule(module, target, name);
      shards.push_back({kernels, std::make_unique<SymbolTable>(kernels)});
    }
    return std::make_pair(shards[shard].module, shards[shard].symbols.get());
  }

  /// `<function>_kernel`, then `_1`, `_2`, ... for the function's next
  /// ops. Each base remembers the next suffix to try, so naming n kernels
  /// of one function takes O(n) set lookups, not O(n^2).
  std::string kernelName(Operation *op) {
    auto parent = op->getParentOfType<FunctionOpInterface>();
    std::string base =
        (parent ? parent.getName().str() : std::string("matmul")) + "_kernel";
    std::string name = base;
    // Names are only added, so every suffix below `next` is taken.
    int &next = nextSuffix.try_emplace(base, 1).first->second;
    while (taken.contains(name))
      name = base + "_" + std::to_string(next++);
    taken.insert(name);
    return name;
  }

private:
  struct Shard {
    gpu::GPUModuleOp module;
    std::unique_ptr<SymbolTable> symbols;
  };
  ModuleOp module;
  GpuTarget target;
  size_t ops = 0;
  SmallVector<Shard> shards;
  llvm::StringSet<> taken;
  llvm::StringMap<int> nextSuffix;
};

/// A byte workspace of the entry (gpu.alloc; the launcher allocates it).
Value allocWorkspace(OpBuilder &hb, Location loc, MemRefType type) {
  return gpu::AllocOp::create(hb, loc, type, /*asyncToken=*/Type(),
                              /*asyncDependencies=*/ValueRange(),
                              /*dynamicSizes=*/ValueRange(),
                              /*symbolOperands=*/ValueRange())
      .getMemref();
}

void freeWorkspace(OpBuilder &hb, Location loc, Value workspace) {
  gpu::DeallocOp::create(hb, loc, /*asyncToken=*/Type(),
                         /*asyncDependencies=*/ValueRange(), workspace);
}

/// Launches `kernel`, recording the plan (if any) on the launch (nvfp4-run
/// prints it).
gpu::LaunchFuncOp
launchWithPlan(OpBuilder &hb, Location loc, gpu::GPUFuncOp kernel,
               gpu::KernelDim3 grid, gpu::KernelDim3 block, Value dynamicShared,
               ValueRange operands, Attribute plan,
               std::optional<gpu::KernelDim3> cluster = std::nullopt) {
  auto launch = gpu::LaunchFuncOp::create(
      hb, loc, kernel, grid, block, dynamicShared, operands,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, cluster);
  if (plan)
    launch->setAttr(NVFP4Dialect::kPlanAttrName, plan);
  return launch;
}

LogicalResult tileGemv(ScaledMatmulOp op, GemvPlanAttr plan,
                       gpu::GPUModuleOp kernels, SymbolTable &symbols,
                       StringRef kernelName) {
  Location loc = op.getLoc();
  OperandShape a = getOperandShape(op.getA().getType());
  // A CTA loops over row_groups groups of getRowsPerCta() rows.
  int64_t rowsPerCta = plan.getRowsPerCta() * plan.getRowGroups();
  int64_t threads = plan.getWarpsPerCta() * 32;

  // The kernel: one CTA-level gemv_tile per block.
  OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());
  SmallVector<Type> argTypes(op->getOperandTypes());
  auto kernel = gpu::GPUFuncOp::create(kb, loc, kernelName,
                                       kb.getFunctionType(argTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), kb.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      kb.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  symbols.insert(kernel);
  Block &body = kernel.getBody().front();
  kb.setInsertionPointToStart(&body);
  Value bx = gpu::BlockIdOp::create(kb, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(kb, loc, gpu::Dimension::y);
  Value rowBase = arith::MulIOp::create(
      kb, loc, bx, arith::ConstantIndexOp::create(kb, loc, rowsPerCta));
  GemvTileOp::create(kb, loc, body.getArgument(0), body.getArgument(1),
                     body.getArgument(2), body.getArgument(3),
                     body.getArgument(4), rowBase, by, plan);
  gpu::ReturnOp::create(kb, loc);

  // The host side: launch it.
  OpBuilder hb(op);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  Value one = idx(1);
  gpu::KernelDim3 grid{idx(plan.getGridX(a.rows)), idx(a.batch), one};
  gpu::KernelDim3 block{idx(threads), one, one};
  launchWithPlan(hb, loc, kernel, grid, block,
                 /*dynamicShared=*/Value(), op->getOperands(), plan);
  op.erase();
  return success();
}

/// Creates an empty kernel `name` taking `argTypes` with `threads` threads
/// per CTA; the builder is left at the start of its body.
gpu::GPUFuncOp createKernel(OpBuilder &kb, Location loc, StringRef name,
                            TypeRange argTypes, int64_t threads,
                            SymbolTable &symbols) {
  auto kernel =
      gpu::GPUFuncOp::create(kb, loc, name, kb.getFunctionType(argTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), kb.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      kb.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  symbols.insert(kernel);
  kb.setInsertionPointToStart(&kernel.getBody().front());
  return kernel;
}

/// Block id `d` times `factor`, as an index.
Value scaledBlockId(OpBuilder &kb, Location loc, gpu::Dimension d,
                    int64_t factor) {
  Value id = gpu::BlockIdOp::create(kb, loc, d);
  if (factor == 1)
    return id;
  return arith::MulIOp::create(kb, loc, id,
                               arith::ConstantIndexOp::create(kb, loc, factor));
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

/// The launch's cluster shape of a kernel whose plan asks for one (`shape`
/// x, y, z, more than one CTA), which the kernel also declares
/// (known_cluster_size, .reqnctapercluster in the PTX); none otherwise.
std::optional<gpu::KernelDim3> clusterOf(OpBuilder &hb, OpBuilder &kb,
                                         Location loc, gpu::GPUFuncOp kernel,
                                         ArrayRef<int64_t> shape) {
  if (shape[0] * shape[1] * shape[2] == 1)
    return std::nullopt;
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  kernel.setKnownClusterSizeAttr(kb.getDenseI32ArrayAttr(
      {static_cast<int32_t>(shape[0]), static_cast<int32_t>(shape[1]),
       static_cast<int32_t>(shape[2])}));
  return gpu::KernelDim3{idx(shape[0]), idx(shape[1]), idx(shape[2])};
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

/// A GEMM: with stages > 0, a workspace (gpu.alloc) for A's decoded tiles,
/// the pre-pass kernel `<name>_decode_a` (one CTA per tile of A's rows and
/// K chunk) and the GEMM kernel reading the tiles through a tensor map
/// (nvfp4.tensor_map, next to the launch); with stages = 0 the GEMM
/// kernel alone. The GEMM grid: x -> tiles of B's rows, y -> tiles of A's
/// rows, z -> batch (times split_k + the split). With split_k > 1 a second
/// workspace takes the splits' fp32 partial outputs and a third kernel,
/// `<name>_sum_splits`, adds them into C; on chip (cluster) the splits of
/// a tile are a cluster (1 x 1 x split_k) that adds them on chip instead.
LogicalResult tileGemm(ScaledMatmulOp op, KernelPlanAttr plan,
                       gpu::GPUModuleOp kernels, SymbolTable &symbols,
                       StringRef kernelName) {
  Location loc = op.getLoc();
  OperandShape a = getOperandShape(op.getA().getType());
  int64_t n = getOperandShape(op.getB().getType()).rows;
  WgmmaMainloopAttr mainloop = plan.getWgmma();
  int64_t mTiles = llvm::divideCeil(a.rows, plan.getTileM());
  const bool prepass = plan.getStages() > 0;
  OpBuilder hb(op);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  SmallVector<Value> operands(op->getOperands());
  OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());

  Value tiles;
  if (prepass) {
    auto tilesType = MemRefType::get(
        {mainloop.getATilesBytes(a.batch, a.rows, a.k)}, hb.getI8Type());
    tiles = allocWorkspace(hb, loc, tilesType);
    // The pre-pass: block x -> K chunk, y -> tile of A's rows, z -> batch.
    SmallVector<Type> types = {op.getA().getType(), op.getSfa().getType(),
                               tilesType};
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
    DecodeATileOp::create(
        kb, loc, body.getArgument(0), body.getArgument(1), body.getArgument(2),
        scaledBlockId(kb, loc, gpu::Dimension::y, plan.getTileM()),
        scaledBlockId(kb, loc, gpu::Dimension::x, 1),
        scaledBlockId(kb, loc, gpu::Dimension::z, 1), mainloop,
        op.getSfaLayout());
    gpu::ReturnOp::create(kb, loc);
    kb.setInsertionPointToEnd(kernels.getBody());
    auto decodeLaunch = launchWithPlan(
        hb, loc, decode,
        gpu::KernelDim3{idx(a.k / WgmmaMainloopAttr::kTileK), idx(mTiles),
                        idx(a.batch)},
        gpu::KernelDim3{idx(mainloop.getDecodeThreads()), idx(1), idx(1)},
        /*dynamicShared=*/Value(), ValueRange{op.getA(), op.getSfa(), tiles},
        plan);
    // Since it waits for its predecessor before it touches memory, it may
    // be launched as the predecessor's CTAs exit (back to back: the
    // previous call's GEMM) instead of after its completion (performance.md,
    // GEMM v23).
    decodeLaunch->setAttr(NVFP4Dialect::kDependentLaunchAttrName,
                          hb.getUnitAttr());
    // The GEMM copies the tiles with TMA: a tensor map of the workspace,
    // which the launcher encodes and passes by value.
    operands.push_back(TensorMapOp::create(
        hb, loc, getATilesMapType(mainloop, a.batch, a.rows, a.k), tiles));
    // b_tma: the producer copies B's chunks and scale codes into the ring
    // too, through maps of B's own buffers.
    if (mainloop.getBTma()) {
      MLIRContext *ctx = op.getContext();
      operands.push_back(TensorMapOp::create(
          hb, loc, getWgmmaBMapType(ctx, mainloop, a.batch, n, a.k),
          op.getB()));
      operands.push_back(TensorMapOp::create(
          hb, loc,
          getWgmmaSfbMapType(ctx, mainloop, op.getSfbLayout(), a.batch, n, a.k),
          op.getSfb()));
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
  // The tensor maps after the five operands: A's tiles, then b_tma's.
  const size_t mapCount =
      llvm::count_if(ValueRange(operands).drop_front(5),
                     [](Value v) { return isa<TensorMapType>(v.getType()); });
  Value nBase = scaledBlockId(kb, loc, gpu::Dimension::x, plan.getTileN());
  Value mBase = scaledBlockId(kb, loc, gpu::Dimension::y, plan.getTileM());
  auto [batch, split] = batchAndSplit(kb, loc, splitK);
  GemmTileOp::create(kb, loc, body.getArgument(0), body.getArgument(1),
                     body.getArgument(2), body.getArgument(3),
                     body.getArgument(4), mBase, nBase, batch,
                     body.getArguments().slice(5, mapCount), split,
                     sumKernel ? body.getArguments().back() : Value(), plan,
                     op.getSfaLayout(), op.getSfbLayout());
  gpu::ReturnOp::create(kb, loc);

  gpu::KernelDim3 grid{idx(llvm::divideCeil(n, plan.getTileN())), idx(mTiles),
                       idx(a.batch * splitK)};
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
    launchSumSplits(hb, kb, loc, kernels, symbols, kernelName, partials,
                    op.getC(), splitK, plan);
  if (prepass)
    freeWorkspace(hb, loc, tiles);
  op.erase();
  return success();
}

/// Launches kernel `name`: CTAs of nvfp4.block_scales_tile writing `dst`
/// (the blocked layout of `src`), one per 4 x kThreads words; `plan` (if
/// any) is recorded on the launch.
void launchBlockScales(OpBuilder &hb, OpBuilder &kb, Location loc,
                       gpu::GPUModuleOp kernels, SymbolTable &symbols,
                       StringRef name, Value src, Value dst, Attribute plan) {
  auto dstType = cast<MemRefType>(dst.getType());
  kb.setInsertionPointToEnd(kernels.getBody());
  auto kernel = createKernel(kb, loc, name, {src.getType(), dstType},
                             BlockScalesTileOp::kThreads, symbols);
  Block &body = kernel.getBody().front();
  const int64_t wordsPerCta = 4 * BlockScalesTileOp::kThreads;
  BlockScalesTileOp::create(
      kb, loc, body.getArgument(0), body.getArgument(1),
      scaledBlockId(kb, loc, gpu::Dimension::x, wordsPerCta));
  gpu::ReturnOp::create(kb, loc);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  launchWithPlan(
      hb, loc, kernel,
      gpu::KernelDim3{
          idx(llvm::divideCeil(dstType.getNumElements() / 4, wordsPerCta)),
          idx(1), idx(1)},
      gpu::KernelDim3{idx(BlockScalesTileOp::kThreads), idx(1), idx(1)},
      /*dynamicShared=*/Value(), ValueRange{src, dst}, plan);
}

/// The sm_100a GEMM's scales of an operand (`rows` rows) as its ring slots
/// copy them: blocked, K chunks padded to whole slots. Scales already so
/// are used as they are; others are written so into a workspace by the
/// pre-pass kernel `<name>_block_<operand>`, before the GEMM in stream
/// order.
Value slotBlockedScales(OpBuilder &hb, OpBuilder &kb, Location loc,
                        gpu::GPUModuleOp kernels, SymbolTable &symbols,
                        StringRef name, Value scales, ScaleLayout layout,
                        const OperandShape &a, int64_t rows, Attribute plan,
                        SmallVectorImpl<Value> &workspaces) {
  if (!Tcgen05MainloopAttr::needsScalePrePass(layout, a.k))
    return scales;
  const int64_t slotK = Tcgen05MainloopAttr::getSlotK(a.k);
  auto type = MemRefType::get(
      getScaleShape(ScaleLayout::Blocked, rows, slotK, a.batched, a.batch),
      cast<MemRefType>(scales.getType()).getElementType());
  Value blocked = allocWorkspace(hb, loc, type);
  workspaces.push_back(blocked);
  launchBlockScales(hb, kb, loc, kernels, symbols, name, scales, blocked, plan);
  return blocked;
}

/// The sm_100a GEMM: the scales' pre-passes where needed, then one kernel
/// of 128-thread CTAs over the grid x -> tiles of 128 rows of B, y -> tiles
/// of A's rows, z -> batch (times split_k + the split), reading A and B
/// through tensor maps of their packed bytes (Tcgen05Tiles.h), created
/// next to the launch; split-K's sum kernel, or its cluster, as for sm_90a.
LogicalResult tileGemmTcgen05(ScaledMatmulOp op, KernelPlanAttr plan,
                              gpu::GPUModuleOp kernels, SymbolTable &symbols,
                              StringRef kernelName) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  OperandShape a = getOperandShape(op.getA().getType());
  int64_t n = getOperandShape(op.getB().getType()).rows;
  OpBuilder hb(op);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());
  SmallVector<Value> operands(op->getOperands()), workspaces;
  operands[1] = slotBlockedScales(
      hb, kb, loc, kernels, symbols, (kernelName + "_block_sfa").str(),
      op.getSfa(), op.getSfaLayout(), a, a.rows, plan, workspaces);
  operands[3] = slotBlockedScales(
      hb, kb, loc, kernels, symbols, (kernelName + "_block_sfb").str(),
      op.getSfb(), op.getSfbLayout(), a, n, plan, workspaces);
  operands.push_back(TensorMapOp::create(
      hb, loc,
      getPackedOperandMapType(ctx, a.batch, a.rows, a.k, plan.getTileM()),
      op.getA()));
  operands.push_back(
      TensorMapOp::create(hb, loc,
                          getPackedOperandMapType(ctx, a.batch, n, a.k,
                                                  Tcgen05MainloopAttr::kTileN),
                          op.getB()));
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
  GemmTileOp::create(
      kb, loc, body.getArgument(0), body.getArgument(1), body.getArgument(2),
      body.getArgument(3), body.getArgument(4),
      scaledBlockId(kb, loc, gpu::Dimension::y, plan.getTileM()),
      scaledBlockId(kb, loc, gpu::Dimension::x, Tcgen05MainloopAttr::kTileN),
      batch, ValueRange{body.getArgument(5), body.getArgument(6)}, split,
      sumKernel ? body.getArguments().back() : Value(), plan,
      ScaleLayout::Blocked, ScaleLayout::Blocked);
  gpu::ReturnOp::create(kb, loc);
  // An on-chip split-K's splits of a tile (along z) add their accumulators.
  std::optional<gpu::KernelDim3> cluster =
      clusterOf(hb, kb, loc, kernel, plan.getClusterShape());
  launchWithPlan(
      hb, loc, kernel,
      gpu::KernelDim3{idx(llvm::divideCeil(n, Tcgen05MainloopAttr::kTileN)),
                      idx(llvm::divideCeil(a.rows, plan.getTileM())),
                      idx(a.batch * splitK)},
      gpu::KernelDim3{idx(Tcgen05MainloopAttr::kThreads), idx(1), idx(1)},
      arith::ConstantIntOp::create(hb, loc, hb.getI32Type(),
                                   plan.getSharedBytes()),
      operands, plan, cluster);
  if (sumKernel)
    launchSumSplits(hb, kb, loc, kernels, symbols, kernelName, partials,
                    op.getC(), splitK, plan);
  for (Value workspace : workspaces)
    freeWorkspace(hb, loc, workspace);
  op.erase();
  return success();
}

struct NVFP4TilePass : nvfp4::impl::NVFP4TilePassBase<NVFP4TilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<GpuTarget> gpu =
        resolveGpuTarget(module, target, "nvfp4-tile", target.hasValue());
    if (failed(gpu))
      return signalPassFailure();
    SmallVector<ScaledMatmulOp> work;
    SmallVector<BlockScalesOp> relayouts;
    bool unplanned = false;
    module.walk([&](Operation *op) {
      if (op->getParentOfType<gpu::GPUModuleOp>())
        return;
      if (auto matmul = dyn_cast<ScaledMatmulOp>(op)) {
        if (matmul->getAttrOfType<PlanAttrInterface>(
                NVFP4Dialect::kPlanAttrName))
          work.push_back(matmul);
        else
          unplanned = true, matmul.emitOpError()
                                << "has no plan; run nvfp4-plan first";
      } else if (auto relayout = dyn_cast<BlockScalesOp>(op)) {
        relayouts.push_back(relayout); // Needs no plan.
      } else if (op->hasTrait<OpTrait::nvfp4::KernelLevel>()) {
        unplanned = true;
        op->emitOpError() << "has no plan to tile; run nvfp4-plan first";
      }
    });
    if (unplanned)
      return signalPassFailure();
    if (work.empty() && relayouts.empty())
      return;
    KernelModules modules(module, *gpu);
    for (BlockScalesOp op : relayouts) {
      auto next = modules.next();
      if (failed(next))
        return signalPassFailure();
      auto [kernels, symbols] = *next;
      OpBuilder hb(op);
      OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());
      launchBlockScales(hb, kb, op.getLoc(), kernels, *symbols,
                        modules.kernelName(op), op.getSrc(), op.getDst(),
                        /*plan=*/Attribute());
      op.erase();
    }
    for (ScaledMatmulOp op : work) {
      auto next = modules.next();
      if (failed(next))
        return signalPassFailure();
      auto [kernels, symbolTable] = *next;
      SymbolTable &symbols = *symbolTable;
      Attribute plan = op->getAttr(NVFP4Dialect::kPlanAttrName);
      std::string name = modules.kernelName(op);
      LogicalResult tiled = failure();
      if (auto gemv = dyn_cast<GemvPlanAttr>(plan))
        tiled = tileGemv(op, gemv, kernels, symbols, name);
      else if (cast<KernelPlanAttr>(plan).getTcgen05())
        tiled = tileGemmTcgen05(op, cast<KernelPlanAttr>(plan), kernels,
                                symbols, name);
      else
        tiled =
            tileGemm(op, cast<KernelPlanAttr>(plan), kernels, symbols, name);
      if (failed(tiled))
        return signalPassFailure();
    }
  }
};

} // namespace
