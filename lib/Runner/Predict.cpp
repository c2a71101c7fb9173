//===- Predict.cpp - the predicted B200 time of an sm_100a GEMM plan ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/Predict.h"

#include "nvfp4/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The contest's best B200 time of a GEMM (one weight) or gated dual GEMM
/// (two) of this shape (PROBLEMS.md), if it is a contest shape.
std::optional<double> contestBest(int64_t m, int64_t n, int64_t k,
                                  int64_t batch, int64_t weights) {
  struct Best {
    int64_t weights, m, n, k;
    double us;
  };
  static const Best kBest[] = {
      {1, 128, 7168, 16384, 18.3}, {1, 128, 4096, 7168, 8.29},
      {1, 128, 7168, 2048, 6.54},  {2, 256, 4096, 7168, 12.4},
      {2, 512, 4096, 7168, 16.4},  {2, 256, 3072, 4096, 9.43},
      {2, 512, 3072, 7168, 16.3}};
  if (batch != 1)
    return std::nullopt;
  for (const Best &b : kBest)
    if (b.weights == weights && b.m == m && b.n == n && b.k == k)
      return b.us * 1e-6;
  return std::nullopt;
}

/// The contest's best B200 time of a grouped GEMM of these groups' rows
/// (PROBLEMS.md), if it is a contest shape.
std::optional<double> contestBestGrouped(ArrayRef<int64_t> groups, int64_t n,
                                         int64_t k) {
  struct Best {
    int64_t n, k;
    std::vector<int64_t> groups;
    double us;
  };
  static const Best kBest[] = {
      {4096, 7168, {80, 176, 128, 72, 64, 248, 96, 160}, 27.9},
      {7168, 2048, {40, 76, 168, 72, 164, 148, 196, 160}, 19.4},
      {3072, 4096, {192, 320}, 8.48},
      {4096, 1536, {128, 384}, 6.43}};
  for (const Best &b : kBest)
    if (b.n == n && b.k == k && ArrayRef<int64_t>(b.groups) == groups)
      return b.us * 1e-6;
  return std::nullopt;
}

/// A GEMM-shaped op's operands as the model reads them: A's and the first
/// weight's types and scale layouts, C's type, the weights; a grouped
/// GEMM's planned rows per group (GroupedMatmulOp::getPlannedSizes).
struct Problem {
  MemRefType a, sfa, b, c;
  ScaleLayout sfaLayout, sfbLayout;
  int64_t weights;
  SmallVector<int64_t> groups = {};
  /// Whether a grouped GEMM's sizes are its size hint's.
  bool hinted = false;
};

std::optional<Problem> problemOf(Operation *op) {
  if (auto gemm = dyn_cast<ScaledMatmulOp>(op))
    return Problem{gemm.getA().getType(),  gemm.getSfa().getType(),
                   gemm.getB().getType(),  gemm.getC().getType(),
                   gemm.getSfaLayout(),    gemm.getSfbLayout(),
                   1};
  if (auto dual = dyn_cast<ScaledDualMatmulOp>(op))
    return Problem{dual.getA().getType(),  dual.getSfa().getType(),
                   dual.getB1().getType(), dual.getC().getType(),
                   dual.getSfaLayout(),    dual.getSfbLayout(),
                   2};
  if (auto grouped = dyn_cast<GroupedMatmulOp>(op))
    return Problem{grouped.getA().getType(),   grouped.getSfa().getType(),
                   grouped.getB().getType(),   grouped.getC().getType(),
                   grouped.getSfaLayout(),     grouped.getSfbLayout(),
                   1,                          grouped.getPlannedSizes(),
                   grouped.getSizeHint().has_value()};
  return std::nullopt;
}

/// Bytes of an operand's scales of `format` for K values of `rows` rows in
/// `layout` (one batch).
double scaleBytes(BlockFormat format, ScaleLayout layout, int64_t rows,
                  int64_t k) {
  double bytes = 1;
  for (int64_t d : getScaleShape(format, layout, rows, k, /*batched=*/false, 1))
    bytes *= static_cast<double>(d);
  return bytes;
}

} // namespace

/// A grouped_problems: each problem as a GEMM of its own (its operands as
/// given, its scales blocked into whole slices, by a pre-pass where they
/// are not), their CTAs in one grid: the MMA term is the block scheduler's
/// makespan of their CTAs in grid order on the SMs (a CTA past its
/// problem's N costs nothing, but a CTA pair's second CTA does: the grid
/// rounds each problem's CTAs up to whole pairs), not waves of equal
/// CTAs.
GemmPrediction predictProblems(GroupedProblemsOp op, KernelPlanAttr plan,
                               const B200Model &model) {
  GemmPrediction p;
  p.model = model;
  p.problems = op.getProblems();
  llvm::raw_string_ostream os(p.plan);
  os << plan;
  const BlockFormat format = BlockFormat::of(op.getSfa().front().getType());
  const double bw = model.bytesPerSecond;
  const double smFlops =
      model.fp4FlopsPerSecond / static_cast<double>(model.smCount);
  double givenBytes = 0, flops = 0, issued = 0;
  struct Rows {
    int64_t tiles, nTiles;
    double ctaFlops;
  };
  std::vector<Rows> rows;
  bool sameNK = true;
  for (int64_t g = 0; g < p.problems; ++g) {
    OperandShape a = getOperandShape(cast<MemRefType>(op.getA()[g].getType()));
    auto cType = cast<MemRefType>(op.getC()[g].getType());
    const int64_t n = getOperandShape(cast<MemRefType>(op.getB()[g].getType()))
                          .rows;
    sameNK &= g == 0 || (n == p.n && a.k == p.k);
    p.n = n;
    p.k = a.k;
    p.m += a.rows;
    p.groups.push_back(a.rows);
    const double values = (a.rows + n) * (a.k / 2.0);
    const double c = a.rows * n * (cType.getElementTypeBitWidth() / 8.0);
    givenBytes += values + c +
                  scaleBytes(format, op.getSfaLayout(), a.rows, a.k) +
                  scaleBytes(format, op.getSfbLayout(), n, a.k);
    flops += 2.0 * a.rows * n * a.k;
    const int64_t slotK = Tcgen05MainloopAttr::getSlotK(a.k);
    p.gemmBytes += values + c +
                   scaleBytes(format, ScaleLayout::Blocked, a.rows, slotK) +
                   scaleBytes(format, ScaleLayout::Blocked, n, slotK);
    auto prePass = [&](ScaleLayout layout, int64_t r) {
      if (!Tcgen05MainloopAttr::needsScalePrePass(layout, a.k))
        return 0.0;
      return scaleBytes(format, layout, r, a.k) +
             scaleBytes(format, ScaleLayout::Blocked, r, slotK);
    };
    p.prePassBytes +=
        prePass(op.getSfaLayout(), a.rows) + prePass(op.getSfbLayout(), n);
    const int64_t nTiles = plan.getCtasAlongN(n);
    const int64_t tiles = llvm::divideCeil(a.rows, plan.getTileM());
    const double ctaFlops = 2.0 * Tcgen05MainloopAttr::kTileN *
                            plan.getTileM() *
                            Tcgen05MainloopAttr::getSlices(a.k) *
                            Tcgen05MainloopAttr::kStageK;
    rows.push_back({tiles, nTiles, ctaFlops});
    p.ctas += tiles * nTiles;
    issued += ctaFlops * tiles * nTiles;
  }
  if (!sameNK)
    p.n = p.k = 0;
  p.speedOfLightSeconds =
      std::max(givenBytes / bw, flops / model.fp4FlopsPerSecond);
  // The block scheduler: CTAs in grid order (x fastest) to the SM that
  // frees first.
  std::vector<double> free(static_cast<size_t>(model.smCount), 0.0);
  for (const Rows &r : rows)
    for (int64_t t = 0; t < r.tiles; ++t)
      for (int64_t x = 0; x < r.nTiles; ++x) {
        std::pop_heap(free.begin(), free.end(), std::greater<>());
        free.back() += r.ctaFlops / smFlops;
        std::push_heap(free.begin(), free.end(), std::greater<>());
      }
  p.mmaSeconds = *std::max_element(free.begin(), free.end());
  p.waves = llvm::divideCeil(p.ctas, model.smCount);
  p.mmaPadding = 1.0 - flops / issued;
  p.memorySeconds = p.gemmBytes / bw;
  p.prePassSeconds = p.prePassBytes / bw;
  p.seconds = std::max(p.memorySeconds, p.mmaSeconds) + p.prePassSeconds;
  if (sameNK)
    p.contestBestSeconds = contestBestGrouped(p.groups, p.n, p.k);
  return p;
}

std::optional<GemmPrediction>
mlir::nvfp4::predictB200Gemm(Operation *op, const B200Model &model) {
  auto plan = op->getAttrOfType<KernelPlanAttr>(NVFP4Dialect::kPlanAttrName);
  if (auto problems = dyn_cast<GroupedProblemsOp>(op))
    return plan && plan.getTcgen05()
               ? std::optional(predictProblems(problems, plan, model))
               : std::nullopt;
  std::optional<Problem> problem = problemOf(op);
  if (!plan || !plan.getTcgen05() || !problem)
    return std::nullopt;
  OperandShape a = getOperandShape(problem->a);
  const BlockFormat format = BlockFormat::of(problem->sfa);
  GemmPrediction p;
  p.model = model;
  p.m = a.rows;
  p.k = a.k;
  p.batch = a.batch;
  p.n = getOperandShape(problem->b).rows;
  p.weights = problem->weights;
  const SmallVector<int64_t> &groups = problem->groups;
  p.groups.assign(groups.begin(), groups.end());
  p.hinted = problem->hinted;
  // A grouped GEMM's rows are its groups', its weights' bytes all G's.
  double weightMatrices = static_cast<double>(p.weights);
  if (!groups.empty()) {
    p.m = 0;
    for (int64_t rows : groups)
      p.m += rows;
    weightMatrices = static_cast<double>(groups.size());
  }
  llvm::raw_string_ostream os(p.plan);
  os << plan;
  const double l = static_cast<double>(a.batch);
  const double w = static_cast<double>(p.weights);
  const double outBytes = problem->c.getElementTypeBitWidth() / 8.0;
  const double bw = model.bytesPerSecond;

  // The problem: its operands as given (every weight), and C.
  const double values = l * (p.m + weightMatrices * p.n) * (p.k / 2.0);
  const double givenScales =
      l * (scaleBytes(format, problem->sfaLayout, p.m, p.k) +
           weightMatrices * scaleBytes(format, problem->sfbLayout, p.n, p.k));
  const double c = l * p.m * p.n * outBytes;
  const double flops = w * 2.0 * l * p.m * p.n * p.k;
  p.speedOfLightSeconds = std::max((values + givenScales + c) / bw,
                                   flops / model.fp4FlopsPerSecond);

  // The plan. Its slices: K padded to 256, split among split_k CTAs.
  const int64_t slotK = Tcgen05MainloopAttr::getSlotK(p.k);
  // (A grouped GEMM's A scales: one tile of rows per tile of A.)
  const int64_t gx = plan.getCtasAlongN(p.n);
  int64_t gy = llvm::divideCeil(p.m, plan.getTileM());
  if (!groups.empty()) {
    gy = 0;
    for (int64_t rows : groups)
      gy += llvm::divideCeil(rows, plan.getTileM());
  }
  const int64_t scaleRowsA =
      groups.empty() ? p.m : gy * plan.getTileM();
  const double slotScales =
      l * (scaleBytes(format, ScaleLayout::Blocked, scaleRowsA, slotK) +
           weightMatrices *
               scaleBytes(format, ScaleLayout::Blocked, p.n, slotK));
  const int64_t splitK = plan.getSplitK();
  const double partials =
      static_cast<double>(plan.getPartialsBytes(a.batch, p.m, p.n));
  // Split-K writes fp32 partials for a sum kernel, unless its splits add
  // them on chip (mode cluster) and the first one writes C.
  const bool sumKernel = plan.needsSumKernel();
  p.gemmBytes = values + slotScales + (sumKernel ? partials : c);
  // A pre-pass per operand whose scales are not blocked in whole slices:
  // reads them as given, writes them blocked and padded.
  auto prePass = [&](ScaleLayout layout, int64_t rows) {
    if (!Tcgen05MainloopAttr::needsScalePrePass(layout, p.k))
      return 0.0;
    return l * (scaleBytes(format, layout, rows, p.k) +
                scaleBytes(format, ScaleLayout::Blocked, rows, slotK));
  };
  // A grouped GEMM's A scales are always gathered into its tiles' rows.
  const double prePassA =
      groups.empty()
          ? prePass(problem->sfaLayout, p.m)
          : scaleBytes(format, ScaleLayout::Plain, p.m, p.k) +
                scaleBytes(format, ScaleLayout::Blocked, scaleRowsA, slotK);
  p.prePassBytes =
      prePassA + weightMatrices * prePass(problem->sfbLayout, p.n);
  p.sumBytes = sumKernel ? partials + c : 0.0;

  p.ctas = gx * gy * a.batch * splitK;
  p.waves = llvm::divideCeil(p.ctas, model.smCount);
  const int64_t ctaSlices = Tcgen05MainloopAttr::getSlices(p.k) / splitK;
  const double ctaFlops = w * 2.0 * Tcgen05MainloopAttr::kTileN *
                          plan.getTileM() * ctaSlices *
                          Tcgen05MainloopAttr::kStageK;
  p.mmaPadding = 1.0 - flops / (ctaFlops * p.ctas);

  p.memorySeconds = p.gemmBytes / bw;
  p.mmaSeconds = p.waves * ctaFlops /
                 (model.fp4FlopsPerSecond / static_cast<double>(model.smCount));
  p.prePassSeconds = p.prePassBytes / bw;
  p.sumSeconds = p.sumBytes / bw;
  p.seconds =
      std::max(p.memorySeconds, p.mmaSeconds) + p.prePassSeconds + p.sumSeconds;
  p.contestBestSeconds =
      groups.empty() ? contestBest(p.m, p.n, p.k, a.batch, p.weights)
                     : contestBestGrouped(groups, p.n, p.k);
  return p;
}

std::vector<GemmPrediction> mlir::nvfp4::predictB200Entry(ModuleOp module,
                                                          StringRef entry) {
  std::vector<GemmPrediction> out;
  OwningOpRef<ModuleOp> planned = module.clone();
  PassManager pm(module.getContext());
  NVFP4PlanPassOptions options;
  options.target = "sm_100a";
  pm.addPass(createNVFP4PlanPass(options));
  // Diagnostics are the compile's business: a module that does not plan
  // has no prediction.
  ScopedDiagnosticHandler quiet(module.getContext(),
                                [](Diagnostic &) { return success(); });
  if (failed(pm.run(*planned)))
    return out;
  auto fn = planned->lookupSymbol<func::FuncOp>(entry);
  if (!fn)
    return out;
  fn.walk([&](Operation *op) {
    if (std::optional<GemmPrediction> p = predictB200Gemm(op))
      out.push_back(*p);
  });
  return out;
}

std::string mlir::nvfp4::formatPrediction(const GemmPrediction &p,
                                          StringRef entry) {
  auto us = [](double s) { return s * 1e6; };
  std::string line = llvm::formatv(
      "nvfp4-run: B200 prediction @{0} {1}{2}{3}{4}: {5:f2} us = max(memory "
      "{6:f2} us: {7:f1} MB at {8:f2} TB/s, MMA {9:f2} us: {10} CTAs in {11} "
      "wave(s) of {12} SMs, {13:f1}% padding, at {14:f1} PFLOP/s)",
      entry, p.m,
      p.problems && !p.n ? " rows" : llvm::formatv("x{0}", p.n).str(),
      p.problems && !p.n ? "" : llvm::formatv("x{0}", p.k).str(),
      (p.batch > 1 ? llvm::formatv(" L{0}", p.batch).str() : std::string()) +
          (p.weights > 1 ? " (gated dual: two products)" : "") +
          (p.problems
               ? llvm::formatv(" (grouped: {0} independent problems{1})",
                               p.problems,
                               p.n ? "" : " of their own N and K")
                     .str()
           : p.groups.empty()
               ? std::string()
               : llvm::formatv(" (grouped: {0} groups, {1})", p.groups.size(),
                               p.hinted ? "the size hint's rows"
                                        : "Mmax / G rows each (no size hint)")
                     .str()),
      us(p.seconds), us(p.memorySeconds), p.gemmBytes * 1e-6,
      p.model.bytesPerSecond * 1e-12, us(p.mmaSeconds), p.ctas, p.waves,
      p.model.smCount, 100.0 * p.mmaPadding,
      p.model.fp4FlopsPerSecond * 1e-15);
  if (p.prePassSeconds > 0)
    line += llvm::formatv(" + scale pre-passes {0:f2} us ({1:f1} MB)",
                          us(p.prePassSeconds), p.prePassBytes * 1e-6)
                .str();
  if (p.sumSeconds > 0)
    line += llvm::formatv(" + split-K sum {0:f2} us ({1:f1} MB)",
                          us(p.sumSeconds), p.sumBytes * 1e-6)
                .str();
  line += llvm::formatv("; speed of light {0:f2} us", us(p.speedOfLightSeconds))
              .str();
  if (p.contestBestSeconds)
    line += llvm::formatv("; contest best {0:f2} us", us(*p.contestBestSeconds))
                .str();
  line += "; plan " + p.plan +
          " (latency not modeled: a floor, not a "
          "measurement)";
  return line;
}
