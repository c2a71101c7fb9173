//===- DeviceRun.h - run and time a compiled entry on a device --*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Uploads an entry's arguments, poisons its outputs, launches its kernels,
// reads the outputs back, and times them over rotating buffers. Written
// against the Device interface: nvfp4-run drives it with the CUDA driver,
// the unit tests with a device on host memory.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNNER_DEVICERUN_H
#define NVFP4_RUNNER_DEVICERUN_H

#include "nvfp4/Runner/Compile.h"
#include "nvfp4/Runner/CpuExecutor.h"
#include "nvfp4/Runner/HostBuffer.h"
#include "nvfp4/Runtime/Device.h"

#include <optional>
#include <string>

namespace mlir::nvfp4 {

struct DeviceRunOptions {
  /// Testing only: after the kernels ran, change this flat element of the
  /// first output, so a test can show that a wrong result is caught.
  std::optional<int64_t> perturbElement;
  /// Bytes [begin, end) of argument `arg` that the entry's ops leave
  /// untouched (a grouped GEMM's rows of C outside every group): they must
  /// keep each run's poison, and are given back what the host buffer held
  /// before the run, as the CPU reference leaves them.
  struct Untouched {
    unsigned arg;
    int64_t begin, end;
  };
  SmallVector<Untouched> untouched;
};

/// Runs `kernels` on `device` with `args` (inputs filled; outputs are
/// overwritten with what the kernels wrote). Outputs are poisoned before the
/// launch so that an element the kernels skip cannot pass the check: float
/// outputs with 0xFF bytes (NaN in f16, bf16 and f32, which no kernel
/// produces from finite inputs); outputs with no unproducible value (packed
/// e2m1, e4m3 codes) run twice, poisoned with 0x00 and then 0xFF, and a
/// byte that differs between the two runs was not written. On failure
/// returns false and says why in `error`.
bool runOnDevice(Device &device, const CompiledEntry &kernels,
                 const EntrySignature &signature,
                 MutableArrayRef<HostBuffer> args,
                 const DeviceRunOptions &options, std::string &error);

struct BenchResult {
  /// Median microseconds per launch of the entry's kernels.
  double backToBackUs = 0, aloneUs = 0;
  /// Median microseconds of host wall time to issue one launch of the
  /// entry's kernels in a back-to-back batch (the runner's launch calls,
  /// the event records excluded): when it is close to backToBackUs, the
  /// batch is bound by the host, not by the GPU.
  double hostIssueUs = 0;
  unsigned batches = 0, batchSize = 0, singles = 0, bufferSets = 0;
  /// Bytes the entry must move (inputs read once, outputs written once),
  /// the device copy rate measured in the same call, and the floor.
  size_t bytes = 0;
  double copyTBs = 0, floorUs = 0;
};

/// Times `kernels` on `device` over rotating copies of `args` (already
/// uploaded by runOnDevice's caller: `args` only gives sizes and contents):
/// the median of `iters` single launches and of batches of 10 back-to-back
/// launches, and a 1 GiB device copy for the floor.
bool benchmarkOnDevice(Device &device, const CompiledEntry &kernels,
                       const EntrySignature &signature,
                       ArrayRef<HostBuffer> args, unsigned iters,
                       BenchResult &result, std::string &error);

} // namespace mlir::nvfp4

#endif // NVFP4_RUNNER_DEVICERUN_H
