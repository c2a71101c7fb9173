//===- PlanGemm.cpp - the GEMM's planner: a table of candidate plans ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4-plan for a GEMM: a #nvfp4.kernel composed of a mainloop for the
// target's MMA and, where the grid would leave SMs idle, a split-K
// reduction. On sm_90a the first line of kGemmCandidates that applies to
// the shape wins (each line cites the measurements that chose it); on
// sm_100a a short rule. A plan written in the IR is kept and checked
// against the shape and the target instead.
//
//===----------------------------------------------------------------------===//

#include "../Planner.h"
#include "GemmOperands.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Dialect/NVFP4/WgmmaBTiles.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <tuple>
#include <vector>

#define DEBUG_TYPE "nvfp4-plan"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// K chunks up to which each CTA decodes A itself (no pre-pass kernel).
constexpr int64_t kShortKChunks = 6;

/// K chunks from which a full grid's CTAs are pairs splitting K with two
/// warpgroups each (below).
constexpr int64_t kLongKChunks = 128;

/// The sm_90a GEMM plan (the table kGemmCandidates below; the measurements
/// behind each line follow). For M rows of A (the MMA's N): one warpgroup per
/// 64 rows of B, and all of A's rows in one CTA tile up to 128 (the MMA's N up
/// to 128 keeps the 64 accumulators per thread and the two decoded buffers, 32
/// KiB, within one CTA's budget with room for two CTAs per SM); more rows of A
/// take more tiles. When several CTAs share a tile of A (N spans more than one
/// tile of B), A is decoded once by a pre-pass and streamed through a ring of
/// TMA copies, and warpgroups split each tile's K: the kernel is bound by each
/// warp's instruction latency, so more warps per SM help (H100 sweeps,
/// performance.md GEMM v4, v7 and v11). Three warpgroups per tile (12 warps
/// per SM), a producer warpgroup filling a 9-stage ring (3 slots per K
/// group: fills two rounds ahead; performance.md GEMM v14 and v15:
/// 128x7168x16384 85.6 -> 79.1 us, 128x7168x2048 16.9 -> 15.5 us), and B
/// loaded 2 rounds ahead, or 3 when the CTA has at least 128 K chunks
/// (GEMM v16: 78.7 -> 72.2 us on 128x7168x16384; on 32 or 56 chunks 3
/// rounds are 6-7 % slower). When the grid covers at
/// most half the SMs, two CTAs split K (128x4096x7168: 28.7 -> 26.8 us,
/// performance.md GEMM v12) as a cluster that adds their tiles on chip
/// (an on-chip split_k; GEMM v26: 24.76 -> 24.53 us against the sum kernel, the
/// same call), or with an odd K / 64 tiles of 64 rows of A
/// with four warpgroups each (GEMM v7: 40 -> 29 us there; every tile of
/// A's rows decodes B again). When B is a single tile (N <= 64), or K has
/// at most kShortKChunks chunks, each CTA decodes A itself (one launch, no
/// workspace): on such short K a call is bound by its launches, and the
/// pre-pass is one more (H100, performance.md GEMM v20: 128x7168x128
/// 7.8-10.3 -> 5.6 us, 128x4096x256 10.0-12.6 -> 6.6-6.7 us; at K = 512
/// the ring wins again on N = 7168).
/// On a full grid with long K (at least kLongKChunks, even) and a tile of
/// A of 128 rows (more than 120 rows of A), two warpgroups share each tile
/// of A (half of A's L2 traffic per MMA) and two CTAs split K as a
/// cluster: as many CTAs as with one warpgroup when N / 64 is even (one
/// more otherwise), and no K groups to add. The three-K-group plan has cliffs
/// there (GEMM v27, H100, N = 7168: 45.4 us at K = 8192 and 62.9 at
/// K = 9216 against 34.0 at 7168 and 45.9 at 10240); this one grows
/// smoothly with K (35.8, 39.4, 43.6, 47.1 us) and is 1-2 % faster on
/// 128x7168x16384, 9 % on 256x7168x8192, 2.5 % slower on 128x8192x8192
/// and at K = 10240. Below 128 chunks it loses (K = 2048: 17.1 against
/// 14.6 us; at K = 6144 it is ahead by 1.5 %, at 7168 behind by 5 %).
///
/// Where B's chunks can come through the ring (`bTmaFits`: K % 256 == 0 or
/// blocked scales of B) and the tile of A has 128 rows, the producer copies
/// them with A's tiles (b_tma; performance.md GEMM v31, H100, us back to
/// back against the plans above): the long-K pairs keep their shape
/// (128x7168x16384 65.7 -> 60.6, K = 8192 37.8 -> 36.4, K = 9216 41.8 ->
/// 39.5); with B's latency covered by the ring rather than by more warps,
/// one consumer warpgroup per tile (k_groups = 1, all its registers) beats
/// three K groups on the half grid from 64 chunks (128x4096x7168 22.5 ->
/// 20.7, 128x4096x4096 16.0 -> 14.6, 128x2048x7168 20.9 -> 20.0,
/// 256x2048x7168 22.2 -> 20.8; a 6-slot ring) and on the full grid from 32
/// chunks (128x7168x2048 14.1 -> 13.5, K = 4096 22.5 -> 21.6; an 8-slot
/// ring; at K = 1024 it loses, 9.7 -> 10.2). The half grid's b_tma plan
/// also serves tiles of 64 to 120 rows of A (64x4096x7168 29.0 -> 18.1,
/// where the plans above had no split-K for 64 rows; 96x4096x4096 14.6 ->
/// 13.8). Where two warpgroups sharing each tile of A (half of A's copies
/// per MMA, as the grouped GEMM's CTAs) need enough fewer waves of CTAs
/// than one (at least 24 chunks; GemmShape::twoWarpgroupsPay), they take
/// the tile instead (GEMM v35, H200: 512x3072x4096 37.55 -> 32.25 us,
/// 1024x4096x7168 121.31 -> 99.68, 640x2048x4096 38.42 -> 31.30; they lose
/// where they would leave a partial wave: 384x7168x2048 32.28 -> 35.37,
/// and where one wave becomes half a one: 256x4096x7168 32.06 -> 48.74).
/// What the sm_90a GEMM planner looks at.
struct GemmShape {
  int64_t m, n, chunks, batch, smCount;
  /// B's chunks can come through the ring (K % 256 == 0 or blocked scales).
  bool bTmaFits;
  /// C is NVFP4 (quantized by wgmma.store) or the operands MXFP4 (decoded
  /// by the ring's ops): a ring, not the CTA that decodes A itself.
  bool needsRing = false;
  /// A's rows in one tile, up to 128, a multiple of 8.
  int64_t tileM() const { return std::min<int64_t>(llvm::alignTo(m, 8), 128); }
  /// CTAs of a grid of tiles of `bRows` rows of B (64: one warpgroup a
  /// tile) and tileM rows of A.
  int64_t ctas(int64_t bRows = 64) const {
    return llvm::divideCeil(n, bRows) * llvm::divideCeil(m, tileM()) * batch;
  }
  /// At most half the SMs busy: room for two CTAs splitting K.
  bool halfGrid() const { return 2 * ctas() <= smCount; }
  /// Two warpgroups sharing each tile of A (128 rows of B a CTA) finish
  /// first: a two-warpgroup CTA takes about 1.7 one-warpgroup CTAs' time
  /// (half of A's copies per MMA), so its grid must need enough fewer
  /// waves (GEMM v35: right on all eleven shapes measured, for any factor
  /// from 1.5 to 2).
  bool twoWarpgroupsPay() const {
    auto waves = [&](int64_t bRows) {
      return static_cast<double>(llvm::divideCeil(ctas(bRows), smCount));
    };
    return 1.7 * waves(128) < waves(64);
  }
  bool evenChunks() const { return chunks % 2 == 0; }
  /// b_tma's full-grid plans were measured with 128 rows of A per tile
  /// (with fewer they won at 64x7168x2048 but lost at 64x7168x16384 and
  /// 32x7168x4096: GEMM v31).
  bool bTma() const { return bTmaFits && tileM() == 128; }
  /// Rounds of B loaded ahead for `ctaChunks` K chunks per CTA (GEMM v16).
  static int64_t bPrefetch(int64_t ctaChunks) {
    return ctaChunks >= 128 ? 3 : 2;
  }
};

/// A sm_90a plan in one line: the wgmma mainloop's fields, then split-K's
/// CTAs (1: none) and whether they add on chip.
struct GemmPlanFields {
  int64_t warpgroups, tileM, stages, kGroups, bPrefetch, splitK;
  bool producer, splitOnChip, bTma;
  int64_t weights = 1;
  int64_t slotChunks = 1;
  bool splitWeights = false;
};

/// The plan of `f`: a wgmma mainloop, and split-K's reduction when it
/// splits. On chip, each split adds and stores its part of the tile where
/// the tile's rows divide among the splits in whole 8-column groups
/// (performance.md, GEMM v32), else the first CTA adds the whole tile.
KernelPlanAttr getGemmPlan(MLIRContext *ctx, const GemmPlanFields &f) {
  auto mainloop = WgmmaMainloopAttr::get(ctx, f.warpgroups, f.tileM, f.stages,
                                         f.kGroups, f.bPrefetch, f.producer,
                                         f.bTma, f.weights, f.slotChunks,
                                         f.splitWeights);
  SplitKAttr reduction;
  if (f.splitK > 1) {
    SplitKMode mode = !f.splitOnChip                  ? SplitKMode::Global
                      : f.tileM % (8 * f.splitK) == 0 ? SplitKMode::Scatter
                                                      : SplitKMode::Cluster;
    reduction = SplitKAttr::get(ctx, f.splitK, mode);
  }
  return KernelPlanAttr::get(ctx, mainloop, reduction);
}

/// Whether each of `splits` shares of `chunks` K chunks fills an even
/// number of ring slots of `slotChunks` chunks: the only case timed with
/// slot_chunks = 2 or 4 (performance.md, slots v1 to v3; an odd last round
/// was never timed on a GPU).
bool fillsEvenSlots(int64_t chunks, int64_t slotChunks, int64_t splits = 1) {
  return chunks % (2 * slotChunks * splits) == 0;
}

/// The most K chunks a ring slot (4, 2 or 1) whose slots every CTA's
/// `chunks` fill an even number of.
int64_t evenSlotChunks(int64_t chunks) {
  return fillsEvenSlots(chunks, 4) ? 4 : fillsEvenSlots(chunks, 2) ? 2 : 1;
}

/// One line of the sm_90a planner: when it applies, the plan, and the
/// entries of performance.md whose measurements chose it.
struct GemmCandidate {
  const char *name;
  bool (*applies)(const GemmShape &);
  GemmPlanFields (*plan)(const GemmShape &);
  const char *evidence;
};

/// The sm_90a planner: the first line that applies wins (the comment
/// above gives the measurements behind each).
const GemmCandidate kGemmCandidates[] = {
    {"each CTA decodes A itself",
     [](const GemmShape &s) {
       return !s.needsRing && (s.n <= 64 || s.chunks <= kShortKChunks);
     },
     [](const GemmShape &s) -> GemmPlanFields {
       return {1, s.tileM(), 0, 1, 2, 1, false, false, false};
     },
     "GEMM v20"},
    {"half grid: a split cluster with B through the ring",
     [](const GemmShape &s) {
       return s.halfGrid() && s.bTmaFits && s.tileM() >= 64 && s.chunks >= 64 &&
              s.evenChunks();
     },
     [](const GemmShape &s) -> GemmPlanFields {
       return {1, s.tileM(), 6, 1, 2, 2, true, true, true};
     },
     "GEMM v31"},
    {"half grid: a split cluster of three K groups",
     [](const GemmShape &s) {
       return s.halfGrid() && s.tileM() > 64 && s.evenChunks();
     },
     [](const GemmShape &s) -> GemmPlanFields {
       return {1, s.tileM(), 9,    3,    GemmShape::bPrefetch(s.chunks / 2),
               2, true,      true, false};
     },
     "GEMM v12, v26"},
    {"half grid, odd K / 64: tiles of 64 rows of A, four K groups",
     [](const GemmShape &s) { return s.halfGrid() && s.tileM() > 64; },
     [](const GemmShape &) -> GemmPlanFields {
       return {1, 64, 8, 4, 2, 1, false, false, false};
     },
     "GEMM v7"},
    {"full grid, long K: two warpgroups a tile, a split cluster",
     [](const GemmShape &s) {
       return s.tileM() == 128 && s.chunks >= kLongKChunks && s.evenChunks() &&
              2 * s.batch <= kMaxGridY;
     },
     [](const GemmShape &s) -> GemmPlanFields {
       // With B through the ring, two K chunks a slot where each split's
       // share is an even number of slots.
       if (s.bTma() && fillsEvenSlots(s.chunks, 2, /*splits=*/2))
         return {2, s.tileM(), 5, 1, 2, 2, true, true, true, 1, 2};
       return {2, s.tileM(), 10, 1, s.bTma() ? 2 : 6, 2, true, true, s.bTma()};
     },
     "GEMM v27, v31, slots v1"},
    {"fewer waves: two warpgroups a tile, B through the ring",
     [](const GemmShape &s) {
       return s.bTma() && s.chunks >= 24 && s.twoWarpgroupsPay();
     },
     [](const GemmShape &s) -> GemmPlanFields {
       return {2, s.tileM(), 8, 1, 2, 1, true, false, true};
     },
     "GEMM v35"},
    {"full grid: B through the ring",
     [](const GemmShape &s) { return s.bTma() && s.chunks >= 32; },
     [](const GemmShape &s) -> GemmPlanFields {
       return {1, s.tileM(), 8, 1, 2, 1, true, false, true};
     },
     "GEMM v31"},
    {"full grid: three K groups and a producer",
     [](const GemmShape &) { return true; },
     [](const GemmShape &s) -> GemmPlanFields {
       return {1, s.tileM(), 9,     3,    GemmShape::bPrefetch(s.chunks),
               1, true,      false, false};
     },
     "GEMM v14-v16"},
};

KernelPlanAttr chooseGemmPlan(MLIRContext *ctx, const PlanTarget &t, int64_t m,
                              int64_t n, int64_t k, int64_t batch,
                              bool bTmaFits, bool needsRing) {
  const GemmShape shape{m,         n,        k / WgmmaMainloopAttr::kTileK,
                        batch,     t.smCount, bTmaFits,
                        needsRing};
  for (const GemmCandidate &candidate : kGemmCandidates) {
    if (!candidate.applies(shape))
      continue;
    LLVM_DEBUG(llvm::dbgs()
               << "nvfp4-plan: " << m << "x" << n << "x" << k << ": "
               << candidate.name << " (" << candidate.evidence << ")\n");
    return getGemmPlan(ctx, candidate.plan(shape));
  }
  llvm_unreachable("the last candidate applies to every shape");
}

/// A wgmma ring's slots of `slot` bytes that fit the target's shared
/// memory, 3 to 8 (two ring rounds cost registers; more than 8 did not
/// pay: dual v1, grouped v3).
int64_t stagesThatFit(const PlanTarget &t, int64_t slot) {
  return std::clamp<int64_t>((t.info.maxSharedBytes - 1024) / (slot + 16), 3,
                             8);
}

/// One group's (or problem's) work in a grid of tiles: its rows of A, its
/// tiles of B and its K chunks.
struct TileWork {
  int64_t rows, nTiles, chunks;
};

/// What one K chunk of a CTA costs in tilesMakespan, in units of a chunk
/// of 128-row MMAs: `fixed` for the tile of B (its copy and, on sm_90a,
/// its decode, whatever the rows of A), the MMAs' N / 128 (times `wide`
/// for tiles of more than 128 rows: fewer ring slots, the accumulators'
/// registers), and `aCopy` x tile_m / 128 for the copy of the whole tile
/// of A (its box, whatever rows the group has).
struct ChunkCosts {
  double fixed, wide, aCopy;
};

/// The sm_90a grouped GEMMs': the fit to 32 timed plans of six grouped
/// shapes on the H200 (performance.md, grouped v8). It picks the fastest
/// plan timed on each; grouped v4's costs took tiles that add a wave of
/// small CTAs, each of which still decodes all of B's tile.
constexpr ChunkCosts kWgmmaChunkCosts{1.5, 1.3, 0.4};
/// Grouped v4's costs (a fixed 0.25, nothing else), for the planners whose
/// choices were timed with them or cannot be timed here: the sm_90a dual
/// GEMM (dual v4; the refit has no dual timings, and would move some
/// untimed shapes' tiles) and sm_100a (B is not decoded in software there,
/// and no B200 has timed a plan).
constexpr ChunkCosts kGroupedV4ChunkCosts{0.25, 1.0, 0.0};

/// The time a grid of grouped GEMM tiles of `tileM` rows takes on `smCount`
/// SMs, in units of one K chunk of a 128-row MMA: each group's tiles (MMA N
/// = rows rounded up to kRowsStep where the kernel narrows a group's last
/// tile's MMAs, `narrow`, else tileM) times its tiles of B, each CTA costing
/// chunks x `costs`, handed out in grid order to the SM that frees first,
/// as the hardware's block scheduler does.
double tilesMakespan(ArrayRef<TileWork> work, int64_t tileM, int64_t smCount,
                     bool narrow, const ChunkCosts &costs) {
  std::vector<double> free(static_cast<size_t>(smCount), 0.0);
  for (const TileWork &w : work) {
    for (int64_t left = w.rows; left > 0; left -= tileM) {
      const int64_t n = narrow ? llvm::alignTo(std::min(left, tileM),
                                               WgmmaMainloopAttr::kRowsStep)
                               : tileM;
      const double cost =
          w.chunks *
          (costs.fixed + (tileM > 128 ? costs.wide : 1.0) * n / 128.0 +
           costs.aCopy * tileM / 128.0);
      for (int64_t i = 0; i < w.nTiles; ++i) {
        std::pop_heap(free.begin(), free.end(), std::greater<>());
        free.back() += cost;
        std::push_heap(free.begin(), free.end(), std::greater<>());
      }
    }
  }
  return *std::max_element(free.begin(), free.end());
}

/// The tiles of `tileM` rows of A that `work`'s problems need in all (the
/// grid's y, which CUDA limits to kMaxGridY).
int64_t tilesOfA(ArrayRef<TileWork> work, int64_t tileM) {
  int64_t tiles = 0;
  for (const TileWork &w : work)
    tiles += llvm::divideCeil(w.rows, tileM);
  return tiles;
}

/// The tile of A from `first` rows down to 64 in steps of kRowsStep whose
/// grid `makespan` says ends first (the larger on a tie), with that time.
std::pair<int64_t, double>
fastestTileDownTo64(int64_t first, function_ref<double(int64_t)> makespan) {
  std::pair<int64_t, double> best = {first, makespan(first)};
  for (int64_t tileM = first - WgmmaMainloopAttr::kRowsStep; tileM >= 64;
       tileM -= WgmmaMainloopAttr::kRowsStep)
    if (const double time = makespan(tileM); time < best.second)
      best = {tileM, time};
  return best;
}

/// The sm_90a gated dual GEMM plan (weights = 2): every consumer thread
/// keeps both accumulators of the same tile of A, so the ring's consumers
/// (never the CTA that decodes A itself) decode the same rows of B1 and B2.
/// Two consumer warpgroups share each tile of A (128 rows of B; one where
/// N <= 64) and a producer fills as deep a ring as shared memory holds,
/// with B's chunks where they fit (b_tma; else tiles of at most 64 rows of
/// A, whose registers hold B's loads too); two CTAs split K on chip where
/// the grid would leave more than half the SMs idle, adding their tiles
/// before the gate (performance.md, dual v1). Without a split, b_tma's
/// tile of A is the multiple of 8 rows from 64 up whose grid
/// tilesMakespan says ends first: a last wave of few CTAs costs a whole
/// tile's time (512 x 3072 x 7168: 96 CTAs of 128 rows on 132 SMs; 120 of
/// 104 rows are 6.6 % faster, performance.md, dual v4). Where the grid
/// would split K, K is at most kSplitWeightsMaxChunks chunks and B's scales
/// are plain, each weight gets a warpgroup of its own instead
/// (split_weights): the same work a CTA on as many CTAs, whose weights meet
/// in the CTA rather than across a cluster, each warpgroup storing half of
/// the tile; 7-8 % faster on 256 x 3072 x 4096 and 13 % on 200 x 2048 x
/// 2048, level (0.3 %) on 256 x 4096 x 7168, whose longer K loop amortizes
/// the cluster's exchange (performance.md, dual v5 and v5b).
KernelPlanAttr chooseDualPlan(MLIRContext *ctx, const PlanTarget &t, int64_t m,
                              int64_t n, int64_t k, int64_t batch,
                              bool bTmaFits, bool splitWeightsFit) {
  GemmShape shape{m,     n,         k / WgmmaMainloopAttr::kTileK,
                  batch, t.smCount, bTmaFits};
  GemmPlanFields f{};
  f.weights = 2;
  f.warpgroups = n > 64 ? 2 : 1;
  // B through registers costs the second weight's loads too: 64 rows of A
  // keep both accumulators within the registers (dual v1).
  f.tileM = bTmaFits ? shape.tileM() : std::min<int64_t>(shape.tileM(), 64);
  f.kGroups = 1;
  f.bPrefetch = 2;
  f.producer = true;
  f.bTma = bTmaFits;
  const int64_t ctas = llvm::divideCeil(n, 64 * f.warpgroups) *
                       llvm::divideCeil(m, f.tileM) * batch;
  f.splitK = 2 * ctas <= t.smCount && shape.evenChunks() ? 2 : 1;
  constexpr int64_t kSplitWeightsMaxChunks = 4096 / WgmmaMainloopAttr::kTileK;
  if (f.splitK == 2 && splitWeightsFit && f.warpgroups == 2 &&
      shape.chunks <= kSplitWeightsMaxChunks) {
    f.warpgroups = 1;
    f.splitK = 1;
    f.splitWeights = true;
    // The warpgroups swap halves of the tile in whole 8-column groups.
    f.tileM = std::min<int64_t>(llvm::alignTo(f.tileM, 16), 128);
  }
  if (f.bTma && f.splitK == 1 && !f.splitWeights) {
    SmallVector<TileWork> work(
        batch,
        TileWork{m,
                 static_cast<int64_t>(llvm::divideCeil(n, 64 * f.warpgroups)),
                 shape.chunks});
    f.tileM = fastestTileDownTo64(f.tileM, [&](int64_t tileM) {
                return tilesMakespan(work, tileM, t.smCount, /*narrow=*/false,
                                     kGroupedV4ChunkCosts);
              }).first;
  }
  f.splitOnChip = true;
  f.stages = stagesThatFit(t, WgmmaMainloopAttr::slotBytes(
                                  f.tileM, f.warpgroups, f.bTma, f.weights));
  return getGemmPlan(ctx, f);
}

/// tilesMakespan of groups of `sizes` rows sharing `nTiles` and `chunks`.
double groupedMakespan(ArrayRef<int64_t> sizes, int64_t tileM, int64_t nTiles,
                       int64_t chunks, int64_t smCount, bool narrow,
                       const ChunkCosts &costs) {
  SmallVector<TileWork> work;
  for (int64_t m : sizes)
    work.push_back({m, nTiles, chunks});
  return tilesMakespan(work, tileM, smCount, narrow, costs);
}

/// The group sizes a grouped GEMM's plan is made for
/// (GroupedMatmulOp::getPlannedSizes), with the largest (at least 1) and
/// the mean of the non-empty ones (Mmax / G when none is).
struct GroupSizes {
  SmallVector<int64_t> sizes;
  int64_t typical, largest = 1;

  explicit GroupSizes(const GemmOperands &g)
      : sizes(cast<GroupedMatmulOp>(g.op).getPlannedSizes()),
        typical(std::max<int64_t>(
            llvm::divideCeil(g.getAShape().rows, g.getWeightBatch()), 1)) {
    int64_t total = 0, used = 0;
    for (int64_t m : sizes)
      if (m > 0)
        total += m, ++used, largest = std::max(largest, m);
    if (used)
      typical = std::max<int64_t>(llvm::divideCeil(total, used), 1);
  }
};

/// The grouped GEMMs' plan with B through the ring (b_tma): `warpgroups`
/// consumer warpgroups sharing each tile of A, a producer, and as many
/// ring slots as fit; the tile of A the one `makespan` says ends the grid
/// first: `first` rows (a tile of the largest group, up to 128), fewer in
/// steps of kRowsStep down to 64 (one wave of CTAs instead of a wave and a
/// tail: grouped v8), or 192 or 256 (fewer tiles of B decoded) while the
/// smaller one does not already hold the largest group. `makespan` is
/// infinite for a tile whose grid CUDA cannot launch. `slotChunks`: the
/// most K chunks a slot whose slots every CTA's chunks fill an even number
/// of (evenSlotChunks): tiles of two warpgroups with 8 ring slots of one
/// chunk (up to 128 rows) then take 4 slots of two chunks, or of four
/// (tiles of up to 16 rows).
KernelPlanAttr bTmaTilesPlan(MLIRContext *ctx, const PlanTarget &t,
                             int64_t warpgroups, int64_t first, int64_t largest,
                             function_ref<double(int64_t)> makespan,
                             int64_t slotChunks) {
  GemmPlanFields f{};
  f.warpgroups = warpgroups;
  f.splitK = 1;
  f.producer = true;
  f.bPrefetch = 2;
  f.bTma = true;
  f.kGroups = 1;
  double best;
  std::tie(f.tileM, best) = fastestTileDownTo64(first, makespan);
  // (Where no smaller tile's grid can be launched, larger tiles are tried
  // whatever the largest group; checkGroupedPlan reports a grid none fits.)
  int64_t smaller = first;
  for (int64_t tileM : {192, 256}) {
    if (smaller >= largest && best != std::numeric_limits<double>::infinity())
      break;
    if (const double time = makespan(tileM); time < best)
      best = time, f.tileM = tileM;
    smaller = tileM;
  }
  f.stages = stagesThatFit(
      t, WgmmaMainloopAttr::slotBytes(f.tileM, f.warpgroups, true, 1));
  // Two K chunks a slot, half as many slots: each round's fixed cost is
  // paid once per two chunks. Tiles of tiny groups (MoE decode: 8 rows),
  // bound by that cost, gained 9 % (performance.md, slots v1); tiles of
  // 112-128 rows 3-5 % once the K loop's per-rows variants stopped making
  // ptxas serialize the wgmmas (slots v2). The halved ring keeps 4 slots;
  // 256-row tiles (5 slots of one chunk, 2 of two) lost 46 %. All timed
  // with two consumer warpgroups and an even number of slots' worth of K;
  // one warpgroup (N <= 64) with two chunks a slot never ran on a GPU.
  // Decode's tiles of 8 and 16 rows gained 5-7 % more with 4 slots of four
  // chunks (3, 5, 6 or 7 slots of four: no gain; slots v3).
  if (slotChunks >= 2 && f.warpgroups == 2 && f.tileM <= 128 && f.stages >= 8) {
    f.slotChunks = slotChunks == 4 && f.tileM <= 16 ? 4 : 2;
    f.stages /= 2;
  }
  return getGemmPlan(ctx, f);
}

/// The grouped GEMMs' plan with B through registers: the GEMM's three K
/// groups and a producer, tiles of `typical` rows up to 128 (K chunks:
/// `chunks`, the longest).
KernelPlanAttr kGroupsTilesPlan(MLIRContext *ctx, int64_t typical,
                                int64_t chunks) {
  GemmPlanFields f{};
  f.warpgroups = 1;
  f.splitK = 1;
  f.producer = true;
  f.tileM = std::min<int64_t>(llvm::alignTo(typical, 8), 128);
  f.stages = 9;
  f.kGroups = 3;
  f.bPrefetch = GemmShape::bPrefetch(chunks);
  return getGemmPlan(ctx, f);
}

/// The sm_90a grouped GEMM plan (performance.md, grouped v1-v4). A tile of
/// A holds rows of one group, and its K loop runs the MMAs its rows need
/// (multiples of 8 rows of A as the MMA's N, kRowsStep). Where B's chunks can
/// come through the ring (b_tma): two consumer warpgroups share each tile of A
/// (128 rows of B: half of A's shared-memory traffic per MMA, which bounds
/// one warpgroup per tile; 151 against 175 us on the first contest shape,
/// 73.5 against 97 us on decode), as many ring slots as fit (3 to 8; 8 of
/// one K chunk become 4 of two where K / 64 is a multiple of 4: slots v2),
/// and the tile of A bTmaTilesPlan picks by groupedMakespan, from the size
/// hint's largest group (else Mmax / G rows) rounded up to 32 (8 for
/// groups of at most 16 rows) up to 128. Otherwise B comes through
/// registers: the GEMM's three-K-group plan with tiles of a typical
/// group's rows up to 128 (the hint's mean over non-empty groups). No
/// split-K: a group's tiles are not known before the kernel runs.
KernelPlanAttr chooseGroupedPlan(MLIRContext *ctx, const PlanTarget &t,
                                 const GemmOperands &g) {
  OperandShape a = g.getAShape();
  GroupSizes groups(g);
  const int64_t chunks = a.k / WgmmaMainloopAttr::kTileK;
  if (!g.bTmaScalesFit())
    return kGroupsTilesPlan(ctx, groups.typical, chunks);
  const int64_t largest = groups.largest;
  const int64_t warpgroups = g.getN() > 64 ? 2 : 1;
  const int64_t nTiles = llvm::divideCeil(g.getN(), 64 * warpgroups);
  return bTmaTilesPlan(
      ctx, t, warpgroups,
      std::min<int64_t>(largest <= 16 ? llvm::alignTo(largest, 8)
                                      : llvm::alignTo(largest, 32),
                        128),
      largest,
      [&](int64_t tileM) {
        if (GroupTileOp::maxTiles(a.rows, g.getWeightBatch(), tileM) >
            kMaxGridY)
          return std::numeric_limits<double>::infinity();
        return groupedMakespan(groups.sizes, tileM, nTiles, chunks, t.smCount,
                               /*narrow=*/true, kWgmmaChunkCosts);
      },
      evenSlotChunks(chunks));
}

/// The sm_90a plan of a grouped_problems (one plan for all its problems,
/// whose CTAs share the kernel): as the grouped GEMM's where every
/// problem's B can come through the ring and K is not short (the tile
/// bTmaTilesPlan picks by tilesMakespan from the largest problem's rows
/// rounded up to 32, up to 128; each problem's tiles are whole MMAs, not
/// narrowed; two K chunks a slot where every problem's K chunks are a
/// multiple of 4); the CTA that decodes A itself where every
/// problem's K is short (at most kShortKChunks chunks: a pre-pass would
/// cost more than it saves, GEMM v20); else the GEMM's three K groups and
/// a producer. No split-K.
KernelPlanAttr chooseProblemsPlan(MLIRContext *ctx, const PlanTarget &t,
                                  ArrayRef<GemmOperands> problems) {
  SmallVector<TileWork> work;
  int64_t largest = 1, total = 0, maxN = 1, maxChunks = 1;
  bool bTmaFits = true;
  int64_t slotChunks = 4;
  for (const GemmOperands &p : problems) {
    OperandShape a = p.getAShape();
    const int64_t chunks = a.k / WgmmaMainloopAttr::kTileK;
    work.push_back({a.rows, 0, chunks});
    largest = std::max(largest, a.rows);
    total += a.rows;
    maxN = std::max(maxN, p.getN());
    maxChunks = std::max(maxChunks, chunks);
    bTmaFits &= p.bTmaScalesFit();
    slotChunks = std::min(slotChunks, evenSlotChunks(chunks));
  }
  const int64_t typical =
      llvm::divideCeil(total, static_cast<int64_t>(problems.size()));
  if (!problems.front().getFormat().isMX() && maxChunks <= kShortKChunks) {
    GemmPlanFields f{};
    f.warpgroups = 1;
    f.splitK = 1;
    f.kGroups = 1;
    f.bPrefetch = 2;
    f.tileM = std::min<int64_t>(llvm::alignTo(typical, 8), 128);
    return getGemmPlan(ctx, f);
  }
  if (!bTmaFits)
    return kGroupsTilesPlan(ctx, typical, maxChunks);
  const int64_t warpgroups = maxN > 64 ? 2 : 1;
  for (auto [w, p] : llvm::zip(work, problems))
    w.nTiles = llvm::divideCeil(p.getN(), 64 * warpgroups);
  return bTmaTilesPlan(
      ctx, t, warpgroups, std::min<int64_t>(llvm::alignTo(largest, 32), 128),
      largest,
      [&](int64_t tileM) {
        if (tilesOfA(work, tileM) > kMaxGridY)
          return std::numeric_limits<double>::infinity();
        return tilesMakespan(work, tileM, t.smCount, /*narrow=*/false,
                             kWgmmaChunkCosts);
      },
      slotChunks);
}

/// An sm_100a plan of tiles of `tileM` rows of A with as many ring slots
/// (2 to 16, at most `slices`) as TMEM's 512 columns and the shared
/// memory hold.
KernelPlanAttr tcgen05PlanWithStages(MLIRContext *ctx, const PlanTarget &t,
                                     int64_t tileM, int64_t weights,
                                     ScaleFormat format, SplitKAttr reduction,
                                     int64_t slices, int64_t ctaGroup = 1) {
  auto plan = [&](int64_t stages) {
    return KernelPlanAttr::get(
        ctx,
        Tcgen05MainloopAttr::get(ctx, tileM, stages, weights, format, ctaGroup),
        reduction);
  };
  int64_t stages = 2;
  while (stages < 16 && stages < slices) {
    if (Tcgen05MainloopAttr::tmemColumnsUsed(tileM, stages + 1, weights,
                                             format) > 512 ||
        plan(stages + 1).getSharedBytes() > t.info.maxSharedBytes)
      break;
    ++stages;
  }
  return plan(stages);
}

/// CTA pairs (cta_group = 2) where they deepen the ring: a pair's CTAs
/// hold half of the tile of A each, so each CTA copies less per slice
/// (through L2, which the B200 model does not time) and its shared memory
/// holds more slots. Chosen when B's tiles pair up (no idle CTA; every
/// problem's of a grouped_problems, whose N are `ns`), no cluster is taken
/// by an on-chip split-K, the tile has at least 64 rows (32 a CTA), and
/// the pair's ring has more slots than a single CTA's. (The contest's best
/// B200 dual and grouped kernels used 2-CTA MMAs.)
KernelPlanAttr withCtaPairs(MLIRContext *ctx, const PlanTarget &t,
                            KernelPlanAttr single, ArrayRef<int64_t> ns,
                            int64_t slices) {
  Tcgen05MainloopAttr mainloop = single.getTcgen05();
  auto oddTiles = [](int64_t n) {
    return llvm::divideCeil(n, Tcgen05MainloopAttr::kTileN) % 2 != 0;
  };
  if (llvm::any_of(ns, oddTiles) || single.getSplitCluster() ||
      mainloop.getTileM() < 64)
    return single;
  KernelPlanAttr pair = tcgen05PlanWithStages(
      ctx, t, mainloop.getTileM(), mainloop.getWeights(), mainloop.getFormat(),
      single.getReduction(), slices, /*ctaGroup=*/2);
  return pair.getTcgen05().getStages() > mainloop.getStages() ? pair : single;
}

/// The sm_100a GEMM plan: the MMA's N (tile_m) covers A's rows up to 128
/// in one of 32, 64 or 128; when the grid would leave more than half the
/// SMs idle, tiles of 64 rows of A (a 128-row tile of A becomes two CTAs:
/// B is read twice, from L2 the second time), then split-K by powers of
/// two while the grid still fits in one wave; as many ring slots as the
/// shared memory (and TMEM) hold. Splits add on chip (a cluster) where
/// the epilogue needs the finished sums: several weights' gate, or an
/// NVFP4 C's quantization.
KernelPlanAttr chooseTcgen05Plan(MLIRContext *ctx, const PlanTarget &t,
                                 int64_t m, int64_t n, int64_t k, int64_t batch,
                                 int64_t weights, bool quantizedC,
                                 ScaleFormat format) {
  const bool onChip = weights > 1 || quantizedC;
  int64_t tileM = m <= 32 ? 32 : m <= 64 ? 64 : 128;
  const int64_t nTiles = llvm::divideCeil(n, Tcgen05MainloopAttr::kTileN);
  auto ctas = [&](int64_t tile) -> int64_t {
    return nTiles * static_cast<int64_t>(llvm::divideCeil(m, tile)) * batch;
  };
  if (tileM == 128 && 2 * ctas(128) <= t.smCount)
    tileM = 64;
  const int64_t slices = Tcgen05MainloopAttr::getSlices(k);
  // Several weights' gate applies after the splits meet: on chip, where
  // the first CTA's ring must hold the other splits' accumulators.
  auto exchangeFits = [&](int64_t splits) {
    return !onChip ||
           SplitKAttr::exchangeBytes(splits, weights *
                                                 Tcgen05MainloopAttr::kTileN *
                                                 tileM) +
                   1024 + 16 * 2 <=
               t.info.maxSharedBytes;
  };
  int64_t splitK = 1;
  while (splitK < 8 && 2 * splitK * ctas(tileM) <= t.smCount &&
         slices % (2 * splitK) == 0 && exchangeFits(2 * splitK))
    splitK *= 2;
  SplitKAttr reduction;
  if (splitK > 1)
    reduction = SplitKAttr::get(
        ctx, splitK, onChip ? SplitKMode::Cluster : SplitKMode::Global);
  return withCtaPairs(ctx, t,
                      tcgen05PlanWithStages(ctx, t, tileM, weights, format,
                                            reduction, slices / splitK),
                      {n}, slices / splitK);
}

/// The sm_100a grouped GEMM plan: tiles of 32, 64, 128 or 256 rows of A
/// (each group's rows from its own first row; a tile's MMAs are as wide as
/// the tile, its rows past the group multiplied and not stored), the one
/// whose grid groupedMakespan says ends first for the size hint (tiles of
/// B: 128 rows), the largest on a tie (fewer reads of B's tiles); no
/// split-K (a group's tiles are known on the device only); as many slots
/// as fit. The per-chunk costs are grouped v4's (kGroupedV4ChunkCosts):
/// no B200 has timed them.
KernelPlanAttr chooseTcgen05GroupedPlan(MLIRContext *ctx, const PlanTarget &t,
                                        const GemmOperands &g,
                                        ScaleFormat format) {
  GroupSizes groups(g);
  const int64_t slices = Tcgen05MainloopAttr::getSlices(g.getAShape().k);
  const int64_t nTiles =
      llvm::divideCeil(g.getN(), Tcgen05MainloopAttr::kTileN);
  int64_t tileM = 32;
  double best = std::numeric_limits<double>::infinity();
  for (int64_t candidate : {32, 64, 128, 256}) {
    // (A grid past CUDA's y limit is no candidate.)
    if (GroupTileOp::maxTiles(g.getAShape().rows, g.getWeightBatch(),
                              candidate) > kMaxGridY)
      continue;
    const double time =
        groupedMakespan(groups.sizes, candidate, nTiles, slices, t.smCount,
                        /*narrow=*/false, kGroupedV4ChunkCosts);
    if (time <= best)
      best = time, tileM = candidate;
  }
  return withCtaPairs(ctx, t,
                      tcgen05PlanWithStages(ctx, t, tileM, g.getWeights(),
                                            format, SplitKAttr(), slices),
                      {g.getN()}, slices);
}

/// The shape limits every GEMM plan shares: K in steps of `kStep` (`why`
/// names the target's reason) and M, N and K indexed in 32 bits.
LogicalResult checkGemmShape(Operation *op, const OperandShape &a,
                             int64_t n, int64_t kStep, StringRef why) {
  if (a.k % kStep != 0)
    return op->emitOpError()
           << "cannot be planned as a GEMM: " << why << ", so K % " << kStep
           << " == 0 is needed, but K = " << a.k;
  if (a.k > kMaxGridX || a.rows > kMaxGridX || n > kMaxGridX)
    return op->emitOpError()
           << "cannot be planned as a GEMM: the kernels index rows and K in "
              "32 bits, so M, N and K must be below 2^31, but M = "
           << a.rows << ", N = " << n << " and K = " << a.k;
  return success();
}

/// A plan of one accumulator per weight of `g`.
LogicalResult checkPlanWeights(const GemmOperands &g, KernelPlanAttr plan) {
  if (plan.getMainloop().getWeights() == g.getWeights())
    return success();
  return g.op->emitOpError()
         << "is a " << g.getKind() << " of " << g.getWeights()
         << " weight(s) and expects a plan of as many accumulators, but "
         << plan << " has " << plan.getMainloop().getWeights();
}

/// An FP4 C is quantized from the finished sums by the ring's epilogue:
/// not by the CTA that decodes A itself (stages = 0), not after a global
/// split-K's sum kernel. MXFP4 operands need a ring too.
LogicalResult checkQuantizedOutputPlan(const GemmOperands &g,
                                       KernelPlanAttr plan) {
  if (g.getFormat().isMX() && plan.getStages() == 0)
    return g.op->emitOpError()
           << "has MXFP4 operands, which only the ring's ops decode, and "
              "expects a plan with a ring (stages > 0), but got "
           << plan;
  if (!g.isQuantizedOutput())
    return success();
  if (plan.getStages() == 0 || plan.needsSumKernel())
    return g.op->emitOpError()
           << "has an " << BlockFormat::of(g.cScales.getType()).getName()
           << " C, quantized in the epilogue from the finished "
              "sums, and expects a plan with a ring (stages > 0) whose "
              "splits add on chip, but got "
           << plan;
  return success();
}

/// The plan given in the IR if it is a #nvfp4.kernel whose mainloop is a
/// `MainloopT`, else null; another plan is an error.
template <typename MainloopT>
FailureOr<KernelPlanAttr> givenPlan(Operation *op, const PlanTarget &t,
                                    int64_t n, StringRef kindName) {
  Attribute given = op->getAttr(NVFP4Dialect::kPlanAttrName);
  auto plan = dyn_cast_or_null<KernelPlanAttr>(given);
  if (given && (!plan || !isa<MainloopT>(plan.getMainloop())))
    return op->emitOpError()
           << "is a GEMM (N = " << n << ") for " << t.info.chip
           << " and expects '" << NVFP4Dialect::kPlanAttrName
           << "' to be a #nvfp4.kernel with a " << kindName << ", but got "
           << given;
  return plan;
}

/// The launch limits every GEMM plan shares: the grid's y (tiles of A's
/// rows) and z (batches x split_k), and split_k dividing the K steps
/// (`steps` `stepNoun` of `stepK` values).
LogicalResult checkGemmGrid(Operation *op, const OperandShape &a,
                            int64_t tileM, int64_t splitK, int64_t steps,
                            StringRef stepNoun, int64_t stepK) {
  int64_t gridY = llvm::divideCeil(a.rows, tileM);
  int64_t gridZ = a.batch * splitK;
  if (gridY > kMaxGridY || gridZ > kMaxGridY)
    return op->emitOpError()
           << "cannot be launched as one GEMM: its grid needs " << gridY
           << " tiles of A's rows in y and " << gridZ
           << " (batches x split_k) in z, and CUDA limits both to "
           << kMaxGridY;
  if (steps % splitK != 0)
    return op->emitOpError()
           << "has a plan with split_k = " << splitK
           << ", which must divide the " << steps << " K " << stepNoun << " of "
           << stepK << " values (K = " << a.k << ")";
  return success();
}

/// What a grouped GEMM's plan needs beyond a GEMM's: a ring (sm_90a's
/// pre-pass gathers the groups' rows), no split-K, and a grid of as many
/// tiles as the groups can need.
LogicalResult checkGroupedPlan(const GemmOperands &g,
                                      KernelPlanAttr plan) {
  Operation *op = g.op;
  if (plan.getStages() == 0 || plan.getSplitK() > 1)
    return op->emitOpError()
           << "is a grouped GEMM and expects a plan with a ring (stages > "
              "0: its pre-pass gathers each group's rows into tiles of "
              "their own) and without split-K, but got "
           << plan;
  const int64_t rows = g.getAShape().rows;
  const int64_t tiles =
      GroupTileOp::maxTiles(rows, g.getWeightBatch(), plan.getTileM());
  if (tiles > kMaxGridY)
    return op->emitOpError()
           << "cannot be launched as one grouped GEMM: its "
           << g.getWeightBatch() << " groups of at most " << rows
           << " rows in all can need " << tiles << " tiles of "
           << plan.getTileM() << " rows, and CUDA limits the grid's y to "
           << kMaxGridY;
  return success();
}

/// Plans a GEMM for sm_100a (tcgen05); reports on `op` and fails when it
/// cannot. Any scale layout: the tile pass blocks plain scales (and pads
/// K to whole slots) with a pre-pass.
LogicalResult planGemmTcgen05(const GemmOperands &g, const PlanTarget &t) {
  Operation *op = g.op;
  OperandShape a = g.getAShape();
  int64_t n = g.getN();
  if (failed(checkGemmShape(op, a, n, Tcgen05MainloopAttr::kMmaK,
                            "the tcgen05 MMA's K is 64 fp4 values")))
    return failure();
  // Plain scales are blocked by a pre-pass that moves whole 4-scale
  // words: MXFP4's K / 32 columns must fill them.
  if (g.getFormat().isMX() &&
      (g.sfaLayout == ScaleLayout::Plain ||
       g.sfbLayout == ScaleLayout::Plain) &&
      a.k % g.getFormat().getAtomK() != 0)
    return op->emitOpError()
           << "has plain MXFP4 scales, which the sm_100a kernel's pre-pass "
              "blocks in words of 4 scales, and expects K to be a multiple "
              "of "
           << g.getFormat().getAtomK() << ", but K = " << a.k
           << (g.isGrouped() ? " (a grouped GEMM's A scales are plain)"
                             : "; use blocked scales");
  FailureOr<KernelPlanAttr> plan =
      givenPlan<Tcgen05MainloopAttr>(op, t, n, "#nvfp4.tcgen05_mainloop");
  if (failed(plan))
    return failure();
  const ScaleFormat format = getScaleFormat(g.getFormat());
  if (!*plan)
    plan = g.isGrouped()
               ? chooseTcgen05GroupedPlan(op->getContext(), t, g, format)
               : chooseTcgen05Plan(op->getContext(), t, a.rows, n, a.k,
                                   a.batch, g.getWeights(),
                                   g.isQuantizedOutput(), format);
  if (plan->getTcgen05().getFormat() != format)
    return op->emitOpError()
           << "has " << g.getFormat().getName()
           << " operands and expects a #nvfp4.tcgen05_mainloop of format = "
           << stringifyScaleFormat(format) << " (its MMAs' scale vector and "
           << "slot layout), but got " << *plan;
  if (failed(checkPlanWeights(g, *plan)) ||
      failed(checkQuantizedOutputPlan(g, *plan)))
    return failure();
  if (g.isGrouped()
          ? failed(checkGroupedPlan(g, *plan))
          : failed(checkGemmGrid(op, a, plan->getTileM(), plan->getSplitK(),
                                 Tcgen05MainloopAttr::getSlices(a.k), "slices",
                                 Tcgen05MainloopAttr::kStageK)))
    return failure();
  if (plan->getSharedBytes() > t.info.maxSharedBytes)
    return op->emitOpError()
           << "has a plan that needs " << plan->getSharedBytes()
           << " bytes of shared memory (" << plan->getStages() << " slots of "
           << plan->getTcgen05().getSlotBytes() << "), more than the "
           << t.info.maxSharedBytes << " a CTA can have; use fewer stages";
  op->setAttr(NVFP4Dialect::kPlanAttrName, *plan);
  return success();
}

} // namespace

/// The pre-pass's workspace of A's decoded tiles (`groups` > 0: a grouped
/// GEMM's, as many tiles as its groups can need) is addressed by row with
/// TMA's signed 32-bit coordinates: a plan whose workspace passes them is
/// refused at the user's op, naming `problem` (a grouped_problems' problem,
/// or empty). A GEMM of one weight with e4m3 scales and a plain C has a
/// plan without a workspace (stages = 0), which the message names.
static LogicalResult checkATilesRows(const GemmOperands &g, KernelPlanAttr plan,
                                     int64_t groups, StringRef problem) {
  const OperandShape a = g.getAShape();
  const int64_t tileM = plan.getTileM();
  int64_t tiles = 0, rows = 0;
  const bool overflow =
      llvm::MulOverflow(a.batch, getATileCount(a.rows, groups, tileM), tiles) ||
      llvm::MulOverflow(tiles, a.k / WgmmaMainloopAttr::kTileK, tiles) ||
      llvm::MulOverflow(tiles, tileM, rows);
  if (!overflow && rows <= std::numeric_limits<int32_t>::max())
    return success();
  const bool stagesZeroFits = g.getWeights() == 1 && !g.isGrouped() &&
                              !g.getFormat().isMX() && !g.isQuantizedOutput();
  return g.op->emitOpError()
         << "has a plan whose pre-pass decodes " << problem << "A into "
         << (overflow ? std::string("more than 2^63") : std::to_string(rows))
         << " rows of tiles, past TMA's signed 32-bit row coordinates"
         << (stagesZeroFits ? "; give it a plan with stages = 0 (A decoded "
                              "in each CTA)"
                            : "");
}

/// Plans a block-scaled GEMM (N > 1); reports on `op` and fails when it
/// cannot.
LogicalResult mlir::nvfp4::planGemm(const GemmOperands &g,
                                    const PlanTarget &t) {
  Operation *op = g.op;
  // sm_100a: tcgen05; sm_90a: wgmma.
  if (t.info.hasTcgen05)
    return planGemmTcgen05(g, t);
  if (!t.info.hasWgmma)
    return op->emitOpError()
           << "has no " << t.info.chip << " kernel: the " << g.getKind()
           << " is lowered with wgmma (sm_90a) or tcgen05 (sm_100a)";
  OperandShape a = g.getAShape();
  int64_t n = g.getN();
  if (failed(checkGemmShape(op, a, n, WgmmaMainloopAttr::kTileK,
                            "the GEMM kernels step K by 64 (4 MMAs of K = "
                            "16)")))
    return failure();
  FailureOr<KernelPlanAttr> plan =
      givenPlan<WgmmaMainloopAttr>(op, t, n, "#nvfp4.wgmma_mainloop");
  if (failed(plan))
    return failure();
  if (!*plan)
    plan = g.isGrouped() ? chooseGroupedPlan(op->getContext(), t, g)
           : g.getWeights() == 1
               ? chooseGemmPlan(op->getContext(), t, a.rows, n, a.k, a.batch,
                                g.bTmaScalesFit(),
                                g.isQuantizedOutput() || g.getFormat().isMX())
               : chooseDualPlan(op->getContext(), t, a.rows, n, a.k, a.batch,
                                g.bTmaScalesFit(),
                                g.bTmaScalesFit() &&
                                    g.sfbLayout == ScaleLayout::Plain);
  if (failed(checkPlanWeights(g, *plan)) ||
      failed(checkQuantizedOutputPlan(g, *plan)))
    return failure();
  if (g.isGrouped()
          ? failed(checkGroupedPlan(g, *plan))
          : failed(checkGemmGrid(op, a, plan->getTileM(), plan->getSplitK(),
                                 a.k / WgmmaMainloopAttr::kTileK, "chunks",
                                 WgmmaMainloopAttr::kTileK)))
    return failure();
  if (plan->getStages() > 0 &&
      failed(checkATilesRows(g, *plan, g.isGrouped() ? g.getWeightBatch() : 0,
                             "")))
    return failure();
  // b_tma copies plain scales with a tensor map, whose row stride (K / 16
  // bytes, MXFP4's K / 32) TMA needs in multiples of 16.
  if (plan->getWgmma().getBTma() && !g.bTmaScalesFit())
    return op->emitOpError()
           << "has a plan with b_tma, which copies B's plain scales with a "
              "tensor map and needs K to be a multiple of "
           << 16 * g.getFormat().blockSize
           << " (a row of scales a multiple of 16 bytes), but K = " << a.k
           << "; use blocked scales or b_tma = false";
  // Each weight's warpgroup reads its codes as rows of the slot.
  if (plan->getWgmma().getSplitWeights() &&
      g.sfbLayout == ScaleLayout::Blocked)
    return op->emitOpError()
           << "has a plan with split_weights, whose warpgroups read B's scale "
              "codes as rows of 16 bytes, but B's scales are blocked; use "
              "plain scales or split_weights = false";
  if (plan->getStages() == 0 &&
      plan->getSharedBytes() > t.info.staticSharedBytes)
    return op->emitOpError()
           << "has a plan that needs " << plan->getSharedBytes()
           << " bytes of shared memory, more than the "
           << t.info.staticSharedBytes << " a CTA can have statically";
  op->setAttr(NVFP4Dialect::kPlanAttrName, *plan);
  return success();
}

/// The sm_100a plan of a grouped_problems: tiles of 32, 64, 128 or 256 rows
/// of A (each problem's last tile a whole tile's MMAs), whichever grid
/// tilesMakespan says ends first (each problem with its own tiles of B and
/// K slices), the larger on a tie; no split-K; as many slots as fit and
/// the shortest K has slices; CTA pairs where every problem's tiles of B
/// pair up (withCtaPairs).
KernelPlanAttr chooseTcgen05ProblemsPlan(MLIRContext *ctx,
                                         const PlanTarget &t,
                                         ArrayRef<GemmOperands> problems,
                                         ScaleFormat format) {
  SmallVector<TileWork> work;
  int64_t slices = std::numeric_limits<int64_t>::max();
  for (const GemmOperands &p : problems) {
    const int64_t k = p.getAShape().k;
    work.push_back(
        {p.getAShape().rows,
         static_cast<int64_t>(
             llvm::divideCeil(p.getN(), Tcgen05MainloopAttr::kTileN)),
         Tcgen05MainloopAttr::getSlices(k)});
    slices = std::min(slices, Tcgen05MainloopAttr::getSlices(k));
  }
  int64_t tileM = 32;
  double best = std::numeric_limits<double>::infinity();
  for (int64_t candidate : {32, 64, 128, 256}) {
    if (tilesOfA(work, candidate) > kMaxGridY)
      continue;
    const double time = tilesMakespan(work, candidate, t.smCount,
                                      /*narrow=*/false, kGroupedV4ChunkCosts);
    if (time <= best)
      best = time, tileM = candidate;
  }
  SmallVector<int64_t> ns;
  for (const GemmOperands &p : problems)
    ns.push_back(p.getN());
  return withCtaPairs(ctx, t,
                      tcgen05PlanWithStages(ctx, t, tileM, /*weights=*/1,
                                            format, SplitKAttr(), slices),
                      ns, slices);
}

/// Plans a grouped_problems: one plan for every problem (their CTAs share
/// one kernel), kept and checked if written in the IR; reports on `op`.
LogicalResult mlir::nvfp4::planProblems(GroupedProblemsOp op,
                                        const PlanTarget &t) {
  if (!t.info.hasWgmma && !t.info.hasTcgen05)
    return op.emitOpError()
           << "has no " << t.info.chip
           << " kernel: the grouped GEMM of independent problems is lowered "
              "with wgmma (sm_90a) or tcgen05 (sm_100a)";
  const bool tcgen05 = t.info.hasTcgen05;
  // Each problem is a case of the kernel's switch: its code is one GEMM
  // tile per problem. Their parameters by value (five pointers and at most
  // three 128-byte tensor maps each) then stay within CUDA's 32764 bytes.
  constexpr int64_t kMaxProblems = 64;
  static_assert((5 * 8 + 3 * 128) * kMaxProblems <= 32764,
                "a kernel's parameters exceed CUDA's space");
  if (op.getProblems() > kMaxProblems)
    return op.emitOpError()
           << "has " << op.getProblems() << " problems, and its kernel holds "
           << "at most " << kMaxProblems
           << " (a GEMM tile's code each); split them over several ops, or "
              "use nvfp4.grouped_matmul where they share N and K";
  SmallVector<GemmOperands> problems = getProblemOperands(op);
  const BlockFormat format = problems.front().getFormat();
  for (auto [i, p] : llvm::enumerate(problems)) {
    OperandShape a = p.getAShape();
    const std::string why =
        (tcgen05 ? "the tcgen05 MMA's K is 64 fp4 values"
                 : "the GEMM kernels step K by 64 (4 MMAs of K = 16)") +
        std::string(", problem ") + std::to_string(i) + "'s too";
    if (failed(checkGemmShape(op, a, p.getN(),
                              tcgen05 ? Tcgen05MainloopAttr::kMmaK
                                      : WgmmaMainloopAttr::kTileK,
                              why)))
      return failure();
    // Plain scales are blocked by a pre-pass that moves whole 4-scale
    // words: MXFP4's K / 32 columns must fill them.
    if (tcgen05 && format.isMX() &&
        (p.sfaLayout == ScaleLayout::Plain ||
         p.sfbLayout == ScaleLayout::Plain) &&
        a.k % format.getAtomK() != 0)
      return op.emitOpError()
             << "has plain MXFP4 scales, which the sm_100a kernel's pre-pass "
                "blocks in words of 4 scales, and expects every K to be a "
                "multiple of "
             << format.getAtomK() << ", but problem " << i << " has K = "
             << a.k << "; use blocked scales";
  }
  Attribute given = op->getAttr(NVFP4Dialect::kPlanAttrName);
  FailureOr<KernelPlanAttr> plan = dyn_cast_or_null<KernelPlanAttr>(given);
  if (given && (!*plan || static_cast<bool>((*plan).getTcgen05()) != tcgen05))
    return op.emitOpError()
           << "is planned for " << t.info.chip
           << " and expects 'nvfp4.plan' to be a #nvfp4.kernel with a "
           << (tcgen05 ? "#nvfp4.tcgen05_mainloop" : "#nvfp4.wgmma_mainloop")
           << ", but got " << given;
  if (!*plan)
    plan = tcgen05 ? chooseTcgen05ProblemsPlan(op->getContext(), t, problems,
                                               getScaleFormat(format))
                   : chooseProblemsPlan(op->getContext(), t, problems);
  if (plan->getSplitK() > 1)
    return op.emitOpError()
           << "expects a plan without split-K (its problems' tiles share "
              "one grid), but got "
           << *plan;
  if (tcgen05 && plan->getTcgen05().getFormat() != getScaleFormat(format))
    return op.emitOpError()
           << "has " << format.getName()
           << " operands and expects a #nvfp4.tcgen05_mainloop of format = "
           << stringifyScaleFormat(getScaleFormat(format))
           << " (its MMAs' scale vector and slot layout), but got " << *plan;
  int64_t tileRows = 0;
  for (auto [i, p] : llvm::enumerate(problems)) {
    if (failed(checkPlanWeights(p, *plan)) ||
        failed(checkQuantizedOutputPlan(p, *plan)))
      return failure();
    if (!tcgen05 && plan->getWgmma().getBTma() && !p.bTmaScalesFit())
      return op.emitOpError()
             << "has a plan with b_tma, which copies B's plain scales with "
                "a tensor map and needs K to be a multiple of "
             << 16 * p.getFormat().blockSize
             << ", but problem " << i << " has K = " << p.getAShape().k
             << "; use blocked scales or b_tma = false";
    if (!tcgen05 && plan->getStages() > 0 &&
        failed(checkATilesRows(p, *plan, 0,
                               "problem " + std::to_string(i) + "'s ")))
      return failure();
    tileRows += llvm::divideCeil(p.getAShape().rows, plan->getTileM());
  }
  if (tileRows > kMaxGridY)
    return op.emitOpError()
           << "cannot be launched as one kernel: its problems have "
           << tileRows << " tiles of " << plan->getTileM()
           << " rows of A in all, the grid's y, which CUDA limits to "
           << kMaxGridY;
  const int64_t sharedLimit = plan->getStages() == 0
                                  ? t.info.staticSharedBytes
                                  : t.info.maxSharedBytes;
  if (plan->getSharedBytes() > sharedLimit)
    return op.emitOpError()
           << "has a plan that needs " << plan->getSharedBytes()
           << " bytes of shared memory, more than the " << sharedLimit
           << " a CTA can have" << (plan->getStages() ? "" : " statically");
  op->setAttr(NVFP4Dialect::kPlanAttrName, *plan);
  return success();
}
