//===- Compile.h - compile an entry function for a GPU target ---*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Runs the nvfp4 pipeline on a module and extracts what a launcher needs:
// the kernel image (cubin or PTX) of gpu.binary @nvfp4_kernels and, for each
// gpu.launch_func of the entry, the kernel name, grid, block and which entry
// arguments it receives.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNNER_COMPILE_H
#define NVFP4_RUNNER_COMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::nvfp4 {

/// One kernel launch of a compiled entry function.
struct KernelLaunch {
  std::string kernel;
  unsigned grid[3];
  unsigned block[3];
  /// Entry-argument index of each kernel parameter.
  SmallVector<unsigned> argIndices;
};

/// A compiled entry function.
struct CompiledEntry {
  /// The contents of the gpu.binary object: cubin bytes, PTX text, or LLVM
  /// IR (see `format`).
  std::string image;
  std::string format;
  SmallVector<KernelLaunch> launches;
};

/// Runs the nvfp4 pipeline in place on `module` for `target` ("sm_100a" or
/// "sm_90a") producing `format` ("bin", "isa", "llvm", or "none"), then reads
/// off the launches of `entry`. Functions other than `entry` are removed
/// first. Diagnostics go to the context's handler.
FailureOr<CompiledEntry> compileEntry(ModuleOp module, StringRef entry,
                                      StringRef target, StringRef format,
                                      StringRef toolkit);

} // namespace mlir::nvfp4

#endif // NVFP4_RUNNER_COMPILE_H
