//===- KernelPlanTest.cpp - a kernel plan's resources are its parts' ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// #nvfp4.kernel composes its resources from its parts (each part's scratch
// in the mainloop's ring). These tests pin that composition to the flat
// plans' formulas it replaced (d56c47f's GemmPlanAttr and Tcgen05PlanAttr)
// over every plan the verifiers accept, check that parts refuse each other
// by name, and that the shared-memory plan places the post-loop areas side
// by side.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Dialect/NVFP4/TmemOccupancy.h"
#include "nvfp4/Dialect/NVFP4/SmemPlan.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

class KernelPlanTest : public ::testing::Test {
protected:
  KernelPlanTest()
      : handler(&ctx, [this](Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return success();
        }) {
    ctx.loadDialect<NVFP4Dialect>();
  }

  /// Reports into `diagnostics` instead of stderr.
  InFlightDiagnostic report() { return emitError(UnknownLoc::get(&ctx)); }

  /// The plan of these parts, or null (its diagnostics in `diagnostics`).
  KernelPlanAttr wgmma(int64_t warpgroups, int64_t tileM, int64_t stages,
                       int64_t kGroups, int64_t bPrefetch, bool producer,
                       bool bTma, int64_t splits, SplitKMode mode,
                       int64_t weights = 1, int64_t slotChunks = 1,
                       bool splitWeights = false) {
    auto emit = [this] { return report(); };
    auto mainloop = WgmmaMainloopAttr::getChecked(
        emit, &ctx, warpgroups, tileM, stages, kGroups, bPrefetch, producer,
        bTma, weights, slotChunks, splitWeights);
    if (!mainloop)
      return {};
    SplitKAttr reduction;
    if (splits > 1) {
      reduction = SplitKAttr::getChecked(emit, &ctx, splits, mode);
      if (!reduction)
        return {};
    }
    return KernelPlanAttr::getChecked(
        emit, &ctx, cast<MainloopAttrInterface>(mainloop), reduction);
  }

  MLIRContext ctx;
  ScopedDiagnosticHandler handler;
  std::string diagnostics;
};

/// d56c47f's GemmPlanAttr::getSharedBytes for a plan of those fields, but
/// for a scatter split's exchange, which holds only the other splits' parts
/// of this split's part of the tile (d56c47f reserved whole tiles; dual v1
/// needed the room for four splits).
int64_t flatWgmmaSharedBytes(int64_t warpgroups, int64_t tileM, int64_t stages,
                             int64_t kSplit, int64_t splitK, bool splitCluster,
                             bool bTma, bool scatter) {
  if (stages == 0)
    return 2 * tileM * 64 * 2;
  const int64_t slot = tileM * 128 + (bTma ? 64 * warpgroups * 48 : 0);
  const int64_t floats = warpgroups * 128 * (tileM / 2);
  const int64_t exchanged = scatter ? floats / splitK : floats;
  const int64_t scratch = (kSplit - 1) * floats * 4 +
                          (splitCluster ? (splitK - 1) * exchanged * 4 : 0);
  return std::max(stages * slot, scratch) + 1024 + 16 * stages;
}

TEST_F(KernelPlanTest, WgmmaResourcesAreTheFlatPlans) {
  int64_t accepted = 0;
  for (int64_t wg : {1, 2})
    for (int64_t tileM = 8; tileM <= 192; tileM += 8)
      for (int64_t stages : {0, 2, 3, 4, 6, 8, 9, 12, 16})
        for (int64_t kGroups : {1, 2, 3, 4})
          for (bool producer : {false, true})
            for (bool bTma : {false, true})
              for (int64_t splits : {1, 2, 4, 8})
                for (SplitKMode mode : {SplitKMode::Global, SplitKMode::Cluster,
                                        SplitKMode::Scatter}) {
                  if (splits == 1 && mode != SplitKMode::Global)
                    continue;
                  KernelPlanAttr plan = wgmma(wg, tileM, stages, kGroups, 2,
                                              producer, bTma, splits, mode);
                  if (!plan)
                    continue;
                  ++accepted;
                  const bool onChip = mode != SplitKMode::Global && splits > 1;
                  ASSERT_EQ(plan.getSharedBytes(),
                            flatWgmmaSharedBytes(wg, tileM, stages, kGroups,
                                                 splits, onChip, bTma,
                                                 mode == SplitKMode::Scatter))
                      << llvm::formatv("{0}", Attribute(plan)).str();
                  EXPECT_EQ(plan.getSplitK(), splits);
                  EXPECT_EQ(plan.getSplitCluster(), onChip);
                  EXPECT_EQ(plan.needsSumKernel(), splits > 1 && !onChip);
                  EXPECT_EQ(plan.getClusterShape()[2], onChip ? splits : 1);
                  EXPECT_EQ(plan.getPartialsBytes(2, 100, 300),
                            splits > 1 && !onChip ? splits * 2 * 100 * 300 * 4
                                                  : 0);
                  EXPECT_EQ(plan.getThreadsPerCta(),
                            128 * wg * kGroups + (producer ? 128 : 0));
                }
  // The grid above holds thousands of valid plans; a verifier that
  // rejected nearly everything would make the comparison vacuous.
  EXPECT_GT(accepted, 2000);
}

TEST_F(KernelPlanTest, Tcgen05ResourcesAreTheFlatPlans) {
  auto emit = [this] { return report(); };
  int64_t accepted = 0, padded = 0;
  for (int64_t tileM : {32, 64, 128, 256})
    for (int64_t stages = 2; stages <= 16; ++stages)
      for (int64_t splits : {1, 2, 3, 8})
        for (bool cluster : {false, true}) {
          if (splits == 1 && cluster)
            continue;
          auto mainloop = Tcgen05MainloopAttr::getChecked(
              emit, &ctx, tileM, stages, int64_t{1}, ScaleFormat::NVFP4,
              int64_t{1});
          if (!mainloop)
            continue;
          SplitKAttr reduction;
          if (splits > 1)
            reduction = SplitKAttr::get(&ctx, splits,
                                        cluster ? SplitKMode::Cluster
                                                : SplitKMode::Global);
          auto plan = KernelPlanAttr::getChecked(
              emit, &ctx, cast<MainloopAttrInterface>(mainloop), reduction);
          if (!plan)
            continue;
          ++accepted;
          // d56c47f's Tcgen05PlanAttr::getSharedBytes, padded (since
          // issue 30) so that no more CTAs share an SM than its 512 TMEM
          // columns hold.
          const int64_t exchange = cluster ? (splits - 1) * 128 * tileM * 4 : 0;
          const int64_t ring =
              std::max(stages * mainloop.getSlotBytes(), exchange) + 1024 +
              16 * stages;
          const int64_t columns = mainloop.getTmemColumns();
          EXPECT_EQ(plan.getSharedBytes(),
                    std::max(ring, tmem::minSharedBytesFor(columns)));
          EXPECT_LE(tmem::ctasPerSmByShared(plan.getSharedBytes()) * columns,
                    512);
          padded += plan.getSharedBytes() > ring;
          EXPECT_EQ(plan.getThreadsPerCta(), 128);
        }
  EXPECT_GT(accepted, 100);
  // Some plans' rings alone would let too many CTAs share an SM.
  EXPECT_GT(padded, 0);
}

TEST_F(KernelPlanTest, PartsRefuseEachOtherByName) {
  // Split-K reads the pre-pass's tiles; a mainloop that decodes A in each
  // CTA has none.
  EXPECT_FALSE(wgmma(1, 64, 0, 1, 2, false, false, 2, SplitKMode::Global));
  EXPECT_NE(diagnostics.find("#nvfp4.split_k<splits = 2> needs the "
                             "pre-pass's decoded tiles of A, but "
                             "#nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = "
                             "64> decodes A in each CTA"),
            std::string::npos)
      << diagnostics;
  diagnostics.clear();
  // Scatter gives each split tile_m / splits rows in whole groups of 8.
  EXPECT_FALSE(wgmma(1, 48, 4, 1, 2, false, false, 4, SplitKMode::Scatter));
  EXPECT_NE(diagnostics.find("has tile_m = 48"), std::string::npos)
      << diagnostics;
  EXPECT_TRUE(wgmma(1, 64, 4, 1, 2, false, false, 4, SplitKMode::Scatter));
}

TEST_F(KernelPlanTest, SmemPlanPlacesTheAreasSideBySide) {
  // Three K groups and a split cluster of two: the groups' sums at the
  // bottom, the other split's tile at the top, a staged C between them.
  KernelPlanAttr plan =
      wgmma(1, 128, 9, 3, 2, true, false, 2, SplitKMode::Cluster);
  ASSERT_TRUE(plan) << diagnostics;
  WgmmaMainloopAttr mainloop = plan.getWgmma();
  auto ring = RingType::get(&ctx, 9, mainloop.getSlotBytes(), 1,
                            plan.getScratchBytes(), /*ctaGroup=*/1);
  WgmmaSmemPlan smem(plan, ring);
  const int64_t floats = 64 * 128;
  EXPECT_EQ(smem.getKGroupSumsBytes(), 2 * floats * 4);
  WgmmaSmemPlan::Exchange exchange = smem.getExchange(floats);
  EXPECT_EQ(exchange.aTileBytes, 0);
  EXPECT_EQ(exchange.start, ring.getDataBytes() - floats * 4);
  EXPECT_GE(exchange.start, smem.getKGroupSumsBytes());
  // A staged tile fits between them, or not at all.
  const int64_t room = exchange.start - smem.getKGroupSumsBytes();
  EXPECT_EQ(smem.getStagingOffset(room, floats), smem.getKGroupSumsBytes());
  EXPECT_EQ(smem.getStagingOffset(room + 16, floats), std::nullopt);
  // The slot's regions, and the barriers the parts use.
  EXPECT_EQ(smem.getBBytesOffset(), 128 * 128);
  EXPECT_EQ(WgmmaSmemPlan::kKGroupsBarrier, 1);
  EXPECT_EQ(WgmmaSmemPlan::getStagedStoreBarrier(1), 3);
}

// One warpgroup a weight (split_weights): the slot has a one-weight CTA's
// layout of two warpgroups' rows (the weights' chunks back to back, then
// their scale codes), the CTA two consumer warpgroups that swap halves of
// their tiles in the K groups' area and both store, and the plans it
// cannot serve are refused by name.
TEST_F(KernelPlanTest, SplitWeightsReadsTheSlotAsTwoWarpgroupsOfOneWeight) {
  KernelPlanAttr split = wgmma(1, 128, 8, 1, 2, true, true, 1,
                               SplitKMode::Global, 2, 1, /*splitWeights=*/true);
  KernelPlanAttr gemm = wgmma(2, 128, 8, 1, 2, true, true, 1,
                              SplitKMode::Global, 1);
  ASSERT_TRUE(split && gemm) << diagnostics;
  WgmmaMainloopAttr s = split.getWgmma(), g = gemm.getWgmma();
  EXPECT_EQ(s.getSlotBytes(), g.getSlotBytes());
  EXPECT_EQ(s.getTileN(), 64);
  EXPECT_EQ(s.getBSlotOffset(0), g.getBSlotOffset(0));
  EXPECT_EQ(s.getBSlotOffset(1), g.getBSlotOffset(0) + 64 * 32);
  EXPECT_EQ(s.getSfbSlotOffset(0), g.getSfbSlotOffset(0));
  EXPECT_EQ(s.getSfbSlotOffset(1), g.getSfbSlotOffset(0) + 64 * 16);
  EXPECT_EQ(s.getConsumerThreads(), 256);
  EXPECT_EQ(s.getThreadsPerCta(), 384);
  EXPECT_EQ(s.getMmaWeights(), 1);
  EXPECT_EQ(s.getStoreWarpgroups(), 2);
  EXPECT_EQ(s.getConsumerRegisters(), g.getConsumerRegisters());
  // The swapped halves: 2 warpgroups x 128 threads x 32 floats.
  EXPECT_EQ(s.getKGroupSumsBytes(), 2 * 128 * 32 * 4);
  EXPECT_FALSE(wgmma(2, 128, 8, 1, 2, true, true, 1, SplitKMode::Global, 2, 1,
                     true));
  EXPECT_NE(diagnostics.find("expects split_weights with weights = 2, "
                             "warpgroups = 1"),
            std::string::npos)
      << diagnostics;
  diagnostics.clear();
  EXPECT_FALSE(
      wgmma(1, 120, 6, 1, 2, true, true, 1, SplitKMode::Global, 2, 1, true));
  EXPECT_NE(diagnostics.find("expects tile_m to be a multiple of 16 with "
                             "split_weights"),
            std::string::npos)
      << diagnostics;
  diagnostics.clear();
  EXPECT_FALSE(wgmma(1, 128, 8, 1, 2, true, true, 2, SplitKMode::Scatter, 2, 1,
                     true));
  EXPECT_NE(diagnostics.find("which has no split-K"), std::string::npos)
      << diagnostics;
}

// A second weight (the gated dual GEMM) doubles what is kept per weight: a
// b_tma slot's chunk and scale codes (placed one weight after the other
// behind A's tile), the K groups' sums and a split exchange; A's tile and
// the bytes the copies of a chunk bring with blocked scales follow.
TEST_F(KernelPlanTest, SecondWeightDoublesWhatIsKeptPerWeight) {
  for (int64_t warpgroups : {1, 2}) {
    for (int64_t tileM : {8, 64, 128}) {
      KernelPlanAttr one = wgmma(warpgroups, tileM, 8, 1, 2, true, true, 2,
                                 SplitKMode::Cluster, 1);
      KernelPlanAttr two = wgmma(warpgroups, tileM, 8, 1, 2, true, true, 2,
                                 SplitKMode::Cluster, 2);
      ASSERT_TRUE(one && two) << diagnostics;
      WgmmaMainloopAttr m1 = one.getWgmma(), m2 = two.getWgmma();
      const int64_t perWeight = m1.getSlotBytes() - m1.getATileBytes();
      EXPECT_EQ(m2.getSlotBytes(), m1.getSlotBytes() + perWeight);
      EXPECT_EQ(m2.getBSlotOffset(0), m1.getATileBytes());
      EXPECT_EQ(m2.getBSlotOffset(1), m1.getATileBytes() + perWeight);
      EXPECT_EQ(m2.getSfbSlotOffset(1), m2.getBSlotOffset(1) +
                                            m2.getBSlotBytes());
      EXPECT_EQ(m2.getSfbSlotOffset(1) + m2.getSfbSlotBytes(),
                m2.getSlotBytes());
      EXPECT_EQ(m2.getSlotCopyBytes(false), m2.getSlotBytes());
      EXPECT_EQ(m2.getSlotBytes() - m2.getSlotCopyBytes(true),
                2 * (m1.getSlotBytes() - m1.getSlotCopyBytes(true)));
      // The split exchange: the other split's two tiles.
      EXPECT_EQ(two.getScratchBytes(), 2 * one.getScratchBytes());
    }
  }
  // Two K groups' sums.
  KernelPlanAttr one =
      wgmma(1, 32, 8, 2, 2, true, true, 1, SplitKMode::Global, 1);
  KernelPlanAttr two =
      wgmma(1, 32, 8, 2, 2, true, true, 1, SplitKMode::Global, 2);
  ASSERT_TRUE(one && two) << diagnostics;
  EXPECT_EQ(two.getWgmma().getKGroupSumsBytes(),
            2 * one.getWgmma().getKGroupSumsBytes());
  // The CTA that decodes A itself multiplies one weight.
  EXPECT_FALSE(wgmma(1, 64, 0, 1, 2, false, false, 1, SplitKMode::Global, 2));
  EXPECT_NE(diagnostics.find("expects weights = 2 with a ring"),
            std::string::npos)
      << diagnostics;
}

// Two K chunks a slot: a slot of two one-chunk regions, the copies of the
// slot's chunks (plain scales: each weight's window once, it holds both
// chunks' codes), the registers of the second chunk's fragments; only with
// b_tma and one K group.
TEST_F(KernelPlanTest, TwoChunksASlot) {
  // (Two weights' second fragments need a smaller tile of A.)
  for (auto [weights, tileM] : {std::pair<int64_t, int64_t>{1, 128},
                                std::pair<int64_t, int64_t>{2, 64}}) {
    KernelPlanAttr one =
        wgmma(2, tileM, 8, 1, 2, true, true, 1, SplitKMode::Global, weights, 1);
    KernelPlanAttr two =
        wgmma(2, tileM, 4, 1, 2, true, true, 1, SplitKMode::Global, weights, 2);
    ASSERT_TRUE(one && two) << diagnostics;
    WgmmaMainloopAttr m1 = one.getWgmma(), m2 = two.getWgmma();
    EXPECT_EQ(m2.getChunkBytes(), m1.getSlotBytes());
    EXPECT_EQ(m2.getSlotBytes(), 2 * m1.getSlotBytes());
    EXPECT_EQ(m2.getSlotBytes() % 1024, 0);
    // Same shared memory: half the slots, each twice as large, and half
    // the barriers.
    EXPECT_EQ(two.getSharedBytes() + 4 * 16, one.getSharedBytes());
    EXPECT_EQ(m2.getSlotCopyBytes(true), 2 * m1.getSlotCopyBytes(true));
    EXPECT_EQ(m2.getSlotCopyBytes(false),
              m2.getSlotBytes() - weights * m2.getSfbSlotBytes());
  }
  // Refused: two weights' second fragments at 128 rows (registers), K
  // groups, B in registers, three chunks a slot.
  struct Refused {
    int64_t stages, kGroups;
    bool bTma;
    int64_t weights, slotChunks;
    const char *message;
  };
  for (const Refused &r :
       {Refused{4, 1, true, 2, 2,
                "16 x weights for the slot's second chunk's fragments"},
        Refused{8, 2, true, 1, 2,
                "expects slot_chunks = 2 with b_tma and k_groups = 1"},
        Refused{4, 1, false, 1, 2, "with b_tma"},
        Refused{4, 1, true, 1, 3, "expects slot_chunks to be 1, 2 or 4"}}) {
    diagnostics.clear();
    EXPECT_FALSE(wgmma(2, 128, r.stages, r.kGroups, 2, true, r.bTma, 1,
                       SplitKMode::Global, r.weights, r.slotChunks));
    EXPECT_NE(diagnostics.find(r.message), std::string::npos) << diagnostics;
  }
}

} // namespace
