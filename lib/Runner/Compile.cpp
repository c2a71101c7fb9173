//===- Compile.cpp - compile an entry function for a GPU target ------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/Compile.h"

#include "nvfp4/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;

static FailureOr<unsigned> constantDim(Value v, gpu::LaunchFuncOp op) {
  auto cst = v.getDefiningOp<arith::ConstantIndexOp>();
  if (!cst) {
    op.emitError() << "nvfp4-run launches grids of constant size only";
    return failure();
  }
  int64_t value = cst.value();
  if (value < 1 || value > std::numeric_limits<int32_t>::max()) {
    op.emitError() << "grid or block dimension " << value
                   << " is outside [1, 2^31 - 1]";
    return failure();
  }
  return static_cast<unsigned>(value);
}

FailureOr<CompiledEntry> mlir::nvfp4::compileEntry(ModuleOp module,
                                                   StringRef entry,
                                                   StringRef target,
                                                   StringRef format,
                                                   StringRef toolkit) {
  // Only the entry is compiled: other functions of the file (which may hold
  // ops that have no kernel for this target) are not its concern.
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (fn.getSymName() != entry)
      fn.erase();
  PassManager pm(module.getContext());
  NVFP4PipelineOptions options;
  options.target = target.str();
  options.format = format.str();
  options.toolkit = toolkit.str();
  buildNVFP4PassPipeline(pm, options);
  if (failed(pm.run(module)))
    return failure();

  CompiledEntry result;
  result.format = format.str();
  if (format != "none") {
    auto binary = module.lookupSymbol<gpu::BinaryOp>("nvfp4_kernels");
    if (!binary || binary.getObjects().size() != 1) {
      module.emitError() << "the pipeline produced no gpu.binary "
                            "@nvfp4_kernels with one object";
      return failure();
    }
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    result.image = object.getObject().getValue().str();
  }
  auto fn = module.lookupSymbol<func::FuncOp>(entry);
  if (!fn)
    return failure();
  WalkResult walk = fn.walk([&](gpu::LaunchFuncOp launch) {
    KernelLaunch k;
    k.kernel = launch.getKernelName().str();
    Value dims[6] = {launch.getGridSizeX(),  launch.getGridSizeY(),
                     launch.getGridSizeZ(),  launch.getBlockSizeX(),
                     launch.getBlockSizeY(), launch.getBlockSizeZ()};
    for (int i = 0; i < 6; ++i) {
      FailureOr<unsigned> d = constantDim(dims[i], launch);
      if (failed(d))
        return WalkResult::interrupt();
      (i < 3 ? k.grid[i] : k.block[i - 3]) = *d;
    }
    for (Value operand : launch.getKernelOperands()) {
      auto arg = dyn_cast<BlockArgument>(operand);
      if (!arg || arg.getOwner()->getParentOp() != fn) {
        launch.emitError() << "kernel operands must be entry arguments";
        return WalkResult::interrupt();
      }
      k.argIndices.push_back(arg.getArgNumber());
    }
    result.launches.push_back(std::move(k));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return result;
}
