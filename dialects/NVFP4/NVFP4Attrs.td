//===- NVFP4Attrs.td - nvfp4 attributes --------------------*- tablegen -*-===//
//
// Attributes of the nvfp4 dialect: the scale layout and the execution plans
// that nvfp4-plan records for the later passes.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_ATTRS_TD
#define NVFP4_ATTRS_TD

include "NVFP4Dialect.td"
include "NVFP4Interfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Scale layout
//===----------------------------------------------------------------------===//


// A bool plan field, spelled `true` or `false` (an integer such as 7 is
// refused as not a bool rather than as "too large").
class NVFP4_BoolParameter<string default>
    : DefaultValuedParameter<"bool", default> {
  let parser = "::mlir::nvfp4::parseBoolParameter($_parser)";
}

def NVFP4_ScaleLayout : I32EnumAttr<"ScaleLayout", "layout of e4m3 block scales", [
    I32EnumAttrCase<"Plain", 0, "plain">,
    I32EnumAttrCase<"Blocked", 1, "blocked">
  ]> {
  let cppNamespace = "::mlir::nvfp4";
  let genSpecializedAttr = 0;
}

def NVFP4_ScaleLayoutAttr : EnumAttr<NVFP4_Dialect, NVFP4_ScaleLayout,
                                     "scale_layout"> {
  let summary = "Memory layout of the e4m3 block scales";
  let description = [{
    `plain`: a `[batch x] rows x K/16` row-major array, one scale per 16
    values along K.

    `blocked`: the layout cuBLAS and `tcgen05.cp` consume. Rows are padded to
    a multiple of 128 and scale columns to a multiple of 4; each 128-row x
    4-column atom is 512 contiguous bytes, atoms ordered row-block major,
    K-block minor. Inside an atom the scale of (row r, column c) sits at byte
    `(r % 32) * 16 + (r / 32) * 4 + c`. The memref shape spells the atoms out:
    `[batch x] ceil(rows/128) x ceil(K/64) x 32 x 4 x 4`.

    See the PTX ISA, "Matrix fragments for tcgen05.mma ... block scaling":
    https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-mma-scale-factor-a-layout-1x
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Plans
//===----------------------------------------------------------------------===//

def NVFP4_GemvPlanAttr : AttrDef<NVFP4_Dialect, "GemvPlan",
    [DeclareAttrInterfaceMethods<NVFP4_PlanAttrInterface>]> {
  let mnemonic = "gemv_plan";
  let summary = "How a batched GEMV (N = 1 scaled_matmul) is mapped to the GPU";
  let description = [{
    Chosen by `nvfp4-plan` per target and shape; a user or an autotuner may
    write it in the IR instead, and the plan pass keeps it (checking the
    shape's K % 64 and the plan's shared-memory budget).

    - `warps_per_cta`: warps in a CTA; each warp owns `rows_per_warp` rows.
    - `rows_per_warp`: rows of A one warp reduces together; the decoded B
      fragment is reused across them.
    - `bytes_per_thread`: packed fp4 bytes a thread loads per step (16 or 32);
      each step a warp covers `32 * bytes_per_thread * 2` values of K.
    - `unroll`: steps a thread keeps in flight before the first use.
    - `stage_b` (default false): the CTA decodes the whole B row once into
      shared memory before the K loop, instead of every warp decoding its B
      fragment every step (every warp of a CTA reads the same B chunks).
    - `prefetch` (default true): software-pipeline the K loop, issuing the
      global loads of iteration i + `prefetch_distance` before the math of
      iteration i.
    - `prefetch_distance` (default 1): iterations whose loads are in flight,
      held in registers, while one is computed (1 to 4; needs `prefetch`).
    - `k_split` (default 1): warps that share a group of rows, each taking
      every k_split-th 32-chunk span of K; their partial sums meet in shared
      memory. A CTA then covers (warps_per_cta / k_split) * rows_per_warp
      rows, so the grid has k_split times more CTAs.
    - `row_groups` (default 1): consecutive row groups one CTA computes in a
      loop, reusing its staged B; the grid has row_groups times fewer CTAs.
      The software pipeline runs across the groups' boundaries.
    - `stages` (default 0): 0 keeps A's in-flight loads in registers (the
      prefetch above). N >= 2 streams A through a ring of N shared-memory
      slots per warp instead: lane 0 fills a slot with bulk copies
      (`cp.async.bulk`, the TMA engine) of one outer iteration of the
      warp's rows (values and scales) and an mbarrier tracks their bytes, so
      N - 1 iterations are in flight without holding registers. Needs
      `stage_b`, `k_split = 1`, rows that are whole iterations long, and A
      and its scales 16-byte aligned (bulk copies); the ring is its own
      pipeline, so `prefetch` and `prefetch_distance` keep their defaults.

    Example: `#nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1,
    bytes_per_thread = 16, unroll = 4, stage_b = true>`.
  }];
  let parameters = (ins "int64_t":$warps_per_cta, "int64_t":$rows_per_warp,
                        "int64_t":$bytes_per_thread, "int64_t":$unroll,
                        NVFP4_BoolParameter<"false">:$stage_b,
                        NVFP4_BoolParameter<"true">:$prefetch,
                        DefaultValuedParameter<"int64_t", "1">:$k_split,
                        DefaultValuedParameter<"int64_t", "1">:$row_groups,
                        DefaultValuedParameter<"int64_t", "0">:$stages,
                        DefaultValuedParameter<"int64_t", "1">:$prefetch_distance);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Rows of A one CTA computes per row group.
    int64_t getRowsPerCta() const {
      return getWarpsPerCta() / getKSplit() * getRowsPerWarp();
    }
    /// The launch grid's x dimension for `rows` rows per batch: one CTA per
    /// row_groups groups of rows.
    int64_t getGridX(int64_t rows) const {
      return (rows + getRowsPerCta() * getRowGroups() - 1) /
             (getRowsPerCta() * getRowGroups());
    }
    /// The most row groups a CTA can use on `rows` rows: more leave the
    /// extra groups without rows (one CTA covers them all already).
    int64_t getMaxRowGroups(int64_t rows) const {
      return (rows + getRowsPerCta() - 1) / getRowsPerCta();
    }
    /// Packed fp4 bytes of one row that one outer iteration of a warp covers.
    int64_t getIterationBytes() const {
      return 32 * getKSplit() * getBytesPerThread() * getUnroll();
    }
    /// stages > 0: bytes of one ring slot (values and scales of the warp's
    /// rows for one outer iteration) and of the CTA's whole ring with its
    /// 8-byte mbarriers.
    int64_t getRingSlotBytes() const {
      return getRowsPerWarp() * (getIterationBytes() + getIterationBytes() / 8);
    }
    int64_t getRingBytes() const {
      int64_t slots = getWarpsPerCta() * getStages();
      return slots * getRingSlotBytes() + (slots * 8 + 15) / 16 * 16;
    }
  }];
}

def NVFP4_GemmPlanAttr : AttrDef<NVFP4_Dialect, "GemmPlan",
    [DeclareAttrInterfaceMethods<NVFP4_PlanAttrInterface>]> {
  let mnemonic = "gemm_plan";
  let summary = "How a block-scaled GEMM (scaled_matmul, N > 1) maps to tensor cores";
  let description = [{
    Chosen by `nvfp4-plan` per target and shape; a user or an autotuner may
    write it in the IR instead (the plan pass keeps it and checks it against
    the shape and the target).

    The operands are swapped for the MMA: B's rows (N, the weights: the
    large side in the contest shapes) are the MMA's M, A's rows (M, the
    activations) are the MMA's N. A CTA computes a tile of
    `64 * warpgroups` rows of B by `tile_m` rows of A.

    - `warpgroups` (1 or 2): consumer warpgroups of the CTA; each owns 64
      rows of B (one sm_90a `wgmma` M) and dequantizes them in registers.
    - `tile_m`: rows of A per CTA, the MMA's N: a multiple of 8 in
      [8, 192]. Each 64-wide K chunk of them is `tile_m x 128` bytes of
      decoded, 128B-swizzled f16 in shared memory.
    - `stages` (default 0): 0 decodes A inside every CTA, into two shared-
      memory buffers (decode of chunk c + 1 overlaps the MMAs of chunk c).
      N >= 2 decodes A once, in a pre-pass kernel, into a workspace laid
      out as rows of 64 f16 per K chunk; the GEMM CTA then streams the tiles
      through a ring of N shared-memory slots with TMA tile copies (a
      tensor map passed by value, 128B-swizzled by the copy; a full and an
      empty mbarrier per slot), N / k_split - 1 rounds ahead of the MMAs
      (dynamic shared memory).
    - `k_split` (default 1; 2 to 4 need `stages`, a multiple of k_split):
      warpgroups that share each 64-row tile of B and split its K chunks
      (chunk j of the CTA's K goes to warpgroup j % k_split of the tile);
      their partial
      accumulators meet in shared memory at the end. More warps per SM
      hide the decode's latency when the grid has one CTA per SM.
    - `split_k` (default 1; [1, 8]; split_k > 1 needs stages > 0 and a K / 64
      divisible by it): CTAs that split K between them, each summing its
      share of the chunks into an fp32 partial tile in a workspace; a small
      kernel (`nvfp4.sum_splits`) adds the partials and writes C. For grids
      that would leave most SMs idle without decoding B again per tile of
      A.
    - `split_cluster` (default false; true needs split_k > 1): the split_k
      CTAs of a tile form a thread-block cluster (the grid's
      z) and add their partial tiles on chip instead: CTAs 1.. write their
      accumulators into the first one's ring memory (distributed shared
      memory) once its K loop is over, and it adds them in split order and
      writes C as an unsplit CTA would. No fp32 partials in global memory
      and no sum kernel. The planner's split-K plans set it (H100,
      performance.md GEMM v26).
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
      their scale codes reach the ring's slots by TMA with A's tile (behind it in the slot: `64 x warpgroups`
      rows of 32 bytes, then 16 bytes of scale codes a row, or the chunk's
      512-byte 128 x 4 atom with blocked scales), and the consumers read
      them from shared memory just before they decode them. The ring's
      depth then covers B's memory latency instead of registers
      (`b_prefetch` must stay 2), and B's loads bypass L1. Plain scales
      need K % 256 == 0 (their tensor map's row stride, K / 16 bytes, must
      be a multiple of 16).

    The K loop steps 64 values (4 MMAs of K = 16); K must be a multiple of
    64.

    Example: `#nvfp4.gemm_plan<warpgroups = 1, tile_m = 128, stages = 6,
    k_split = 2>`.
  }];
  let parameters = (ins "int64_t":$warpgroups, "int64_t":$tile_m,
                        DefaultValuedParameter<"int64_t", "0">:$stages,
                        DefaultValuedParameter<"int64_t", "1">:$k_split,
                        DefaultValuedParameter<"int64_t", "2">:$b_prefetch,
                        DefaultValuedParameter<"int64_t", "1">:$split_k,
                        NVFP4_BoolParameter<"false">:$producer,
                        NVFP4_BoolParameter<"false">:$split_cluster,
                        NVFP4_BoolParameter<"false">:$b_tma);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Registers per thread the verifier budgets: the tile_m / 2
    /// accumulators, 6 per round of B in flight, about 58 more, and 16 more
    /// with two `rounds` of ring slots per K group (stages / k_split).
    static int64_t estimateRegisters(int64_t tileM, int64_t bPrefetch,
                                     int64_t rounds) {
      return tileM / 2 + 6 * bPrefetch + 58 + (rounds == 2 ? 16 : 0);
    }
    /// Threads of the CTA's consumer warpgroups (all of its threads but the
    /// producer warpgroup).
    int64_t getConsumerThreads() const {
      return 128 * getWarpgroups() * getKSplit();
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
      return consumerRegisters(getWarpgroups() * getKSplit());
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
    /// Rows of B (the MMA's M) one CTA computes.
    int64_t getTileN() const { return 64 * getWarpgroups(); }
    /// The kernel's cluster shape (x, y, z): a split_cluster's split_k CTAs
    /// along z; 1 x 1 x 1 without a cluster.
    llvm::SmallVector<int64_t, 3> getClusterShape() const {
      if (getSplitCluster())
        return {1, 1, getSplitK()};
      return {1, 1, 1};
    }
    /// K values per loop iteration.
    static constexpr int64_t kTileK = 64;
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
    /// use the first 512 (the chunk's 128 x 4 atom).
    int64_t getSfbSlotBytes() const { return getTileN() * 16; }
    /// Bytes of one ring slot: A's tile, and with b_tma B's chunk and its
    /// scale codes (multiples of 1024, so every slot keeps the 128B
    /// swizzle's alignment).
    int64_t getSlotBytes() const {
      return slotBytes(getTileM(), getWarpgroups(), getBTma());
    }
    static int64_t slotBytes(int64_t tileM, int64_t warpgroups, bool bTma) {
      return tileM * kTileK * 2 + (bTma ? 64 * warpgroups * (kTileK / 2 + 16)
                                        : 0);
    }
    /// b_tma: where B's scale codes start in a slot.
    int64_t getSfbSlotOffset() const {
      return getATileBytes() + getBSlotBytes();
    }
    /// Bytes of the pre-pass's decoded tiles of A ([batch x] m x k).
    int64_t getATilesBytes(int64_t batch, int64_t m, int64_t k) const {
      return batch * ((m + getTileM() - 1) / getTileM()) * (k / kTileK) *
             getATileBytes();
    }
    /// Whether split-K's partials go through global memory to a sum kernel
    /// (split_k > 1 without split_cluster).
    bool needsSumKernel() const {
      return getSplitK() > 1 && !getSplitCluster();
    }
    /// Bytes of the fp32 partial tiles CTAs write to global memory
    /// (split_k x [batch x] m x n floats), 0 without split-K, or with
    /// split_cluster (the partials stay on chip).
    int64_t getPartialsBytes(int64_t batch, int64_t m, int64_t n) const {
      return needsSumKernel() ? getSplitK() * batch * m * n * 4 : 0;
    }
    /// Bytes of the ring memory reused after the K loop: the k_split - 1
    /// later K groups' accumulators, handed to the first group, and above
    /// them a split_cluster's split_k - 1 other splits' accumulators,
    /// written into the first CTA's (tile_m / 2 floats per consumer thread
    /// of a group). Side by side, not overlaid: the first group may still
    /// be loading the K groups' sums when the other splits start writing.
    static int64_t scratchBytes(int64_t warpgroups, int64_t tileM,
                                int64_t kSplit, int64_t splitK,
                                bool splitCluster) {
      const int64_t floats = warpgroups * 128 * (tileM / 2);
      return kGroupSumsBytes(warpgroups, tileM, kSplit) +
             (splitCluster ? splitExchangeBytes(splitK, floats) : 0);
    }
    /// Bytes of the k_split - 1 later K groups' accumulators at the ring's
    /// bottom (reduce_k_groups); a staged store and a split exchange lie
    /// above them.
    static int64_t kGroupSumsBytes(int64_t warpgroups, int64_t tileM,
                                   int64_t kSplit) {
      return (kSplit - 1) * warpgroups * 128 * (tileM / 2) * 4;
    }
    int64_t getKGroupSumsBytes() const {
      return kGroupSumsBytes(getWarpgroups(), getTileM(), getKSplit());
    }
    /// Bytes of a split_cluster's exchange in the first CTA's ring (both
    /// targets): the other splits' `floatsPerSplit` fp32 values each. The
    /// plans' scratch, reduce_splits' verifier and its lowering all use it.
    static int64_t splitExchangeBytes(int64_t splits, int64_t floatsPerSplit) {
      return (splits - 1) * floatsPerSplit * 4;
    }
    int64_t getScratchBytes() const {
      return scratchBytes(getWarpgroups(), getTileM(), getKSplit(),
                          getSplitK(), getSplitCluster());
    }
    /// Dynamic shared memory of a ring plan (stages > 0): the slots, or the
    /// scratch reusing them if larger, 1024 bytes of slack to align them for
    /// the 128B swizzle, and the slots' full and empty mbarriers.
    static int64_t ringBytes(int64_t stages, int64_t slotBytes,
                             int64_t scratch) {
      return std::max(stages * slotBytes, scratch) + 1024 + 16 * stages;
    }
    /// stages = 0: static shared memory, two decoded buffers; stages > 0:
    /// the ring (ringBytes).
    int64_t getSharedBytes() const {
      if (getStages() == 0)
        return 2 * getATileBytes();
      return ringBytes(getStages(), getSlotBytes(), getScratchBytes());
    }

  }];
}

def NVFP4_Tcgen05PlanAttr : AttrDef<NVFP4_Dialect, "Tcgen05Plan",
    [DeclareAttrInterfaceMethods<NVFP4_PlanAttrInterface>]> {
  let mnemonic = "tcgen05_plan";
  let summary = "How a block-scaled GEMM maps to sm_100a tcgen05 tensor cores";
  let description = [{
    The sm_100a (Blackwell) form of a GEMM's plan, chosen by `nvfp4-plan`
    for that target (or written in the IR, and then checked). The operands
    are swapped as in `#nvfp4.gemm_plan`: a CTA computes 128 rows of B (the
    weights, the MMA's M: one `tcgen05.mma.cta_group::1` of M = 128) by
    `tile_m` rows of A (the activations, the MMA's N), accumulated in
    tensor memory (TMEM), with e2m1 operands and e4m3 block16 scales read
    by the MMA itself (`kind::mxf4nvf4.block_scale`). The CTA is 4 warps:
    thread 0 copies the tiles (TMA) and the scales (bulk copies) into the
    ring, thread 32 issues the scale copies into TMEM (`tcgen05.cp`) and
    the MMAs, and all 4 warps read the accumulator out of TMEM (one lane
    quadrant each) and store C.

    - `tile_m` (32, 64, 128 or 256): rows of A per CTA, the MMA's N. The
      scales of A are copied in 128-row blocks of the blocked layout; a
      tile of fewer rows reads its part of the block (a TMEM column offset
      of (row % 128) / 32).
    - `stages` ([2, 16]): ring slots of 256 K values each (4 MMAs of K =
      64): the tile of B (16 KiB), the tile of A (tile_m x 128 bytes), both
      128B-swizzled, and their scales (2 KiB per 128 rows). Each slot also
      has its own TMEM columns for its scales, so a slot's scale copy never
      overwrites scales an MMA of another slot may still read.
    - `split_k` (default 1; [1, 8]; dividing ceil(K / 256)): CTAs that
      split K, each writing an fp32 partial tile that `nvfp4.sum_splits`
      adds.
    - `split_cluster` (default false; true needs split_k > 1): the split_k
      CTAs of a tile form a 1 x 1 x split_k thread-block cluster and add
      their accumulators on chip instead (`nvfp4.tcgen05.reduce_splits`:
      the other CTAs copy theirs from TMEM into the first one's ring memory
      through distributed shared memory, and it adds them into its TMEM
      before it stores C): no fp32 partials and no sum kernel.

    K must be a multiple of 64. The slots copy the scales in the blocked
    layout (the 128 x 4 atoms `tcgen05.cp` copies as they are), 256 K
    values at a time: plain scales, and blocked ones when K is not a
    multiple of 256, are first written blocked and zero-padded to whole
    slots by `nvfp4.block_scales_tile` (a pre-pass kernel `nvfp4-tile` adds);
    the last slot's MMAs past K then add zero (TMA reads values past K as
    zero).

    Example: `#nvfp4.tcgen05_plan<tile_m = 128, stages = 6>`.
  }];
  let parameters = (ins "int64_t":$tile_m, "int64_t":$stages,
                        DefaultValuedParameter<"int64_t", "1">:$split_k,
                        NVFP4_BoolParameter<"false">:$split_cluster);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Rows of B per CTA: the MMA's M (cta_group::1).
    static constexpr int64_t kTileN = 128;
    /// K values per ring slot (4 MMAs of K = 64), and bytes of one row's
    /// share of them (packed e2m1: one 128B swizzle row).
    static constexpr int64_t kStageK = 256;
    static constexpr int64_t kStageRowBytes = kStageK / 2;
    /// K values per MMA.
    static constexpr int64_t kMmaK = 64;
    /// Bytes of the scales of 128 rows over one slot's K (4 atoms of the
    /// blocked layout, contiguous in it).
    static constexpr int64_t kScaleBlockBytes = 4 * 512;
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
    /// Byte offsets inside a slot: B's tile, A's tile, B's scales, A's
    /// scales; and the slot's size (1024-byte multiples keep every slot
    /// aligned for the swizzle).
    static constexpr int64_t kBOffset = 0;
    int64_t getAOffset() const { return kTileN * kStageRowBytes; }
    int64_t getSfbOffset() const {
      return getAOffset() + getTileM() * kStageRowBytes;
    }
    int64_t getSfaOffset() const { return getSfbOffset() + kScaleBlockBytes; }
    int64_t getSlotBytes() const {
      int64_t end = getSfaOffset() + getScaleBlocksA() * kScaleBlockBytes;
      return (end + 1023) / 1024 * 1024;
    }
    /// Bytes of the first CTA's ring memory into which the other split_k - 1
    /// CTAs of a split_cluster copy their fp32 accumulators; 0 otherwise.
    int64_t getSplitExchangeBytes() const {
      return getSplitCluster() ? GemmPlanAttr::splitExchangeBytes(
                                     getSplitK(), kThreads * getTileM())
                               : 0;
    }
    /// Dynamic shared memory: the ring (slots, or the splits' exchange that
    /// reuses them if larger, 1024 bytes of alignment slack, a full and an
    /// empty mbarrier per slot).
    int64_t getSharedBytes() const {
      return std::max(getStages() * getSlotBytes(), getSplitExchangeBytes()) +
             1024 + 16 * getStages();
    }
    /// The kernel's cluster shape (x, y, z): a split_cluster's split_k CTAs
    /// along z, else 1 x 1 x 1.
    llvm::SmallVector<int64_t, 3> getClusterShape() const {
      return {1, 1, getSplitCluster() ? getSplitK() : 1};
    }
    /// TMEM columns: the fp32 accumulator (one column per row of A) from
    /// column 0, then per slot B's scales (4 columns per MMA) and A's
    /// (4 per MMA and block of 128 rows).
    int64_t getSfbColumnsPerMma() const { return 4; }
    int64_t getSfaColumnsPerMma() const { return 4 * getScaleBlocksA(); }
    int64_t getScaleColumnsPerSlot() const {
      return (kStageK / kMmaK) *
             (getSfbColumnsPerMma() + getSfaColumnsPerMma());
    }
    int64_t getScaleColumnBase() const { return getTileM(); }
    int64_t getTmemColumnsUsed() const {
      return getScaleColumnBase() + getStages() * getScaleColumnsPerSlot();
    }
    /// The allocation: a power of two >= 32 (tcgen05.alloc), or 0 when the
    /// columns exceed TMEM's 512.
    int64_t getTmemColumns() const {
      int64_t columns = 32;
      while (columns < getTmemColumnsUsed())
        columns *= 2;
      return columns <= 512 ? columns : 0;
    }
    /// Whether split-K's partials go through global memory to a sum kernel
    /// (split_k > 1 without split_cluster).
    bool needsSumKernel() const {
      return getSplitK() > 1 && !getSplitCluster();
    }
    /// Bytes of the fp32 partial tiles split_k > 1 CTAs write to global
    /// memory (none with split_cluster).
    int64_t getPartialsBytes(int64_t batch, int64_t m, int64_t n) const {
      return needsSumKernel() ? getSplitK() * batch * m * n * 4 : 0;
    }
  }];
}

#endif // NVFP4_ATTRS_TD
