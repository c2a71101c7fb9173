//===- Pipelines.cpp - the nvfp4 pass pipeline ----------------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Pipelines/Pipelines.h"

#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Binary/Passes.h"
#include "nvfp4/Target/Target.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::nvfp4;

LogicalResult mlir::nvfp4::verifyNVFP4PipelineOptions(
    const NVFP4PipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  // Not given: plan and tile take the chip of the input's @nvfp4_kernels.
  // Given empty (`target=`, a script's unset variable): an error, not the
  // default.
  if (options.target.hasValue() && options.target.empty())
    return errorHandler("nvfp4-pipeline: target was given an empty value; "
                        "name one (" +
                        supportedGpuTargets() +
                        ") or leave the option out for the default");
  if (!options.target.empty() && !parseGpuTarget(options.target))
    return errorHandler("nvfp4-pipeline: unsupported target '" +
                        options.target +
                        "'; supported targets: " + supportedGpuTargets());
  std::string error =
      checkSerializationOptions(options.format, options.toolkit);
  if (!error.empty())
    return errorHandler("nvfp4-pipeline: " + error);
  return success();
}

LogicalResult mlir::nvfp4::buildNVFP4PassPipeline(
    OpPassManager &pm, const NVFP4PipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  if (failed(verifyNVFP4PipelineOptions(options, errorHandler)))
    return failure();
  // The passes see a target only when one was named.
  if (options.target.empty()) {
    pm.addPass(createNVFP4PlanPass());
    pm.addPass(createNVFP4TilePass());
  } else {
    pm.addPass(createNVFP4PlanPass({options.target}));
    pm.addPass(createNVFP4TilePass({options.target}));
  }

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createNVFP4SoftwarePipelinePass());
  kernels.addPass(createConvertNVFP4ToNVVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  // Kernel memrefs are passed as plain device pointers: the launcher (and
  // any embedding runtime) passes one pointer per operand.
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // Tensor maps are passed by value (byval grid constants).
  kernels.addPass(createNVFP4TensorMapParamsPass());
  // NVVM ops with no LLVM intrinsic (the ring's mbarrier waits) become
  // inline PTX.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  if (options.format == "none")
    return success();
  pm.addPass(createNVFP4SerializePass({options.format, options.toolkit}));
  return success();
}

LogicalResult
mlir::nvfp4::runNVFP4Pipeline(ModuleOp module,
                              const NVFP4PipelineOptions &options) {
  PassManager pm(module.getContext());
  if (failed(buildNVFP4PassPipeline(pm, options, [&](const Twine &message) {
        return module.emitError(message);
      })))
    return failure();
  // Any error diagnostic fails the run, whether or not the pass that
  // emitted it signalled failure.
  bool sawError = false;
  ScopedDiagnosticHandler watch(module.getContext(), [&](Diagnostic &diag) {
    sawError |= diag.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // Let the caller's handler report it.
  });
  return failure(failed(pm.run(module)) || sawError);
}

void mlir::nvfp4::registerNVFP4Pipelines() {
  registerPassPipeline(
      "nvfp4-pipeline",
      "Lower nvfp4 ops to gpu.binary + gpu.launch_func for sm_100a or "
      "sm_90a (plan, tile, convert-nvfp4-to-nvvm, GPU-to-NVVM, serialize)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        NVFP4PipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        return buildNVFP4PassPipeline(pm, options, errorHandler);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(NVFP4PipelineOptions());
      });
}
