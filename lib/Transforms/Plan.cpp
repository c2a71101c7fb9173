//===- Plan.cpp - choose a kernel strategy per nvfp4 op and target ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The GEMV is memory bound: the plan's job is to keep enough bytes in flight
// per SM to saturate DRAM, while the decode work per byte stays below the
// integer throughput (Hopper decodes in software).
//
// - Long rows (K >= 8192): 4 warps x 2 rows per CTA, 2 steps per
//   iteration; mid rows: 8 warps x 1 row, 1 step, 3 iterations in flight
//   (sm_100a: 2 steps, 1 in flight); short rows (K <= 4096): 4 warps x
//   2 rows, 1 step. Fitted to H200 measurements (docs/performance.md).
// - The shared-memory A ring (stages) is never chosen: it measured slower
//   on the H200 (performance.md, v13); a user plan may ask for it.
// - bytes_per_thread: 16 on sm_90a (one 16-byte load per step); 32 on
//   sm_100a (two, fewer loop iterations).
// - stage_b when the decoded B row fits 40 KiB of shared memory and at least
//   2 rows share it; prefetch (software pipeline) always.
// - k_split only when the grid would have fewer than 2 CTAs per SM.
// - A plan written in the IR is kept; its shape constraints (K % 64) and
//   shared-memory budget (48 KiB) are checked.
//
// The GEMM's planner, a table of candidate plans, is Gemm/PlanGemm.cpp.
//
//===----------------------------------------------------------------------===//

#include "Planner.h"

#include "nvfp4/Target/KernelModule.h"
#include "nvfp4/Target/Target.h"
#include "nvfp4/Transforms/Passes.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "nvfp4-plan"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4PLANPASS
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Shared memory a GEMV plan needs: the staged B row, the k_split partial
/// sums, the A ring and its mbarriers; each buffer is 16-byte aligned.
int64_t getPlanSharedBytes(GpuTarget target, GemvPlanAttr plan, int64_t k) {
  int64_t bytes =
      plan.getStageB() ? llvm::alignTo(getStagedBBytes(target, k), 16) : 0;
  if (plan.getKSplit() > 1)
    bytes +=
        llvm::alignTo(plan.getWarpsPerCta() * plan.getRowsPerWarp() * 4, 16);
  if (plan.getStages() > 0)
    bytes += plan.getRingBytes();
  return bytes;
}

/// Checks the GEMV kernel's own constraints; reports on `op`.
LogicalResult checkGemvShape(Operation *op, const OperandShape &a,
                             GemvPlanAttr plan) {
  int64_t k = a.k;
  if (plan.getGridX(a.rows) > kMaxGridX)
    return op->emitOpError()
           << "has a plan whose grid needs " << plan.getGridX(a.rows)
           << " CTAs in x, more than CUDA's limit of " << kMaxGridX;
  if (a.batch > kMaxGridY)
    return op->emitOpError()
           << "cannot be launched as one GEMV: its batch (L = " << a.batch
           << ") is the grid's y dimension, which CUDA limits to " << kMaxGridY
           << " CTAs; split the batch";
  if (k % 64 != 0)
    return op->emitOpError()
           << "cannot be planned as a GEMV: the GEMV kernels need K % 64 == "
              "0 (whole 64-value chunks per load), but K = "
           << k;
  // K % 64 == 0 makes a row a whole number of 8-, 16- and 32-byte chunks,
  // so every bytes_per_thread the attribute allows fits. The ring copies
  // whole iterations of a row (and their scales, 16-byte aligned).
  if (plan.getStages() > 0 && (k / 2) % plan.getIterationBytes() != 0)
    return op->emitOpError()
           << "has a plan with stages = " << plan.getStages()
           << " whose ring slots hold " << plan.getIterationBytes()
           << " bytes of each row, which do not divide a row of K = " << k
           << " (" << k / 2 << " bytes); use stages = 0 or a smaller unroll";
  return success();
}

GemvPlanAttr chooseGemvPlan(MLIRContext *ctx, const PlanTarget &t, int64_t m,
                            int64_t k, int64_t batch) {
  // Fitted to H200 sweeps (docs/performance.md, v9 to v12, back-to-back
  // timing): long rows (K >= 8192) run best with 4 warps x 2 rows and 2
  // steps per iteration, one iteration in flight (80 % of the copy floor at
  // K = 16384: more registers cost the CTAs the one wave needs); mid rows
  // with 8 warps x 1 row, 1 step per iteration and 3 iterations in flight
  // (96 % at K = 7168); short rows (K <= 4096, at most 4 steps per lane)
  // with 4 warps x 2 rows and 1 step per iteration, so the software
  // pipeline still has iterations to overlap (70 % at K = 2048).
  // With the fp4 convert (sm_100a) 32 bytes per lane and step (two loads,
  // fewer iterations); 16 when decoding in software.
  const bool hasFp4Convert = t.info.hasFp4Convert;
  int64_t bytesPerThread = hasFp4Convert ? 32 : 16;
  int64_t steps = llvm::divideCeil(k / 2 / bytesPerThread, 32);
  bool longRows = k >= 8192, shortRows = k <= 4096;
  int64_t warps = longRows || shortRows ? 4 : 8;
  int64_t rowsPerWarp = longRows || shortRows ? 2 : 1;
  int64_t unroll = longRows ? 2 : 1;
  int64_t distance = longRows || shortRows ? 1 : 3;
  // The sm_100a f16 path needs more registers per value (and twice the
  // bytes per step): mid rows keep 2 steps and one iteration in flight, the
  // same bytes in flight as sm_90a's. (Not measured: no B200 here.)
  if (hasFp4Convert && !longRows && !shortRows)
    unroll = 2, distance = 1;
  unroll = std::min(unroll, steps);
  // Few rows (small M x L) leave SMs idle: let warps split K so the grid
  // has about two CTAs per SM. Splitting K costs a shared-memory reduction
  // and idles lanes on short rows, so it is only used when rows are scarce
  // (the contest shapes have enough rows; they measured slower split).
  int64_t kSplit = 1;
  int64_t rowsPerCta = warps * rowsPerWarp;
  while (kSplit < warps &&
         static_cast<int64_t>(llvm::divideCeil(m, rowsPerCta / kSplit)) *
                 batch <
             2 * t.smCount &&
         steps / (2 * kSplit) >= 1)
    kSplit *= 2;
  // Stage B in shared memory when it fits the 48 KiB of static shared
  // memory with room to spare (see getStagedBBytes) and is shared by enough
  // rows to pay for the CTA-wide decode.
  bool stageB = getStagedBBytes(t.info.target, k) <= 40 * 1024 &&
                rowsPerCta / kSplit >= 2;
  return GemvPlanAttr::get(ctx, warps, rowsPerWarp, bytesPerThread, unroll,
                           stageB, /*prefetch=*/true, kSplit,
                           /*rowGroups=*/1, /*stages=*/0, distance);
}

/// Plans a batched GEMV (N = 1); reports on `op` and fails when it cannot.
LogicalResult planGemv(ScaledMatmulOp op, const PlanTarget &t) {
  GpuTarget gpu = t.info.target;
  if (op.getSfaLayout() != ScaleLayout::Plain ||
      op.getSfbLayout() != ScaleLayout::Plain)
    return op.emitOpError() << "cannot be planned as a GEMV: the GEMV kernels "
                               "read plain (K-major) scales; convert blocked "
                               "scales first";
  OperandShape a = getOperandShape(op.getA().getType());
  int64_t k = a.k;
  // Rows and K chunks are 32-bit indices in the kernel (addresses are
  // 64-bit products of them).
  if (k > kMaxGridX || a.rows > kMaxGridX)
    return op.emitOpError() << "cannot be planned as a GEMV: the kernels "
                               "index rows and K in 32 bits, so M and K must "
                               "be below 2^31, but M = "
                            << a.rows << " and K = " << k;
  Attribute given = op->getAttr(NVFP4Dialect::kPlanAttrName);
  auto plan = dyn_cast_or_null<GemvPlanAttr>(given);
  if (given && !plan)
    return op.emitOpError()
           << "is a GEMV (N = 1) and expects '" << NVFP4Dialect::kPlanAttrName
           << "' to be a #nvfp4.gemv_plan, but got " << given;
  if (!plan)
    plan = chooseGemvPlan(op->getContext(), t, a.rows, a.k, a.batch);
  if (failed(checkGemvShape(op, a, plan)))
    return failure();
  int64_t shared = getPlanSharedBytes(gpu, plan, k);
  if (shared > t.info.staticSharedBytes)
    return op.emitOpError() << "has a plan that needs " << shared
                            << " bytes of shared memory (stage_b for K = " << k
                            << (plan.getStages() ? ", the A ring" : "")
                            << "), more than the " << t.info.staticSharedBytes
                            << " a CTA can have statically; use stage_b = false"
                            << (plan.getStages() ? " or fewer stages" : "");
  op->setAttr(NVFP4Dialect::kPlanAttrName, plan);
  return success();
}

struct NVFP4PlanPass : nvfp4::impl::NVFP4PlanPassBase<NVFP4PlanPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<GpuTarget> gpu = resolveGpuTarget(
        getOperation(), target, "nvfp4-plan", target.hasValue());
    if (failed(gpu))
      return signalPassFailure();
    if (smCount < 0) {
      getOperation().emitError()
          << "nvfp4-plan: sm-count must be >= 0 (0: the chip's), but got "
          << static_cast<int64_t>(smCount);
      return signalPassFailure();
    }
    const GpuTargetInfo &info = getTargetInfo(*gpu);
    PlanTarget planTarget{info, smCount ? static_cast<int64_t>(smCount)
                                        : info.smCount};
    // One planner per kind of op.
    WalkResult result = getOperation().walk([&](Operation *op) {
      // Kernel-level ops are planned, but for those whose kernel is the
      // same for every shape and target (a scale re-layout).
      if (!op->hasTrait<OpTrait::nvfp4::KernelLevel>() ||
          op->hasTrait<OpTrait::nvfp4::PlanFree>())
        return WalkResult::advance();
      if (auto quantize = dyn_cast<QuantizeOp>(op))
        return failed(planQuantize(quantize, planTarget))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      if (auto problems = dyn_cast<GroupedProblemsOp>(op))
        return failed(planProblems(problems, planTarget))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      std::optional<GemmOperands> gemm = GemmOperands::of(op);
      if (!gemm) {
        op->emitOpError() << "has no " << info.chip
                          << " kernel yet: nvfp4 lowers the batched GEMV, "
                             "the GEMM (scaled_matmul), the gated dual "
                             "GEMM (scaled_dual_matmul), the grouped GEMM "
                             "(grouped_matmul, grouped_problems) and "
                             "quantize to the GPU";
        return WalkResult::interrupt();
      }
      auto matmul = dyn_cast<ScaledMatmulOp>(op);
      bool gemv = matmul && gemm->getN() == 1;
      if (failed(gemv ? planGemv(matmul, planTarget)
                      : planGemm(*gemm, planTarget)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
