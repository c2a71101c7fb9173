//===- NVFP4KernelPlan.td - a tensor-core kernel's plan ----*- tablegen -*-===//
//
// The plan of a tensor-core GEMM, composed of parts: `#nvfp4.kernel<
// mainloop = ..., reduction = ...>`, each part an attribute that owns its
// fields, verifies itself and itself against the others
// (KernelPartAttrInterface) and reports its shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_KERNEL_PLAN_TD
#define NVFP4_KERNEL_PLAN_TD

//===----------------------------------------------------------------------===//
// Mainloops
//===----------------------------------------------------------------------===//

def NVFP4_WgmmaMainloopAttr : AttrDef<NVFP4_Dialect, "WgmmaMainloop", [
    DeclareAttrInterfaceMethods<NVFP4_KernelPartAttrInterface>,
    DeclareAttrInterfaceMethods<NVFP4_MainloopAttrInterface>]> {
  let mnemonic = "wgmma_mainloop";
  let summary = "The sm_90a mainloop: wgmma on A's decoded tiles and B "
                "dequantized in registers";
  let description = [{
    The operands are swapped for the MMA: B's rows (N, the weights: the
    large side in the contest shapes) are the MMA's M, A's rows (M, the
    activations) are the MMA's N. A CTA computes a tile of
    `64 * warpgroups` rows of B by `tile_m` rows of A.

    - `warpgroups` (1 or 2): consumer warpgroups of the CTA; each owns 64
      rows of B (one sm_90a `wgmma` M) and dequantizes them in registers.
    - `tile_m`: rows of A per CTA, the MMA's N: a multiple of 8 in
      [8, 192]. Each 64-wide K chunk of them is `tile_m x 128` bytes of
      decoded, 128B-swizzled f16 (MXFP4: bf16, `nvfp4.wgmma.decode_b`) in
      shared memory.
    - `stages` (default 0): 0 decodes A inside every CTA, into two shared-
      memory buffers (decode of chunk c + 1 overlaps the MMAs of chunk c).
      N >= 2 decodes A once, in a pre-pass kernel, into a workspace laid
      out as rows of 64 f16 or bf16 per K chunk; MXFP4 operands need it.
      The GEMM CTA then streams the tiles
      through a ring of N shared-memory slots with TMA tile copies (a
      tensor map passed by value, 128B-swizzled by the copy; a full and an
      empty mbarrier per slot), N / k_groups - 1 rounds ahead of the MMAs
      (dynamic shared memory).
    - `k_groups` (default 1; 2 to 4 need `stages`, a multiple of k_groups):
      warpgroups that share each 64-row tile of B and split its K chunks
      (chunk j of the CTA's K goes to K group j % k_groups of the tile);
      their partial accumulators meet in shared memory at the end. More
      warps per SM hide the decode's latency when the grid has one CTA per
      SM.
    - `b_prefetch` (default 2; [2, 8], other values need `stages`): how many
      rounds ahead of its MMAs each warpgroup loads its raw chunk of B into
      registers. B streams from global memory straight into registers, so
      this is what keeps enough of its bytes in flight to cover the memory
      latency; each round costs 6 registers per thread.
    - `producer` (default false; true needs `stages`): one more
      warpgroup whose first thread fills the ring (waits for free slots,
      issues the copies) ahead of the consumers, which then only wait,
      compute and release. The producer warpgroup gives its registers to
      the consumers (`setmaxnreg`: 40 for it, the rest of the CTA's
      launch allocation for them). Without it, each K group's first consumer
      thread refills the slot it just released, which waits for every
      consumer of that slot.
    - `b_tma` (default false; true needs a producer): B's raw chunks and
      their scale codes reach the ring's slots by TMA with A's tile (behind
      it in the slot: `64 x warpgroups` rows of 32 bytes, then 16 bytes of
      scale codes a row, or the chunk's 512-byte 128 x 4 atom with blocked
      scales), and the consumers read them from shared memory just before
      they decode them. The ring's depth then covers B's memory latency
      instead of registers (`b_prefetch` must stay 2), and B's loads bypass
      L1. Plain scales need K % 256 == 0 (their tensor map's row stride,
      K / 16 bytes, must be a multiple of 16).
    - `weights` (default 1; 2 needs `stages`): weights multiplied with the
      same tile of A, each into its own accumulator (the gated dual GEMM's
      B1 and B2). Every consumer thread decodes the same rows of each
      weight, so gate[i] and up[i] sit in the same thread at the same
      register index; with b_tma a slot holds each weight's chunk and scale
      codes after A's tile, one weight after the other. The accumulators,
      the K groups' sums and a split exchange grow by the factor.

    - `slot_chunks` (default 1; 2 or 4 need `b_tma` and `k_groups = 1`):
      K chunks of 64 values per ring slot. A slot holds that many chunk
      regions, each laid out as a one-chunk slot (A's tile, then each
      weight's chunk and scale codes), filled under one full barrier and
      released once: a round of the K loop (one slot wait, one wait for the
      previous MMAs, one release per warp) covers 64 x slot_chunks values
      of K instead of 64, and `stages` counts slots. With plain scales the
      later chunks' codes arrive in the first's 16-byte window, which
      holds four chunks' (MXFP4: eight): it is copied once. The CTA's K
      chunks (a split's share) must be a multiple of it.

    - `split_weights` (default false; true needs `weights = 2`,
      `warpgroups = 1`, `k_groups = 1`, `b_tma` and no split-K): each
      weight gets a consumer warpgroup of its own, which decodes only that
      weight's 64 rows of B and holds one accumulator, so a tile of A as
      wide as a one-weight plan's fits its registers and B is decoded once
      per tile of A rather than once per half of it. A slot holds the two
      weights' chunks back to back, then their scale codes (the layout of
      one weight's 128 rows, so each warpgroup reads it as the second
      warpgroup of a one-weight CTA would; plain B scales only). After the
      K loop the two swap halves of their accumulators through the ring
      (`nvfp4.wgmma.swap_halves`): each then holds both weights' values
      of half the tile's rows of A, applies the epilogue and stores them.
      tile_m must be a multiple of 16 (whole 8-column groups a half).

    The K loop steps 64 values (4 MMAs of K = 16); K must be a multiple of
    64.

    Example: `#nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128,
    stages = 6, k_groups = 2>`.
  }];
  let parameters = (ins "int64_t":$warpgroups, "int64_t":$tile_m,
                        DefaultValuedParameter<"int64_t", "0">:$stages,
                        DefaultValuedParameter<"int64_t", "1">:$k_groups,
                        DefaultValuedParameter<"int64_t", "2">:$b_prefetch,
                        NVFP4_BoolParameter<"false">:$producer,
                        NVFP4_BoolParameter<"false">:$b_tma,
                        DefaultValuedParameter<"int64_t", "1">:$weights,
                        DefaultValuedParameter<"int64_t", "1">:$slot_chunks,
                        NVFP4_BoolParameter<"false">:$split_weights);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Registers per thread the verifier budgets: the tile_m / 2
    /// accumulators, 6 per round of B in flight, about 58 more, and 16 more
    /// with two `rounds` of ring slots per K group (stages / k_groups);
    /// with more weights, the accumulators and B's rounds per weight, 16
    /// more per further weight for its decoded fragments, and 48 more per
    /// further weight when B comes through registers (`bTma` false: a
    /// ptxas sweep of two-weight plans spilled 168-208 bytes at tile_m =
    /// 128 without b_tma and none with it, performance.md dual v1).
    /// Two chunks a slot add 16 per weight for the second chunk's
    /// fragments.
    static int64_t estimateRegisters(int64_t tileM, int64_t bPrefetch,
                                     int64_t rounds, int64_t weights = 1,
                                     bool bTma = false,
                                     int64_t slotChunks = 1) {
      return weights * (tileM / 2 + 6 * bPrefetch) + 58 +
             (weights - 1) * (bTma ? 16 : 64) + (rounds == 2 ? 16 : 0) +
             (slotChunks - 1) * weights * 16;
    }
    /// Threads of the CTA's consumer warpgroups (all of its threads but the
    /// producer warpgroup).
    int64_t getConsumerThreads() const {
      return 128 * getConsumerWarpgroups();
    }
    /// Consumer warpgroups: warpgroups x k_groups, times the weights with
    /// split_weights.
    int64_t getConsumerWarpgroups() const {
      return getWarpgroups() * getKGroups() *
             (getSplitWeights() ? getWeights() : 1);
    }
    /// Accumulators (weights) each consumer thread multiplies into.
    int64_t getMmaWeights() const {
      return getSplitWeights() ? 1 : getWeights();
    }
    /// Consumer warpgroups that store a part of the tile: with
    /// split_weights each weight's stores half of the tile's rows of A.
    int64_t getStoreWarpgroups() const {
      return getWarpgroups() * (getSplitWeights() ? getWeights() : 1);
    }
    /// Registers per thread of the producer warpgroup, and of the consumers
    /// once the producer gave its own up (setmaxnreg); multiples of 8, at
    /// most 256. setmaxnreg moves registers only within what the CTA was
    /// launched with (entryRegisters x threads), not within an SM quarter's
    /// 16384: a request past that sum never returns (performance.md, GEMM
    /// v34). For these CTAs both bounds give the same counts.
    static constexpr int64_t kProducerRegisters = 40;
    static int64_t consumerRegisters(int64_t consumerWarpgroups) {
      const int64_t threads = 128 * (consumerWarpgroups + 1);
      int64_t perThread =
          (entryRegisters(threads) * threads - 128 * kProducerRegisters) /
          (128 * consumerWarpgroups);
      return std::min<int64_t>(perThread & ~int64_t(7), 256);
    }
    int64_t getConsumerRegisters() const {
      return consumerRegisters(getConsumerWarpgroups());
    }
    /// Registers per thread the kernel starts with (nvvm.maxnreg) when it
    /// has a producer warpgroup: what fits 65536 / threads, in the
    /// allocation unit of 8, at most 248.
    int64_t getEntryRegisters() const {
      return entryRegisters(getThreadsPerCta());
    }
    static int64_t entryRegisters(int64_t threads) {
      // ptxas takes at most 255 (256 threads: a producer and one consumer).
      return std::min<int64_t>((65536 / threads) & ~int64_t(7), 248);
    }
    /// K values per loop iteration.
    static constexpr int64_t kTileK = 64;
    /// A grouped tile's MMAs cover its rows rounded up to this (wgmma's N
    /// steps by 8): its K loop is written once per multiple (grouped v7).
    static constexpr int64_t kRowsStep = 8;
    /// Threads of a CTA of the pre-pass (nvfp4.decode_a_tile): one per
    /// word (8 values) of the tile's rows in a K chunk, 8 a row, or with
    /// tile_m > 128 (a CTA holds at most 1024 threads) one per 16-value
    /// scale block, 4 a row; so that each thread's chain of loads, decode
    /// and stores is short and an SM holds enough warps to hide its latency
    /// (performance.md, GEMM v29 and v30).
    int64_t getDecodeThreads() const {
      return (getTileM() <= 128 ? 8 : 4) * getTileM();
    }
    /// Bytes of one decoded K chunk of A's tile (tile_m x 64 f16).
    int64_t getATileBytes() const { return getTileM() * kTileK * 2; }
    /// b_tma: bytes of a K chunk of B's rows (32 a row) in a slot, after
    /// A's tile.
    int64_t getBSlotBytes() const { return getTileN() * kTileK / 2; }
    /// b_tma: the room for B's scale codes after them, 16 bytes a row
    /// (plain scales: the aligned window of 4 chunks' codes that holds the
    /// chunk's, what a TMA box of 16 bytes brings), of which blocked scales
    /// use the first kBlockedSfbBytes (the chunk's 128 x 4 atom).
    int64_t getSfbSlotBytes() const { return getTileN() * 16; }
    static constexpr int64_t kBlockedSfbBytes = 512;
    /// Bytes of one chunk's region of a slot: A's tile, and with b_tma each
    /// weight's chunk and its scale codes (multiples of 1024, so every
    /// region keeps the 128B swizzle's alignment).
    int64_t getChunkBytes() const {
      return slotBytes(getTileM(), getWarpgroups(), getBTma(), getWeights());
    }
    /// Bytes of one ring slot: slot_chunks chunk regions.
    int64_t getSlotBytes() const { return getSlotChunks() * getChunkBytes(); }
    static int64_t slotBytes(int64_t tileM, int64_t warpgroups, bool bTma,
                             int64_t weights = 1) {
      return tileM * kTileK * 2 +
             (bTma ? weights * 64 * warpgroups * (kTileK / 2 + 16) : 0);
    }
    /// b_tma: where weight w's chunk and its scale codes start in a slot.
    /// With split_weights the weights' chunks lie back to back, then their
    /// scale codes.
    int64_t getBSlotOffset(int64_t w) const {
      if (getSplitWeights())
        return getATileBytes() + w * getBSlotBytes();
      return getATileBytes() + w * (getBSlotBytes() + getSfbSlotBytes());
    }
    int64_t getSfbSlotOffset(int64_t w = 0) const {
      if (getSplitWeights())
        return getBSlotOffset(getWeights()) + w * getSfbSlotBytes();
      return getBSlotOffset(w) + getBSlotBytes();
    }
    /// b_tma: the bytes the copies of one slot's chunks bring into it: all
    /// of it, but with blocked scales only each weight's atom of each
    /// chunk's room, and with plain scales each weight's window once.
    int64_t getSlotCopyBytes(bool blockedScales) const {
      const int64_t room = getWeights() * getSfbSlotBytes();
      return getSlotBytes() -
             (blockedScales ? getSlotChunks() *
                                  (room - getWeights() * kBlockedSfbBytes)
                            : (getSlotChunks() - 1) * room);
    }
    /// Bytes of the pre-pass's decoded tiles of A ([batch x] m x k).
    int64_t getATilesBytes(int64_t batch, int64_t m, int64_t k) const {
      return batch * ((m + getTileM() - 1) / getTileM()) * (k / kTileK) *
             getATileBytes();
    }
    /// Bytes at the ring's bottom that the K loop's end uses: the k_groups
    /// - 1 later K groups' accumulators (`nvfp4.wgmma.reduce_k_groups`), or
    /// with split_weights the halves the weights' warpgroups swap
    /// (`nvfp4.wgmma.swap_halves`); each op's own formula, so the plan
    /// reserves what the op writes. A staged store and a split exchange lie
    /// above them.
    int64_t getKGroupSumsBytes() const;
    /// Dynamic shared memory of a ring (stages > 0): the slots, or the
    /// scratch reusing them if larger, 1024 bytes of slack to align them for
    /// the 128B swizzle, and the slots' full and empty mbarriers.
    static int64_t ringBytes(int64_t stages, int64_t slotBytes,
                             int64_t scratch) {
      return std::max(stages * slotBytes, scratch) + 1024 + 16 * stages;
    }
  }];
}

def NVFP4_Tcgen05MainloopAttr : AttrDef<NVFP4_Dialect, "Tcgen05Mainloop", [
    DeclareAttrInterfaceMethods<NVFP4_KernelPartAttrInterface>,
    DeclareAttrInterfaceMethods<NVFP4_MainloopAttrInterface>]> {
  let mnemonic = "tcgen05_mainloop";
  let summary = "The sm_100a mainloop: tcgen05 MMAs with TMEM accumulators";
  let description = [{
    The operands are swapped as in `#nvfp4.wgmma_mainloop`: a CTA computes
    128 rows of B (the weights, the MMA's M: one `tcgen05.mma.cta_group::1`
    of M = 128, or a pair's `cta_group::2` of M = 256 with `cta_group = 2`) by `tile_m` rows of A (the activations, the MMA's N),
    accumulated in tensor memory (TMEM), with e2m1 operands and their
    block scales read by the MMA itself (`kind::mxf4nvf4.block_scale`:
    e4m3 `.block16`, or MXFP4's e8m0 `.block32` with `format = mxfp4`).
    With `weights = 2` (the gated dual GEMM) the slot holds both weights'
    tiles and scales, TMEM both accumulators (columns [0, tile_m) and
    [tile_m, 2 tile_m)) and both weights' scale columns, and each K step
    issues one MMA per weight on the same tile of A and its scales.
    The CTA is 4 warps: warp 0 copies the tiles (TMA) and the scales
    (bulk copies) into the ring, warp 1 issues the scale copies into TMEM
    (`tcgen05.cp`) and the MMAs, and all 4 warps read the accumulator out of
    TMEM (one lane quadrant each) and store C.

    - `tile_m` (32, 64, 128 or 256): rows of A per CTA, the MMA's N. The
      scales of A are copied in 128-row blocks of the blocked layout; a
      tile of fewer rows reads its part of the block (a TMEM column offset
      of (row % 128) / 32).
    - `stages` ([2, 16]): ring slots of 256 K values each (4 MMAs of K =
      64): the tile of B (16 KiB), the tile of A (tile_m x 128 bytes), both
      128B-swizzled, and their scales (2 KiB per 128 rows). Each slot also
      has its own TMEM columns for its scales, so a slot's scale copy never
      overwrites scales an MMA of another slot may still read.

    - `format` (`nvfp4`, the default, or `mxfp4`): the scales' format.
      MXFP4's e8m0 scales (one per 32 values) run `.block32` MMAs: a
      128 x 4 atom then covers 128 K values, two MMAs, so a slot holds 2
      atoms per 128 rows (1 KiB) instead of 4, one `tcgen05.cp` serves two
      MMAs, and the second reads the cells' upper half words (scale id 2).

    K must be a multiple of 64. The slots copy the scales in the blocked
    layout (the 128 x 4 atoms `tcgen05.cp` copies as they are), 256 K
    values at a time: plain scales, and blocked ones when K is not a
    multiple of 256, are first written blocked and zero-padded to whole
    slots by `nvfp4.block_scales_tile` (a pre-pass kernel `nvfp4-tile` adds);
    the last slot issues only the MMAs of K steps before K (values past K
    read as zero, scales past K never multiplied: a producer may leave the
    padding of an MXFP4 atom non-zero).

    - `cta_group` (1, the default, or 2): with 2, CTAs work in pairs (a
      cluster of 2 along x: two adjacent tiles of 128 rows of B, the same
      tile of A) whose first CTA issues `tcgen05.mma.cta_group::2` of
      M = 256 for both: each CTA's slot holds its own 128 rows of B and
      their scales, half the rows of the tile of A (the MMA reads its N
      from both CTAs' slots) and all of the tile's scales of A, and each
      CTA's TMEM its own accumulator. A tile of A thereby crosses the
      pair's L2 and shared memory once instead of twice. tile_m is 64, 128
      or 256 (32 rows or more of A per CTA); no on-chip split-K.

    Example: `#nvfp4.tcgen05_mainloop<tile_m = 128, stages = 6>`.
  }];
  let parameters = (ins "int64_t":$tile_m, "int64_t":$stages,
                        DefaultValuedParameter<"int64_t", "1">:$weights,
                        DefaultValuedParameter<"ScaleFormat",
                                               "ScaleFormat::NVFP4">:$format,
                        DefaultValuedParameter<"int64_t", "1">:$cta_group);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Rows of B per CTA: the MMA's M (cta_group::1; a pair's MMA covers
    /// two CTAs' tiles).
    static constexpr int64_t kTileN = 128;
    /// K values per ring slot (4 MMAs of K = 64), and bytes of one row's
    /// share of them (packed e2m1: one 128B swizzle row).
    static constexpr int64_t kStageK = 256;
    static constexpr int64_t kStageRowBytes = kStageK / 2;
    /// K values per MMA.
    static constexpr int64_t kMmaK = 64;
    /// The scales' format; its blocked atoms of 4 scale columns per slot
    /// (4 for NVFP4, 2 for MXFP4), and the MMAs each atom serves (1 or 2:
    /// MXFP4's second reads scale id 2).
    static BlockFormat getBlockFormat(ScaleFormat format) {
      return format == ScaleFormat::MXFP4 ? BlockFormat::mxfp4()
                                          : BlockFormat::nvfp4();
    }
    BlockFormat getBlockFormat() const { return getBlockFormat(getFormat()); }
    static int64_t getScaleAtomsPerSlot(ScaleFormat format) {
      return kStageK / getBlockFormat(format).getAtomK();
    }
    int64_t getScaleAtomsPerSlot() const {
      return getScaleAtomsPerSlot(getFormat());
    }
    int64_t getMmasPerAtom() const {
      return getBlockFormat().getAtomK() / kMmaK;
    }
    /// Bytes of the scales of 128 rows over one slot's K (its atoms of
    /// the blocked layout, contiguous in it): 2 KiB NVFP4, 1 KiB MXFP4.
    int64_t getScaleBlockBytes() const {
      return getScaleAtomsPerSlot() * BlockFormat::kAtomBytes;
    }
    /// Threads of the CTA (4 warps: one per TMEM lane quadrant).
    static constexpr int64_t kThreads = 128;
    /// The ring's K slices (the last one partial when K % 256 != 0), and
    /// K padded to them: the K the tile's blocked scales cover.
    static int64_t getSlices(int64_t k) { return (k + kStageK - 1) / kStageK; }
    static int64_t getSlotK(int64_t k) { return getSlices(k) * kStageK; }
    /// Whether scales in `layout` for K values need nvfp4-tile's pre-pass
    /// (nvfp4.block_scales_tile): all but blocked ones of whole slices.
    static bool needsScalePrePass(ScaleLayout layout, int64_t k) {
      return layout != ScaleLayout::Blocked || getSlotK(k) != k;
    }
    /// Blocks of 128 rows of A's scales a tile needs.
    int64_t getScaleBlocksA() const { return (getTileM() + 127) / 128; }
    /// Byte offsets inside a slot: each weight's tile of B, A's tile, each
    /// weight's scales of B, A's scales; and the slot's size (1024-byte
    /// multiples keep every slot aligned for the swizzle).
    static constexpr int64_t kBOffset = 0;
    static int64_t getBOffset(int64_t w) {
      return kBOffset + w * kTileN * kStageRowBytes;
    }
    int64_t getAOffset() const { return getBOffset(getWeights()); }
    /// Rows of the tile of A a CTA's slot holds: a pair's CTAs half each.
    int64_t getARowsPerCta() const { return getTileM() / getCtaGroup(); }
    int64_t getSfbOffset(int64_t w = 0) const {
      return getAOffset() + getARowsPerCta() * kStageRowBytes +
             w * getScaleBlockBytes();
    }
    int64_t getSfaOffset() const { return getSfbOffset(getWeights()); }
    int64_t getSlotBytes() const {
      int64_t end = getSfaOffset() + getScaleBlocksA() * getScaleBlockBytes();
      return (end + 1023) / 1024 * 1024;
    }
    /// TMEM columns: each weight's fp32 accumulator (one column per row
    /// of A) from column w x tile_m, then per slot each weight's B scales
    /// (4 columns per atom) and A's (4 per atom and block of 128 rows).
    int64_t getAccumulatorColumn(int64_t w) const { return w * getTileM(); }
    int64_t getSfbColumnsPerAtom() const { return 4; }
    int64_t getSfaColumnsPerAtom() const { return 4 * getScaleBlocksA(); }
    int64_t getScaleColumnsPerSlot() const {
      return getScaleAtomsPerSlot() *
             (getWeights() * getSfbColumnsPerAtom() + getSfaColumnsPerAtom());
    }
    int64_t getScaleColumnBase() const { return getWeights() * getTileM(); }
    int64_t getTmemColumnsUsed() const {
      return tmemColumnsUsed(getTileM(), getStages(), getWeights(),
                             getFormat());
    }
    static int64_t tmemColumnsUsed(int64_t tileM, int64_t stages,
                                   int64_t weights = 1,
                                   ScaleFormat format = ScaleFormat::NVFP4) {
      return weights * tileM +
             stages * getScaleAtomsPerSlot(format) *
                 (4 * weights + 4 * ((tileM + 127) / 128));
    }
    /// The allocation: a power of two >= 32 (tcgen05.alloc), or 0 when the
    /// columns exceed TMEM's 512.
    int64_t getTmemColumns() const {
      int64_t columns = 32;
      while (columns < getTmemColumnsUsed())
        columns *= 2;
      return columns <= 512 ? columns : 0;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def NVFP4_SplitKMode : I32EnumAttr<"SplitKMode",
    "where the partial tiles of split-K meet", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Cluster", 1, "cluster">,
    I32EnumAttrCase<"Scatter", 2, "scatter">
  ]> {
  let cppNamespace = "::mlir::nvfp4";
  let genSpecializedAttr = 0;
}

def NVFP4_SplitKAttr : AttrDef<NVFP4_Dialect, "SplitK", [
    DeclareAttrInterfaceMethods<NVFP4_KernelPartAttrInterface>]> {
  let mnemonic = "split_k";
  let summary = "A reduction: CTAs that split K and add their partial tiles";
  let description = [{
    `splits` CTAs ([2, 8], dividing K's steps) share a tile, each over its
    share of K, and their fp32 partial tiles meet:

    - `global` (default): each writes its partial tile to a workspace in
      global memory (split-major [split][batch][m][n]) and a small kernel
      (`nvfp4.sum_splits`) adds them and writes C. For grids that would
      leave most SMs idle without decoding B again per tile of A.
    - `cluster`: the splits of a tile form a 1 x 1 x splits thread-block
      cluster (the grid's z) and add on chip: the others write their
      accumulators into the first one's ring memory (distributed shared
      memory) once its K loop is over, and it adds them in split order and
      writes C as an unsplit CTA would. No fp32 partials in global memory
      and no sum kernel (H100, performance.md GEMM v26).
    - `scatter` (wgmma mainloops, tile_m a multiple of 8 x splits): as
      `cluster`, but each split adds and stores `tile_m / splits` of the
      tile's rows of A (performance.md, GEMM v32).

    Example: `#nvfp4.split_k<splits = 2, mode = cluster>`.
  }];
  let parameters = (ins "int64_t":$splits,
                        DefaultValuedParameter<"SplitKMode",
                            "SplitKMode::Global">:$mode);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the partial tiles meet on chip (a cluster), not in a
    /// workspace summed by a third kernel.
    bool isOnChip() const { return getMode() != SplitKMode::Global; }
    /// Bytes of a split cluster's exchange in the first CTA's ring (both
    /// targets): the other splits' `floatsPerSplit` fp32 values each. The
    /// plans' scratch, reduce_splits' verifier and its lowering all use it.
    static int64_t exchangeBytes(int64_t splits, int64_t floatsPerSplit) {
      return (splits - 1) * floatsPerSplit * 4;
    }
  }];
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

def NVFP4_KernelPlanAttr : AttrDef<NVFP4_Dialect, "KernelPlan",
    [DeclareAttrInterfaceMethods<NVFP4_PlanAttrInterface>]> {
  let mnemonic = "kernel";
  let summary = "How a tensor-core GEMM maps to the GPU, as parts";
  let description = [{
    Chosen by `nvfp4-plan` per target and shape; a user or an autotuner may
    write it in the IR instead (the plan pass keeps it and checks it against
    the shape and the target). A kernel is composed of parts, each an
    attribute with its own fields and checks:

    - `mainloop`: the MMA and how the operands reach it, which also fixes
      the CTA's tile: `#nvfp4.wgmma_mainloop` (sm_90a) or
      `#nvfp4.tcgen05_mainloop` (sm_100a);
    - `reduction` (optional): `#nvfp4.split_k`, CTAs that split K and add
      their partial tiles in a workspace or on chip.

    The grid maps one CTA to each tile of `tile_n` rows of B by `tile_m`
    rows of A (x over B, y over A, z over batches x splits). Each part
    checks itself against the others (KernelPartAttrInterface::verifyWith),
    and the plan's shared memory is the mainloop's ring with the parts'
    post-loop areas in it.

    Example: `#nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1,
    tile_m = 128, stages = 6, producer = true, b_tma = true>, reduction =
    #nvfp4.split_k<splits = 2, mode = scatter>>`.
  }];
  let parameters = (ins "MainloopAttrInterface":$mainloop,
                        OptionalParameter<"SplitKAttr">:$reduction);
  // Each part is printed whole (`reduction = #nvfp4.split_k<...>`), and a
  // part that fails to parse reports its own error only.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The parts, for the parts' own queries.
    KernelParts getParts() const;
    /// The mainloop when it is of that kind, else null.
    WgmmaMainloopAttr getWgmma() const {
      return ::llvm::dyn_cast<WgmmaMainloopAttr>(getMainloop());
    }
    Tcgen05MainloopAttr getTcgen05() const {
      return ::llvm::dyn_cast<Tcgen05MainloopAttr>(getMainloop());
    }
    int64_t getTileM() const { return getMainloop().getTileM(); }
    int64_t getTileN() const { return getMainloop().getTileN(); }
    int64_t getStages() const { return getMainloop().getStages(); }
    /// CTAs that split K (1 without a reduction).
    int64_t getSplitK() const {
      return getReduction() ? getReduction().getSplits() : 1;
    }
    /// Whether the splits add on chip (a cluster of the splits), or each
    /// adds and stores a part of the tile (scatter).
    bool getSplitCluster() const {
      return getReduction() && getReduction().isOnChip();
    }
    bool getSplitScatter() const {
      return getReduction() && getReduction().getMode() == SplitKMode::Scatter;
    }
    /// Whether split-K's partials go through global memory to a sum kernel.
    bool needsSumKernel() const {
      return getReduction() && !getReduction().isOnChip();
    }
    /// Bytes of the fp32 partial tiles CTAs write to global memory
    /// (split_k x [batch x] m x n floats); 0 when the splits add on chip or
    /// there are none.
    int64_t getPartialsBytes(int64_t batch, int64_t m, int64_t n) const {
      return needsSumKernel() ? getSplitK() * batch * m * n * 4 : 0;
    }
    /// CTAs per tcgen05 MMA: 2 for a #nvfp4.tcgen05_mainloop of CTA
    /// pairs, else 1.
    int64_t getCtaGroup() const {
      Tcgen05MainloopAttr tcgen05 = getTcgen05();
      return tcgen05 ? tcgen05.getCtaGroup() : 1;
    }
    /// CTAs along x for `n` rows of B: one per tile of B, rounded up to
    /// whole CTA pairs (an odd count's last pair's second CTA lies past N:
    /// it loads zeros and stores nothing).
    int64_t getCtasAlongN(int64_t n) const {
      return ::llvm::alignTo(::llvm::divideCeil(n, getTileN()),
                             getCtaGroup());
    }
    /// The kernel's cluster shape (x, y, z): a tcgen05 CTA pair along x,
    /// the splits of an on-chip reduction along z; 1 x 1 x 1 without a
    /// cluster.
    ::llvm::SmallVector<int64_t, 3> getClusterShape() const {
      return {getCtaGroup(), 1, getSplitCluster() ? getSplitK() : 1};
    }
    /// Bytes of the ring's memory the parts reuse after the K loop, side by
    /// side: the mainloop's (K groups' sums) below the reduction's (the
    /// split exchange).
    int64_t getScratchBytes() const;
    /// Shared memory of a CTA: the mainloop's, with the parts' scratch.
    int64_t getSharedBytes() const {
      return getMainloop().getSharedBytes(getScratchBytes());
    }
  }];
}

#endif // NVFP4_KERNEL_PLAN_TD
