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

#include "nvfp4/Runtime/Device.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir::nvfp4 {

/// A kernel parameter: an entry argument, or a workspace the entry
/// allocates (gpu.alloc) for its kernels, passed as its device pointer or,
/// with `tensorMap`, as a tensor map over it (nvfp4.tensor_map) encoded by
/// the launcher and passed by value.
struct KernelOperand {
  bool workspace = false;
  /// Entry-argument index, or workspace index.
  unsigned index = 0;
  std::optional<TensorMapEncoding> tensorMap;
};

/// One kernel launch of a compiled entry function.
struct KernelLaunch {
  std::string kernel;
  unsigned grid[3];
  unsigned block[3];
  /// Thread-block cluster shape (gpu.launch_func's `clusters in`; 1 x 1 x 1
  /// without).
  unsigned cluster[3] = {1, 1, 1};
  /// Dynamic shared memory of the launch, in bytes.
  unsigned dynamicSharedBytes = 0;
  /// A programmatic dependent launch (the launch op carries
  /// `nvfp4.programmatic_dependent_launch`).
  bool dependent = false;
  /// The kernel's parameters, in order.
  std::vector<KernelOperand> operands;
  /// The plan nvfp4-tile recorded on the launch, as IR text (paste it back
  /// as `nvfp4.plan = ...` on the op to reproduce it), or "".
  std::string plan;
};

/// What `ptxas -v` reported for one kernel (-1: not reported).
struct PtxasReport {
  int registers = -1;
  int64_t sharedBytes = -1, stackBytes = -1, spillStoreBytes = -1,
          spillLoadBytes = -1;
  /// Why ptxas serializes the kernel's wgmma.mma_async instructions (its
  /// C7510-C7515 performance notes, e.g. "insufficient register
  /// resources"), or empty when it does not.
  std::string wgmmaSerialized;
};

/// One gpu.binary of the compiled module: its symbol and object.
struct KernelImage {
  std::string binary;
  /// Cubin bytes, PTX text, or LLVM bitcode (see CompiledEntry::format).
  std::string image;
};

/// A compiled entry function.
struct CompiledEntry {
  /// Every gpu.binary, in module order: @nvfp4_kernels, then, for entries
  /// of more than kOpsPerKernelModule ops, @nvfp4_kernels_1, ... Kernel
  /// names are unique across them.
  SmallVector<KernelImage> images;
  std::string format;
  /// The images' objects alone (what a launcher loads).
  std::vector<std::string> getImages() const {
    std::vector<std::string> out;
    for (const KernelImage &k : images)
      out.push_back(k.image);
    return out;
  }
  /// Bytes of all images together.
  uint64_t getImageBytes() const {
    uint64_t bytes = 0;
    for (const KernelImage &k : images)
      bytes += k.image.size();
    return bytes;
  }
  SmallVector<KernelLaunch> launches;
  /// Bytes of each workspace (gpu.alloc in the entry), allocated by the
  /// launcher and shared by the launches.
  SmallVector<uint64_t> workspaceBytes;
  /// Wall-clock seconds of the pipeline and, for cubins, of ptxas.
  double compileSeconds = 0;
  /// format "bin": ptxas's report per kernel name.
  llvm::StringMap<PtxasReport> ptxas;
};

/// Parses the output of `ptxas -v` into a report per kernel.
llvm::StringMap<PtxasReport> parsePtxasReport(StringRef log);

/// Runs the nvfp4 pipeline in place on `module` for `target` ("sm_100a" or
/// "sm_90a") producing `format` ("bin", "isa", "llvm", or "none"), then reads
/// off the launches of `entry`. Functions other than `entry` are removed
/// first. For "bin" the pipeline stops at PTX and ptxas (under
/// `toolkit`/bin) assembles it with -v, whose report is kept. Diagnostics go
/// to the context's handler; any error diagnostic fails the compilation.
FailureOr<CompiledEntry> compileEntry(ModuleOp module, StringRef entry,
                                      StringRef target, StringRef format,
                                      StringRef toolkit);

} // namespace mlir::nvfp4

#endif // NVFP4_RUNNER_COMPILE_H
