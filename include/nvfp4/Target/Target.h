//===- Target.h - the GPU targets nvfp4 compiles for ------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TARGET_TARGET_H
#define NVFP4_TARGET_TARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::nvfp4 {

/// A GPU target of the pipeline.
enum class GpuTarget {
  /// Blackwell B200: tcgen05, cvt.rn.f16x2.e2m1x2.
  SM100a,
  /// Hopper H100/H200: no FP4 instructions; the kernels decode in software.
  SM90a,
};

/// Parses "sm_100a" / "sm_90a".
/// What the passes need to know of a target, in one place: the
/// instructions it has and its limits.
struct GpuTargetInfo {
  GpuTarget target;
  StringRef chip;
  /// cvt.rn.f16x2.e2m1x2 (sm_100a); without it fp4 is decoded in software.
  bool hasFp4Convert;
  /// wgmma (sm_90a): the tensor-core MMA the GEMM lowering uses today.
  bool hasWgmma;
  /// tcgen05 (sm_100a): TMEM and block-scaled MMAs.
  bool hasTcgen05;
  /// Static shared memory per CTA, and the dynamic maximum (opt-in).
  int64_t staticSharedBytes;
  int64_t maxSharedBytes;
  /// Streaming multiprocessors of the chip the planners size grids for
  /// (H100/H200: 132, B200: 148); nvfp4-plan's sm-count option overrides it.
  int64_t smCount;
};

/// The description of `target`.
const GpuTargetInfo &getTargetInfo(GpuTarget target);

std::optional<GpuTarget> parseGpuTarget(StringRef name);
/// The list of accepted names, for diagnostics: "sm_100a, sm_90a".
std::string supportedGpuTargets();
/// The chip name (`#nvvm.target` chip and ptxas -arch).
StringRef getChip(GpuTarget target);
/// The PTX ISA version feature the target needs ("+ptx88").
StringRef getPtxFeatures(GpuTarget target);

/// Shared-memory bytes of a GEMV's B row of `k` values decoded for `target`
/// (stage_b): sm_90a keeps one signed byte per value, sm_100a one f16; each
/// 16-value block adds its fp32 scale.
int64_t getStagedBBytes(GpuTarget target, int64_t k);

/// Checks the serialization options of the pipeline: `format` is isa, bin,
/// llvm (or none: no serialization), and for bin `toolkit`/bin/ptxas is an
/// executable. Returns "" when they are valid, else what is wrong.
std::string checkSerializationOptions(StringRef format, StringRef toolkit);

} // namespace mlir::nvfp4

#endif // NVFP4_TARGET_TARGET_H
