//===- Predict.h - the predicted B200 time of an sm_100a GEMM --*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// We have no B200, so what an sm_100a plan should take there is predicted,
// not measured: the contest's speed-of-light model (bytes over 7.68 TB/s,
// FLOPs over 6.9 PFLOP/s dense FP4, docs/performance.md) applied to what
// the plan really does rather than to the problem:
//
//   time = max(memory, MMA) + pre-passes + sum
//   memory    = the GEMM kernel's HBM bytes (A, B, their blocked scales
//               padded to whole slices, C or split-K's fp32 partials, C
//               again when the splits add on chip) /
//               7.68 TB/s; a tile of B or A read by several CTAs counts
//               once (the others hit L2);
//   MMA       = waves x one CTA's MMA FLOPs (128 rows of B x tile_m rows
//               of A x its K slices of 256, padding included) / one SM's
//               share of 6.9 PFLOP/s, waves = ceil(CTAs / 148);
//   pre-pass  = the scale pre-passes' bytes (read, write) / 7.68 TB/s, run
//               before the GEMM;
//   sum       = split-K's sum kernel's bytes (partials read, C written) /
//               7.68 TB/s, after it (none with an on-chip split: the on-chip
//               exchange is latency, which the model leaves out).
//
// It assumes one CTA per SM and the full MMA rate at every N = tile_m.
// What it leaves out (latency: the ring's fill, the epilogue, launches;
// a per-SM bandwidth cap; the ~5.9 TB/s the contest's kernels reached in
// practice) is why the
// contest's best results are about 2x their speed of light; the prediction
// is a floor for this plan, and the gap to the problem's speed of light is
// what the plan wastes.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNNER_PREDICT_H
#define NVFP4_RUNNER_PREDICT_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::nvfp4 {

/// The B200's figures of the contest's speed-of-light model.
struct B200Model {
  double bytesPerSecond = 7.68e12;
  double fp4FlopsPerSecond = 6.9e15;
  int64_t smCount = 148;
};

/// The prediction for one GEMM with a #nvfp4.tcgen05_mainloop.
struct GemmPrediction {
  /// The shape; `weights` = 2 for the gated dual GEMM (two products).
  int64_t m = 0, n = 0, k = 0, batch = 1, weights = 1;
  /// A grouped GEMM's rows per group (its size hint, else Mmax / G each:
  /// `hinted` says which; m is their sum), empty otherwise.
  std::vector<int64_t> groups;
  bool hinted = false;
  /// A grouped_problems' problem count (their rows in `groups`; n and k
  /// theirs where all share them, else 0), 0 otherwise.
  int64_t problems = 0;
  std::string plan;
  /// The problem's speed of light: max(its bytes / bandwidth, 2 M N K L /
  /// FP4 rate), bytes = A, B, their scales (as given) and C.
  double speedOfLightSeconds = 0;
  /// The plan's terms (see the file comment) and their sum.
  double memorySeconds = 0, mmaSeconds = 0, prePassSeconds = 0, sumSeconds = 0,
         seconds = 0;
  double gemmBytes = 0, prePassBytes = 0, sumBytes = 0;
  int64_t ctas = 0, waves = 0;
  /// MMA work past M, N and K, as a fraction of the MMAs issued.
  double mmaPadding = 0;
  /// The contest's best result for this shape (PROBLEMS.md), if it is one.
  std::optional<double> contestBestSeconds;
  /// The figures it was made with.
  B200Model model;
};

/// Predicts `op`, a scaled_matmul with N > 1, a scaled_dual_matmul, a
/// grouped_matmul (for its size hint's rows) or a grouped_problems planned
/// with a #nvfp4.tcgen05_mainloop; std::nullopt for any other op.
std::optional<GemmPrediction> predictB200Gemm(Operation *op,
                                              const B200Model &model = {});

/// Plans a copy of `module` for sm_100a (nvfp4-plan, the chip's SM count)
/// and predicts every GEMM of function `entry`, in order.
std::vector<GemmPrediction> predictB200Entry(ModuleOp module, StringRef entry);

/// One line per prediction, for nvfp4-run.
std::string formatPrediction(const GemmPrediction &p, StringRef entry);

} // namespace mlir::nvfp4

#endif // NVFP4_RUNNER_PREDICT_H
