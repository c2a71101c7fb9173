//===- Pipelines.h - the nvfp4 pass pipeline --------------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The pipeline from nvfp4 ops to gpu.binary + gpu.launch_func, as one C++
// function that nvfp4-opt (--nvfp4-pipeline), nvfp4-run and an embedding
// compiler all call, in the manner of upstream's gpu-lower-to-nvvm-pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_PIPELINES_PIPELINES_H
#define NVFP4_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir {
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace mlir::nvfp4 {

/// Options of the nvfp4 pipeline.
struct NVFP4PipelineOptions
    : public PassPipelineOptions<NVFP4PipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("GPU target: sm_100a (B200) or sm_90a (H100/H200); "
                     "default: the chip of a gpu.module @nvfp4_kernels "
                     "in the input, else sm_100a (an empty value is an "
                     "error)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu.binary holds: 'isa' (PTX), 'bin' (cubin, "
                     "assembled by ptxas), 'llvm' (LLVM IR), or 'none' to "
                     "stop before serialization; default bin, which needs "
                     "ptxas under toolkit"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root holding bin/ptxas for format=bin "
                     "(default /usr/local/cuda)"),
      llvm::cl::init("/usr/local/cuda")};
};

/// Checks the options: a supported target, a known format, and for
/// format=bin an executable `toolkit`/bin/ptxas. Reports through
/// `errorHandler` and returns its result.
LogicalResult verifyNVFP4PipelineOptions(
    const NVFP4PipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Adds plan -> tile -> convert-nvfp4-to-nvvm -> upstream GPU-to-NVVM
/// lowering -> nvfp4-serialize (gpu-module-to-binary) to `pm` (which must
/// run on a builtin.module). Invalid options are reported through
/// `errorHandler` and nothing is added.
LogicalResult buildNVFP4PassPipeline(
    OpPassManager &pm, const NVFP4PipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Builds the pipeline and runs it on `module`. Fails on invalid options
/// (reported on the module), on a failed pass, and on any error diagnostic
/// emitted during the run, even by a pass that did not signal failure.
LogicalResult runNVFP4Pipeline(ModuleOp module,
                               const NVFP4PipelineOptions &options);

/// Registers `--nvfp4-pipeline` with the pass registry.
void registerNVFP4Pipelines();

} // namespace mlir::nvfp4

#endif // NVFP4_PIPELINES_PIPELINES_H
