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

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::nvfp4 {

/// Options of the nvfp4 pipeline.
struct NVFP4PipelineOptions
    : public PassPipelineOptions<NVFP4PipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("GPU target: sm_100a (B200) or sm_90a (H100/H200)"),
      llvm::cl::init("sm_100a")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu.binary holds: 'isa' (PTX), 'bin' (cubin, "
                     "assembled by ptxas), 'llvm' (LLVM IR), or 'none' to "
                     "stop before serialization"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root holding bin/ptxas (format=bin)"),
      llvm::cl::init("/usr/local/cuda")};
};

/// Adds plan -> tile -> convert-nvfp4-to-nvvm -> upstream GPU-to-NVVM
/// lowering -> gpu-module-to-binary to `pm` (which must run on a
/// builtin.module).
void buildNVFP4PassPipeline(OpPassManager &pm,
                            const NVFP4PipelineOptions &options);

/// Registers `--nvfp4-pipeline` with the pass registry.
void registerNVFP4Pipelines();

} // namespace mlir::nvfp4

#endif // NVFP4_PIPELINES_PIPELINES_H
