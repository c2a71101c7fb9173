//===- Planner.h - what nvfp4-plan's planners share -------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The target as nvfp4-plan's planners see it and the limits they share;
// the pass (Plan.cpp) plans GEMVs itself, GEMMs with planGemm
// (Gemm/PlanGemm.cpp) and quantizes with planQuantize
// (Quantize/PlanQuantize.cpp). Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TRANSFORMS_PLANNER_H
#define NVFP4_TRANSFORMS_PLANNER_H

#include "Gemm/GemmOperands.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Target/Target.h"

namespace mlir::nvfp4 {

/// The target as the planners see it: its description and the SM count the
/// grids are sized for.
struct PlanTarget {
  const GpuTargetInfo &info;
  int64_t smCount;
};

/// CUDA's grid limits: x up to 2^31 - 1 CTAs, y and z up to 65535.
constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1, kMaxGridY = 65535;

/// Plans a block-scaled GEMM (N > 1) for `t`: keeps and checks a plan
/// written in the IR, or chooses one; reports on `op` and fails when it
/// cannot.
LogicalResult planGemm(const GemmOperands &g, const PlanTarget &t);

/// Plans a grouped_problems (Gemm/PlanGemm.cpp): one plan for all its
/// problems, kept and checked if written in the IR, else chosen.
LogicalResult planProblems(GroupedProblemsOp op, const PlanTarget &t);

/// Plans nvfp4.quantize (Quantize/PlanQuantize.cpp): keeps and checks a
/// #nvfp4.quantize_plan written in the IR, or chooses one.
LogicalResult planQuantize(QuantizeOp op, const PlanTarget &t);

} // namespace mlir::nvfp4

#endif // NVFP4_TRANSFORMS_PLANNER_H
