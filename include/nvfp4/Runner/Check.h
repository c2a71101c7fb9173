//===- Check.h - compare a kernel's outputs with the CPU reference -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The one place that says when a kernel's output is right: the contest's rule
// |out - ref| <= 1e-3 + 1e-3 |ref|, widened by the bound on fp32
// accumulation-order differences (accumulationBounds) and, for bf16 outputs,
// by one bf16 rounding step. Outputs that are not floats must match bit for
// bit, except a GEMM's NVFP4 C (its codes and scales must be what some
// fp32 values within that tolerance quantize to). An entry of several ops
// is checked op by op, each on the inputs the GPU gave it. Every output is
// checked, and non-finite values are counted.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNNER_CHECK_H
#define NVFP4_RUNNER_CHECK_H

#include "nvfp4/Runner/CpuExecutor.h"
#include "nvfp4/Runner/HostBuffer.h"

#include <string>

namespace mlir::nvfp4 {

/// The check of one output argument.
struct OutputCheck {
  unsigned argIndex = 0;
  int64_t values = 0;
  /// Elements outside the tolerance (bytes, for outputs that are not
  /// floats).
  int64_t mismatches = 0;
  /// First mismatch: flat index, values and the allowed difference.
  int64_t firstBad = -1;
  float got = 0, want = 0;
  double allowed = 0;
  double maxAbsErr = 0, maxRelErr = 0;
  /// Elements that passed only thanks to the widened tolerance.
  int64_t widened = 0;
  /// Elements accepted unchecked because the sum of their products'
  /// magnitudes overflows fp32 in a kernel that forms each product in fp32
  /// (the tensor-core MXFP4 kernels; compareOutputs).
  int64_t overflowed = 0;
  /// Non-finite values in the output, and the first one.
  int64_t nonFinite = 0;
  int64_t firstNonFinite = -1;
  float firstNonFiniteValue = 0;
  /// Whether the output was compared as floats (else bit for bit, or an
  /// NVFP4 C against the values within the tolerance).
  bool isFloat = true;
  /// An FP4 C's first mismatch, explained, and its format (NVFP4 or
  /// MXFP4); empty otherwise.
  std::string detail, format;
};

/// Checks every output of `signature` in `got` against `want` (the CPU
/// reference's results for the same inputs `got` started from).
FailureOr<SmallVector<OutputCheck>> checkOutputs(func::FuncOp entry,
                                                 ArrayRef<HostBuffer> got,
                                                 ArrayRef<HostBuffer> want,
                                                 const EntrySignature &signature);

/// "[i, j, k]": the multi-dimensional index of flat element `flat` of a
/// memref of `type`.
std::string formatIndex(MemRefType type, int64_t flat);

/// Counts the non-finite values of a float output (0 for other types).
void countNonFinite(const HostBuffer &output, OutputCheck &check);

/// One line that explains a failed check: how many values differ, the first
/// one's index, values and allowed difference.
std::string describeMismatch(const HostBuffer &output,
                             const OutputCheck &check);

/// A warning line for an output with non-finite values, or "" when it has
/// none.
std::string describeNonFinite(const HostBuffer &output,
                              const OutputCheck &check);

} // namespace mlir::nvfp4

#endif // NVFP4_RUNNER_CHECK_H
