//===- Pipelines.cpp - the nvfp4 pass pipeline -----------------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Pipelines/Pipelines.h"

#include "nvfp4/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::nvfp4;

void mlir::nvfp4::buildNVFP4PassPipeline(OpPassManager &pm,
                                         const NVFP4PipelineOptions &options) {
  pm.addPass(createNVFP4PlanPass({options.target}));
  pm.addPass(createNVFP4TilePass({options.target}));

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createConvertNVFP4ToNVVMPass({options.target}));
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  // Kernel memrefs are passed as plain device pointers: the launcher (and
  // any embedding runtime) passes one pointer per operand.
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // NVVM ops with no LLVM intrinsic (the ring's mbarrier waits) become
  // inline PTX.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  if (options.format == "none")
    return;
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  // Only ptxas (format=bin) needs the toolkit; PTX and LLVM IR do not.
  if (options.format == "bin")
    binary.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::nvfp4::registerNVFP4Pipelines() {
  PassPipelineRegistration<NVFP4PipelineOptions>(
      "nvfp4-pipeline",
      "Lower nvfp4 ops to gpu.binary + gpu.launch_func for sm_100a or "
      "sm_90a (plan, tile, convert-nvfp4-to-nvvm, GPU-to-NVVM, serialize)",
      buildNVFP4PassPipeline);
}
