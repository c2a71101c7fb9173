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

#include "TileBuilders.h"

#include "nvfp4/Target/KernelModule.h"
#include "nvfp4/Target/Target.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4TILEPASS
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

/// A byte workspace of the entry (gpu.alloc; the launcher allocates it).
Value mlir::nvfp4::allocWorkspace(OpBuilder &hb, Location loc,
                                  MemRefType type) {
  return gpu::AllocOp::create(hb, loc, type, /*asyncToken=*/Type(),
                              /*asyncDependencies=*/ValueRange(),
                              /*dynamicSizes=*/ValueRange(),
                              /*symbolOperands=*/ValueRange())
      .getMemref();
}

void mlir::nvfp4::freeWorkspace(OpBuilder &hb, Location loc, Value workspace) {
  gpu::DeallocOp::create(hb, loc, /*asyncToken=*/Type(),
                         /*asyncDependencies=*/ValueRange(), workspace);
}

/// Launches `kernel`, recording the plan (if any) on the launch (nvfp4-run
/// prints it).
gpu::LaunchFuncOp mlir::nvfp4::launchWithPlan(
    OpBuilder &hb, Location loc, gpu::GPUFuncOp kernel, gpu::KernelDim3 grid,
    gpu::KernelDim3 block, Value dynamicShared, ValueRange operands,
    Attribute plan, std::optional<gpu::KernelDim3> cluster) {
  auto launch = gpu::LaunchFuncOp::create(
      hb, loc, kernel, grid, block, dynamicShared, operands,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, cluster);
  if (plan)
    launch->setAttr(NVFP4Dialect::kPlanAttrName, plan);
  return launch;
}

/// The launch's cluster shape of a kernel whose plan asks for one (`shape`
/// x, y, z, more than one CTA), which the kernel also declares
/// (known_cluster_size, .reqnctapercluster in the PTX); none otherwise.
std::optional<gpu::KernelDim3>
mlir::nvfp4::clusterOf(OpBuilder &hb, OpBuilder &kb, Location loc,
                       gpu::GPUFuncOp kernel, ArrayRef<int64_t> shape) {
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

/// Creates an empty kernel `name` taking `argTypes` with `threads` threads
/// per CTA; the builder is left at the start of its body.
gpu::GPUFuncOp mlir::nvfp4::createKernel(OpBuilder &kb, Location loc,
                                         StringRef name, TypeRange argTypes,
                                         int64_t threads,
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
Value mlir::nvfp4::scaledBlockId(OpBuilder &kb, Location loc, gpu::Dimension d,
                                 int64_t factor) {
  Value id = gpu::BlockIdOp::create(kb, loc, d);
  if (factor == 1)
    return id;
  return arith::MulIOp::create(kb, loc, id,
                               arith::ConstantIndexOp::create(kb, loc, factor));
}

/// Launches kernel `name`: CTAs of nvfp4.block_scales_tile writing `dst`
/// (the blocked layout of `src`), one per 4 x kThreads words; `plan` (if
/// any) is recorded on the launch.
void mlir::nvfp4::launchBlockScales(OpBuilder &hb, OpBuilder &kb, Location loc,
                                    gpu::GPUModuleOp kernels,
                                    SymbolTable &symbols, StringRef name,
                                    Value src, Value dst, Attribute plan) {
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

struct NVFP4TilePass : nvfp4::impl::NVFP4TilePassBase<NVFP4TilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<GpuTarget> gpu =
        resolveGpuTarget(module, target, "nvfp4-tile", target.hasValue());
    if (failed(gpu))
      return signalPassFailure();
    SmallVector<Operation *> work;
    SmallVector<BlockScalesOp> relayouts;
    bool unplanned = false;
    module.walk([&](Operation *op) {
      if (op->getParentOfType<gpu::GPUModuleOp>())
        return;
      if (GemmOperands::of(op) || isa<QuantizeOp, GroupedProblemsOp>(op)) {
        if (op->getAttrOfType<PlanAttrInterface>(NVFP4Dialect::kPlanAttrName))
          work.push_back(op);
        else
          unplanned = true,
          op->emitOpError() << "has no plan; run nvfp4-plan first";
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
    for (Operation *op : work) {
      auto next = modules.next();
      if (failed(next))
        return signalPassFailure();
      auto [kernels, symbolTable] = *next;
      SymbolTable &symbols = *symbolTable;
      Attribute plan = op->getAttr(NVFP4Dialect::kPlanAttrName);
      std::string name = modules.kernelName(op);
      LogicalResult tiled = failure();
      // An op whose plan must be of one kind (`kind` names it).
      auto tileWith = [&](auto typedPlan, StringRef kind, auto tile) {
        if (!typedPlan) {
          op->emitOpError() << "expects a " << kind << ", but got "
                            << plan;
          return failure();
        }
        return tile(typedPlan);
      };
      if (auto quantize = dyn_cast<QuantizeOp>(op)) {
        if (failed(tileWith(dyn_cast<QuantizePlanAttr>(plan),
                            "#nvfp4.quantize_plan", [&](auto p) {
                              return tileQuantize(quantize, p, kernels,
                                                  symbols, name);
                            })))
          return signalPassFailure();
        continue;
      }
      if (auto problems = dyn_cast<GroupedProblemsOp>(op)) {
        if (failed(tileWith(dyn_cast<KernelPlanAttr>(plan),
                            "#nvfp4.kernel plan", [&](auto p) {
                              tileProblems(problems, p, kernels, symbols,
                                           name);
                              return success();
                            })))
          return signalPassFailure();
        continue;
      }
      GemmOperands gemm = *GemmOperands::of(op);
      auto matmul = dyn_cast<ScaledMatmulOp>(op);
      if (isa<GemvPlanAttr>(plan) && !matmul) {
        op->emitOpError() << "has a GEMV plan, but only a scaled_matmul "
                             "with N = 1 is a GEMV";
        return signalPassFailure();
      }
      if (auto gemv = dyn_cast<GemvPlanAttr>(plan))
        tiled = tileGemv(matmul, gemv, kernels, symbols, name);
      else if (cast<KernelPlanAttr>(plan).getTcgen05())
        tiled = tileGemmTcgen05(gemm, cast<KernelPlanAttr>(plan), kernels,
                                symbols, name);
      else
        tiled =
            tileGemm(gemm, cast<KernelPlanAttr>(plan), kernels, symbols, name);
      if (failed(tiled))
        return signalPassFailure();
    }
  }
};

} // namespace
