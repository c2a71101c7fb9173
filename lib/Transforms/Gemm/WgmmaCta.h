//===- WgmmaCta.h - the parts of an sm_90a GEMM CTA -------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// An sm_90a GEMM CTA with a ring is written out by the kernel template
// (KernelTemplate.cpp) from its plan's parts, each in its own file:
//
//   WgmmaCta          what every part reads: the tile op, its plan, the
//                     shared-memory plan and the thread roles, computed
//                     once by the template;
//   WgmmaMainloop     the producer and the consumers' K loop, returning
//                     the accumulators (MainloopSm90.cpp);
//   reduceAndStore    the K groups' sums and split-K on chip
//                     (Reduction.cpp), ending in
//   WgmmaEpilogue     the store of a tile of accumulators (Epilogue.cpp).
//
// The parts talk only through WgmmaCta and the values they return. Private
// to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TRANSFORMS_GEMM_WGMMACTA_H
#define NVFP4_TRANSFORMS_GEMM_WGMMACTA_H

#include "../PipelineBuilders.h"

#include "nvfp4/Dialect/NVFP4/SmemPlan.h"

#include <optional>

namespace mlir::nvfp4::gemm {

/// What the parts of one CTA share.
struct WgmmaCta : FoldingBuilder {
  WgmmaCta(GemmTileOp op, ImplicitLocOpBuilder &b);

  GemmTileOp op;
  KernelPlanAttr kernel;
  WgmmaMainloopAttr plan;
  /// Tiles of A's rows, K chunks of A, this CTA's chunks (a split's
  /// share), K groups, ring slots, weights (accumulators), K chunks a ring
  /// slot (slot_chunks), the weights a consumer thread multiplies (one with
  /// split_weights), and the consumer warpgroups that store.
  int64_t mTiles, totalChunks, chunks, kGroups, stages, weights, slotChunks,
      mmaWeights, storeWarpgroups;
  /// The operands' block format: the decode gives NVFP4's operands at
  /// 2^-14 of their values (f16) and MXFP4's at a quarter (bf16), so the
  /// accumulators are scaled back after the K loop (ATileWorkspace.h).
  BlockFormat format;
  /// Set by the template: the ring and its memory's plan.
  Value ring;
  std::optional<WgmmaSmemPlan> smem;
  /// Thread roles: the thread, its K group, whether it releases its
  /// consumer's slots (isLeader) and whether it is its K group's first
  /// warpgroup; the CTA's first row of A (mBase) and its warpgroup's first
  /// row of B (rowBase), the batch, and with split-K this split's first
  /// chunk (chunkBase).
  Value tid, kGroup, isLeader, isFirstOfGroup, rowBase, mBase, batch, chunkBase;
  /// split_weights: the thread's weight (its warpgroup); null otherwise.
  Value weightWarpgroup;
  /// The weights' batch (index): the batch, or a grouped GEMM's group.
  Value weightBatch;
  /// A grouped GEMM's tile: C's first row (i32) and where its rows end
  /// (i32, null otherwise: C's tile starts at mBase, masked at M).
  Value cRowBegin, cRowEnd;
  /// The warpgroup's first row in the CTA's tile of B.
  Value warpgroupRow;
  /// b_tma: the weights' batch and the CTA's first row of B (i32), the TMA
  /// coordinates of its copies, and that row's place in its 128-row scale
  /// atom (blocked scales).
  Value batch32, nBase32, atomRow;
};

/// The mainloop (MainloopSm90.cpp): A's tiles through the ring, B loaded
/// ahead into registers or through the ring (b_tma), wgmma.
class WgmmaMainloop : FoldingBuilder {
public:
  explicit WgmmaMainloop(WgmmaCta &cta) : FoldingBuilder(cta.b), cta(cta) {}

  /// The producer warpgroup's first thread, under `isProducer`: waits for
  /// the pre-pass's tiles, then fills the CTA's chunks in order.
  void produce(Value isProducer);
  /// The consumers' K loop over this K group's chunks; returns its
  /// accumulators, one per weight. `fillFirst`: thread 0 also fills every
  /// slot once (no producer warpgroup).
  SmallVector<Value> consume(bool fillFirst);

private:
  /// A round's raw chunk of one weight: bytes and scale code of each
  /// fragment row.
  struct Raw {
    Value bytes0, bytes1, scale0, scale1;
  };
  /// A round's raw chunks, one per weight.
  using Raws = SmallVector<Raw, 2>;
  /// The ring position of a round: its slot is ring * k_groups + kGroup,
  /// its use of the slot has phase parity `phase`; `ring` counts modulo
  /// stages / k_groups (carried through the loop, never divided).
  struct Position {
    Value ring, phase;
  };
  /// The K loop of `count` rounds from ring position `at`: returns the
  /// accumulators, with `at` moved past the last round when `advance`.
  /// `beforeLoop` runs between the prologue's loads and the loop.
  SmallVector<Value> kLoop(Value count, Position &at, bool advance,
                           function_ref<void()> beforeLoop);
  void round(Value r, Value count, bool first, Position &at,
             SmallVector<Value> &accs, SmallVector<Value> &frags,
             SmallVector<Raws> &pending);
  /// Each weight's MMAs of a round on the tile of A in `slot`.
  void mma(SmallVector<Value> &accs, ValueRange frags, Value slot);

  /// The K group's round r -> its chunk in this CTA's share of K.
  Value chunkOf(Value round) {
    return add(mul(round, c32(cta.kGroups)), cta.kGroup);
  }
  Value clampChunk(Value c) {
    return b.createOrFold<arith::MinUIOp>(c, c32(cta.chunks - 1));
  }
  /// Chunk j of a slot's fill `fill` (slot_chunks of them a fill).
  Value slotChunk(Value fill, int64_t j) {
    return add(mul(fill, c32(cta.slotChunks)), c32(j));
  }
  /// Where weight w's scale codes for the slot's chunk `sub` lie: blocked,
  /// in that chunk's region; plain, in the first region's window, which
  /// holds every chunk's codes of the slot.
  int64_t scalesOffset(int64_t w, int64_t sub) const {
    const bool blocked = cta.op.getSfbLayout() == ScaleLayout::Blocked;
    return (blocked ? sub * cta.plan.getChunkBytes() : 0) +
           cta.smem->getBScalesOffset(w);
  }
  /// This CTA's chunk c in the whole K (split-K offsets it).
  Value globalChunk(Value c) {
    return cta.chunkBase ? add(c, cta.chunkBase) : c;
  }
  /// Every weight's raw chunk `chunk` of the warpgroup's rows.
  Raws loadB(Value chunk);
  /// b_tma: round `r`'s raw chunks of B, from its ring slot at `p` (once
  /// full).
  Raws readB(Position p, Value r);
  /// b_tma: the producer's copies of chunk `chunk` of B's rows (each
  /// weight's bytes and scale codes) into region `sub` of `slot` (the
  /// first region's copies arm its full barrier for the whole slot; a
  /// later region's plain scale codes come with the first's window), and
  /// of A's tile.
  void fillB(Value chunk, Value slot, int64_t sub = 0);
  void fillA(Value chunk, Value slot, int64_t sub = 0);
  Value decode(Raw raw);
  SmallVector<Value> decode(const Raws &raws);
  ScaleFormat scaleFormat() const {
    return getScaleFormat(cta.format);
  }
  /// First workspace row (i32) of decoded tile `chunk` of this CTA's rows
  /// of A (ATileWorkspace.h).
  Value tileRow(Value chunk);
  void fill(Value chunk, Value slot);
  Value slotAt(Position p) {
    return add(mul(p.ring, c32(cta.kGroups)), cta.kGroup);
  }
  Position step(Position p, int64_t delta);
  /// b_tma: round `r`'s fragments (one per weight and chunk of the slot,
  /// chunk-major), decoded from its slot
  /// at `p` once full; with `valid` (may be null: always), zeros when it is
  /// false, so that no thread waits for a slot nobody fills or reads one it
  /// released.
  SmallVector<Value> slotFragments(Value valid, Position p, Value r);

  WgmmaCta &cta;
  /// The MMAs' N while the K loop is written, and so its accumulators'
  /// width (N / 2 floats a thread; 0: the whole tile).
  int64_t mmaRows = 0;
};

/// The epilogue (Epilogue.cpp): stores tiles of accumulators to C.
class WgmmaEpilogue : FoldingBuilder {
public:
  explicit WgmmaEpilogue(WgmmaCta &cta) : FoldingBuilder(cta.b), cta(cta) {}

  /// Stores the tile's epilogue of `accs` (one D fragment per weight, of a
  /// tile of 2 x len(acc) rows of A from `m`, by default the CTA's mBase)
  /// to C, or with `split` to its partials copy `split`; a warpgroup whose
  /// rows all lie past N, or a part of the tile whose rows all lie past M,
  /// stores nothing (but for an MXFP4 C, whose store waits for every
  /// warpgroup: its stores are masked instead). Fails, with a message, for
  /// an MXFP4 C whose warps' amax exchange finds no room in the ring.
  LogicalResult store(ValueRange accs, Value split, Value m = Value());

private:
  /// The tile's epilogue region applied to the fragments `accs`.
  Value apply(ValueRange accs);

  WgmmaCta &cta;
};

/// split_weights (Reduction.cpp): the weights' warpgroups swap halves of
/// their accumulators `acc` and each stores its half of the tile's rows of
/// A, both weights' values of them.
LogicalResult swapHalvesAndStore(WgmmaCta &cta, Value acc,
                                 WgmmaEpilogue &epilogue);

/// The reductions after the K loop (Reduction.cpp): the K groups' sums meet
/// in group 0; then split-K's tiles meet on chip (cluster: in the first
/// CTA, which stores; scatter: each split adds and stores its part), or go
/// to the partials (global); `epilogue` stores. `accs`: one accumulator per
/// weight.
LogicalResult reduceAndStore(WgmmaCta &cta, ValueRange accs,
                             WgmmaEpilogue &epilogue);

} // namespace mlir::nvfp4::gemm

#endif // NVFP4_TRANSFORMS_GEMM_WGMMACTA_H
