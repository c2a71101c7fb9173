//===- SmemPlan.h - an sm_90a GEMM CTA's shared memory ----------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Where the parts of an sm_90a GEMM CTA (#nvfp4.wgmma_mainloop with a
// ring) keep their data in the ring's dynamic shared memory, and which
// named barriers they use:
//
// - a slot's regions: A's decoded tile from byte 0; with b_tma, B's packed
//   chunk behind it and B's scale codes behind that (these offsets are
//   within a chunk's region: with slot_chunks = 2 the second chunk's region
//   repeats the layout from the plan's chunk bytes);
// - after the K loop the ring's data is reused, side by side (never
//   overlaid: the first K group may still be reading the groups' sums when
//   other splits start writing): the K groups' sums (or split_weights'
//   swapped halves) from byte 0, a staged
//   tile of C above them (or an MXFP4 C's amax exchange, there or beside a
//   split exchange that fills every slot's A tile), and a split cluster's
//   exchange at the top of the data or in the last slots' A tiles
//   (RingType::getSplitExchangeStart);
// - named barrier 0 is the CTA's; 1 the K groups' reduction (or the
//   swap of halves); 2 + w the
//   staged store (or MXFP4 exchange) of warpgroup w; 4 the consumers' wait
//   for each other after their K loops, before a store writes into the
//   ring (where no K groups' or split cluster's barrier did).
//
// The pipeline pass (lib/Transforms/Gemm) places the areas with it, the
// conversion takes its barrier ids, and the ops' verifiers check the
// offsets the pass wrote against the same ring arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_SMEMPLAN_H
#define NVFP4_DIALECT_NVFP4_SMEMPLAN_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include <optional>

namespace mlir::nvfp4 {

class WgmmaSmemPlan {
public:
  WgmmaSmemPlan(KernelPlanAttr plan, RingType ring)
      : plan(plan), mainloop(plan.getWgmma()), ring(ring) {}

  /// A slot's regions (bytes from the slot's start).
  static constexpr int64_t kATileOffset = 0;
  /// b_tma: weight w's packed chunk and its scale codes.
  int64_t getBBytesOffset(int64_t w = 0) const {
    return mainloop.getBSlotOffset(w);
  }
  int64_t getBScalesOffset(int64_t w = 0) const {
    return mainloop.getSfbSlotOffset(w);
  }

  /// The K groups' sums: the later groups' accumulators (or the swapped
  /// halves) from byte 0.
  int64_t getKGroupSumsBytes() const { return mainloop.getKGroupSumsBytes(); }

  /// A split cluster's exchange of `floatsPerSplit` fp32 values a split:
  /// with b_tma in the A tiles of the ring's last slots where that leaves
  /// the K groups' sums below it (`aTileBytes` > 0), else at the top of the
  /// ring's data; `start` is its first byte, below which a staged store
  /// must end.
  struct Exchange {
    int64_t start, aTileBytes;
  };
  Exchange getExchange(int64_t floatsPerSplit) const;

  /// The offset of a staged tile of C of `bytes` (above the K groups'
  /// sums, below a split cluster's exchange of `exchangeFloats` a split),
  /// or none when it does not fit there.
  std::optional<int64_t> getStagingOffset(int64_t bytes,
                                          int64_t exchangeFloats) const;

  /// The offset of an MXFP4 C's amax exchange of `bytes`: a staged tile's
  /// place, or where a split cluster's exchange of `exchangeFloats` fills
  /// the last slots' A tiles from the ring's start, the rest of its first
  /// slot (free after the K loop; the other splits write only A tiles);
  /// none when neither holds it.
  std::optional<int64_t> getMXExchangeOffset(int64_t bytes,
                                             int64_t exchangeFloats) const;

  /// Named barriers (0 is the CTA's, bar.sync 0 / __syncthreads).
  static constexpr int64_t kKGroupsBarrier = 1;
  static int64_t getStagedStoreBarrier(int64_t warpgroup) {
    return 2 + warpgroup;
  }
  /// Barriers 2 and 3 for the (at most two) staged warpgroups (also an
  /// MXFP4 C's amax exchange in each), 4 for the consumers to be past
  /// their K loops before a store writes into the ring (the exchange, or
  /// a staged tile where nothing else has synchronized them): 16 in all.
  static constexpr int64_t kStagedStoreBarriers = 2;
  static constexpr int64_t kLoopsOverBarrier = 4;

private:
  KernelPlanAttr plan;
  WgmmaMainloopAttr mainloop;
  RingType ring;
};

} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_SMEMPLAN_H
