//===- NVFP4WgmmaOps.td - the sm_90a wgmma consumer --------*- tablegen -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The per-thread pieces of the sm_90a consumer of the ring: register
// accumulators, weights dequantized in registers into wgmma's A
// fragments, the K groups' and splits' sums and the store
// (WgmmaOps.cpp, ReduceSplits.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_WGMMA_OPS_TD
#define NVFP4_WGMMA_OPS_TD

include "NVFP4Types.td"

//===----------------------------------------------------------------------===//
// The sm_90a consumer: a warpgroup's wgmma with B dequantized in registers
//===----------------------------------------------------------------------===//

/// One K chunk of a thread's wgmma A fragments: 4 MMA steps x 4 registers
/// of f16 pairs.
def NVFP4_WgmmaFragments
    : Type<VectorOfLengthAndType<[16], [I32]>.predicate,
           "vector<16xi32> (wgmma A fragments of a K chunk)",
           "::mlir::VectorType">,
      BuildableType<"::mlir::VectorType::get({16}, $_builder.getI32Type())">;

def NVFP4_WgmmaLoadBOp : NVFP4_WgmmaOp<"wgmma.load_b"> {
  let summary = "Load this thread's raw bytes and scales of one K chunk of B";
  let description = [{
    The thread's share of a K chunk (64 values) of the warpgroup's 64 rows
    of B starting at `row` (i32) of batch `batch`: thread t of the
    warpgroup (w = t / 32, g = t % 32 / 4, q = t % 4) reads bytes
    8q .. 8q + 7 of the chunk of its two fragment rows, row + 16w + g
    (`bytes0`, `scale0`) and row + 16w + g + 8 (`bytes1`, `scale1`),
    clamped to N, and their scale codes of block q. Returned raw, so that a
    loop can carry them while the loads are in flight; scalars, because
    that is how the registers are carried (a vector of two i8 makes ptxas
    pack and unpack them every round). Scales are read in `sfb_layout`.

    Example:
    ```mlir
    %b0, %b1, %s0, %s1 = nvfp4.wgmma.load_b ins(%b, %sfb
        : memref<7168x16384xf4E2M1FN>, memref<7168x1024xf8E4M3FN>)
        row %row chunk %chunk batch %l
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_FP4Memref, "B values", [MemRead]>:$b,
    Arg<NVFP4_ScaleMemref, "B scales", [MemRead]>:$sfb,
    I32:$row, I32:$chunk, Index:$batch,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout);
  let results = (outs I64:$bytes0, I64:$bytes1, I8:$scale0, I8:$scale1);
  let assemblyFormat = [{
    `ins` `(` $b `,` $sfb `:` type($b) `,` type($sfb) `)`
    `row` $row `chunk` $chunk `batch` $batch attr-dict
  }];
  let hasVerifier = 1;
}

def NVFP4_WgmmaReadBOp : NVFP4_WgmmaOp<"wgmma.read_b"> {
  let summary = "Read this thread's raw bytes and scales of B's chunk in a ring slot";
  let description = [{
    `wgmma.load_b` for plans whose producer copies B's chunks into the ring
    (`b_tma`): the same four results, read from shared memory once the
    slot is full. The slot holds the chunk of the CTA's rows of B at
    `b_offset` (32 bytes a row) and their scale codes at `sfb_offset`, 16
    bytes a row: plain, the 16-byte aligned window of codes (4 chunks'
    NVFP4, 8 chunks' MXFP4: what a TMA box of 16 bytes brings) that holds
    the chunk's; blocked, the 128 x 4 atom (one chunk's NVFP4, two
    chunks' MXFP4) of the 128 rows from `atom_row` rows before the slot's
    first row. `sfb_chunk` is the chunk's place among those chunks (its
    codes, 4 NVFP4 or 2 MXFP4, start at byte `sfb_chunk` x 4 or x 2 of a
    row's 16). `row` is the warpgroup's first row in the
    slot; thread t (w = t / 32, g = t % 32 / 4, q = t % 4) reads rows
    row + 16w + g and row + 16w + g + 8, bytes 8q .. 8q + 7 and the scale
    code of their block (NVFP4: code q; MXFP4: code q / 2) of each. The
    slot must hold `row` + 64 rows from `b_offset` and `sfb_offset` (the
    pipeline gives each warpgroup its 64 rows of the CTA's); the verifier
    checks the first 64.

    Example:
    ```mlir
    %b0, %b1, %s0, %s1 = nvfp4.wgmma.read_b %ring[%slot] row %row
        atom_row %arow sfb_chunk %w b_offset 16384 sfb_offset 18432
        : !nvfp4.ring<stages = 6, slot_bytes = 19456, consumers = 4>
    ```
  }];
  let arguments = (ins
    NVFP4_RingType:$ring, I32:$slot, I32:$row, I32:$atom_row, I32:$sfb_chunk,
    ConfinedAttr<I64Attr, [IntNonNegative]>:$b_offset,
    ConfinedAttr<I64Attr, [IntNonNegative]>:$sfb_offset,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout,
    DefaultValuedAttr<NVFP4_ScaleFormatAttr, "ScaleFormat::NVFP4">:$format);
  let results = (outs I64:$bytes0, I64:$bytes1, I8:$scale0, I8:$scale1);
  let assemblyFormat = [{
    $ring `[` $slot `]` `row` $row `atom_row` $atom_row `sfb_chunk` $sfb_chunk
    `b_offset` $b_offset
    `sfb_offset` $sfb_offset attr-dict `:` qualified(type($ring))
  }];
  let hasVerifier = 1;
}

def NVFP4_WgmmaDecodeBOp : NVFP4_WgmmaOp<"wgmma.decode_b", [Pure]> {
  let summary = "Dequantize a loaded chunk of B into wgmma's register A fragments";
  let description = [{
    NVFP4: value x scale x 2^-14 in f16 pairs (exact: the e2m1 bits placed
    in f16's give the value times 2^-14, and e2m1 x e4m3 x 2^-14 fits f16),
    so with A's tile decoded the same way the accumulators hold 2^-28 of
    the products.
    MXFP4 (`format = mxfp4`): value x 2^(code - 129) in bf16 pairs (exact
    for every e2m1 value and e8m0 code: the quarter keeps 6 x 2^127 in
    bf16's range, and 0.5 x 2^-129 is a bf16 subnormal), which the
    pipeline's `nvfp4.wgmma.mma` with the same format multiplies with A's
    tile decoded the same way, so the accumulators hold 1/16 of the
    products. The pipeline scales the sums back after the K loop
    (ATileWorkspace.h). MXFP4's decode votes across the warp (one multiply
    a pair where every lane's codes allow it), so all 32 lanes must run the
    op together. The pairs are arranged as the A fragments of the chunk's 4
    MMAs of K = 16: registers 4s .. 4s + 3 are step s's (rows g and g + 8,
    K slots {2q, 2q + 1} and {2q + 8, 2q + 9} in the permuted K order of
    GemmSm90.cpp).

    Example:
    ```mlir
    %frags = nvfp4.wgmma.decode_b %b0, %b1, %s0, %s1
    ```
  }];
  let arguments = (ins I64:$bytes0, I64:$bytes1, I8:$scale0, I8:$scale1,
      DefaultValuedAttr<NVFP4_ScaleFormatAttr, "ScaleFormat::NVFP4">:$format);
  let results = (outs NVFP4_WgmmaFragments:$fragments);
  let assemblyFormat = [{
    $bytes0 `,` $bytes1 `,` $scale0 `,` $scale1 attr-dict
  }];
}

def NVFP4_WgmmaMmaOp : NVFP4_WgmmaOp<"wgmma.mma",
    [AllTypesMatch<["acc", "result"]>]> {
  let summary = "The 4 asynchronous MMAs of one K chunk on a ring slot";
  let description = [{
    The warpgroup issues `wgmma.mma_async m64n<N>k16` for the 4 steps of a
    K chunk (fence, 4 MMAs, commit group): register A = `fragments`,
    descriptor B = the slot's decoded, 128B-swizzled tile of N = 2 x
    len(acc) rows of A. The result is the accumulator after these MMAs; it
    may only be read after a `nvvm.wgmma.wait.group.sync.aligned` that
    leaves this group complete (except as the accumulator of a later
    `nvfp4.wgmma.mma`, which the hardware chains), and the slot may only be
    released then. With `format = mxfp4` the fragments and the tile are
    bf16 (`nvfp4.wgmma.decode_b`), the MMAs `.bf16.bf16`.

    N may be less than the slot's tile has rows: the MMAs read its first N
    rows. A grouped GEMM's tile whose group has fewer rows than the tile
    uses that to do only the work its rows need, with accumulators of that
    width (an accumulator that passed through an MMA unchanged would make
    ptxas serialize the wgmmas).

    `a_offset` (default 0) is where the tile starts in the slot, a multiple
    of 1024 (the 128B swizzle's alignment): a slot of two K chunks
    (`slot_chunks = 2`) holds the second chunk's tile behind the first
    chunk's region.

    Example:
    ```mlir
    %acc1 = nvfp4.wgmma.mma %acc, %frags, %ring[%slot]
        : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>,
          vector<64xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc,
                       NVFP4_WgmmaFragments:$fragments,
                       NVFP4_RingType:$ring, I32:$slot,
                       DefaultValuedAttr<NVFP4_ScaleFormatAttr,
                                         "ScaleFormat::NVFP4">:$format,
                       DefaultValuedAttr<ConfinedAttr<I64Attr,
                                         [IntNonNegative]>, "0">:$a_offset);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `,` $fragments `,` $ring `[` $slot `]` attr-dict `:`
    qualified(type($ring)) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def NVFP4_WgmmaReduceKGroupsOp : NVFP4_WgmmaOp<"wgmma.reduce_k_groups",
    [AllTypesMatch<["acc", "result"]>]> {
  let summary = "Add the accumulators of a CTA's K groups into the first group's";
  let description = [{
    Every thread of the CTA executes it after the K loop (all MMAs
    complete, and every fill of the ring landed: it overwrites the slots).
    The CTA is exactly `groups` K groups of `warpgroups` warpgroups (group =
    warpgroup index / warpgroups; checked against the kernel's
    `known_block_size` when it has one); groups 1.. store
    their accumulators in the ring's memory (its scratch, from the bottom
    of its data) and group 0 adds them in group order. The result is the
    sum in group 0 (undefined elsewhere).

    Example:
    ```mlir
    %sum = nvfp4.wgmma.reduce_k_groups %acc in %ring groups 2 warpgroups 1
        : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1,
                      scratch_bytes = 32768>, vector<64xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc,
                       NVFP4_RingType:$ring,
                       ConfinedAttr<I64Attr, [IntMinValue<2>]>:$groups,
                       ConfinedAttr<I64Attr, [IntMinValue<1>]>:$warpgroups);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `in` $ring `groups` $groups `warpgroups` $warpgroups attr-dict `:`
    qualified(type($ring)) `,` type($acc)
  }];
  let extraClassDeclaration = [{
    /// Bytes of the ring's data it uses, from the bottom: the accumulators
    /// of groups 1.. (`floats` a thread; the plan reserves the same).
    static int64_t getScratchNeed(int64_t groups, int64_t warpgroups,
                                  int64_t floats) {
      return (groups - 1) * warpgroups * 128 * floats * 4;
    }
    int64_t getScratchNeed() {
      return getScratchNeed(getGroups(), getWarpgroups(),
                            getAcc().getType().getNumElements());
    }
  }];
  let hasVerifier = 1;
}

def NVFP4_WgmmaSwapHalvesOp : NVFP4_WgmmaOp<"wgmma.swap_halves"> {
  let summary = "Swap halves of two warpgroups' accumulators";
  let description = [{
    The end of a `split_weights` K loop: the CTA's two consumer warpgroups
    (threads 0-255; each multiplied one weight into a fragment of N floats
    a thread, 2N rows of A) execute it after the K loop (all MMAs complete,
    every fill of the ring landed: it overwrites the slots). Warpgroup w
    keeps half w of its fragment (floats [w N / 2, (w + 1) N / 2): rows
    w N .. (w + 1) N - 1 of the tile of A, in whole 8-column groups) and
    hands the other half to the other warpgroup through the ring's memory,
    from the bottom of its data; the result is the other warpgroup's half
    w. Each warpgroup then holds both weights' values of its half of the
    tile's rows and applies the gate and stores them itself.

    Example:
    ```mlir
    %theirs = nvfp4.wgmma.swap_halves %acc in %ring
        : !nvfp4.ring<stages = 8, slot_bytes = 22528, consumers = 8,
                      scratch_bytes = 32768>, vector<64xf32> -> vector<32xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc,
                       NVFP4_RingType:$ring);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `in` $ring attr-dict `:` qualified(type($ring)) `,` type($acc) `->`
    type($result)
  }];
  let extraClassDeclaration = [{
    /// Bytes of the ring's data it uses, from the bottom: each warpgroup's
    /// half it hands over (`halfFloats` a thread; the plan reserves the
    /// same).
    static int64_t getScratchNeed(int64_t halfFloats) {
      return 2 * 128 * halfFloats * 4;
    }
    int64_t getScratchNeed() {
      return getScratchNeed(getResult().getType().getNumElements());
    }
  }];
  let hasVerifier = 1;
}

def NVFP4_WgmmaReduceSplitsOp : NVFP4_WgmmaOp<"wgmma.reduce_splits",
    [AllTypesMatch<["acc", "result"]>]> {
  let summary =
      "Add the accumulators of a cluster's split-K CTAs into the first CTA's";
  let description = [{
    The on-chip end of split-K (`#nvfp4.split_k` in mode `cluster`): the
    `splits` CTAs that split K of one tile form a thread-block cluster
    (cluster rank = split), and the threads that hold each CTA's tile sum
    (K group 0: `warpgroups` warpgroups, CTA threads 0 .. 128 x warpgroups)
    execute this op once their K loop is over (after
    `nvfp4.wgmma.reduce_k_groups`, if any). No other thread of the kernel may
    execute it or any other cluster barrier: they exit, which is how they
    take part (`barrier.cluster` waits for the cluster's non-exited threads
    only).

    Two phases of the cluster barrier order it:
    1. every holder arrives (relaxed) and waits, so every CTA of the
       cluster has started and each CTA's other threads have exited: CTA
       0's ring memory is no longer read or written by it;
    2. CTAs 1.. write their accumulators into the ring memory of CTA 0
       (distributed shared memory: CTA r's element i of thread t at float
       ((r - 1) x len(acc) + 4 (i / 4)) x T + 4t + i % 4, T threads, in
       16-byte stores, of an area at the top of the ring's data, above the
       K groups' sums of `nvfp4.wgmma.reduce_k_groups`, which the verifier
       checks fit below it) and arrive with release semantics; CTA 0
       arrives (relaxed), waits with acquire semantics and adds them to its
       own in rank order.

    Phase 1's arrive is relaxed because CTA 0's last uses of that area are
    complete by then: TMA copies whose mbarriers were waited for and MMAs
    that were waited for. Plain loads still in flight, the K groups' sums,
    lie below it. With `release_reads` the holders also read ring slots
    with plain loads in their K loop (plans with `b_tma`, whose last round
    reads its own slot again), so phase 1's arrive releases them (a
    MEMBAR.ALL.GPU a thread on the H100). With `a_tiles T` instead the
    area skips those bytes: it lies in the first T bytes (A's tile, which
    only TMA writes and only MMAs read) of each of the ring's last
    ceil(bytes / T) slots, area byte o at slot byte (o / T) x slot_bytes +
    o % T of them, and phase 1 stays relaxed (performance.md, GEMM v33).
    The verifier checks that either layout fits the ring above the K
    groups' sums.

    Results: `first`, whether this CTA is the cluster's first (rank 0),
    the one that stores; and the tile's sum there (its own partial first,
    the same order as `nvfp4.sum_splits`), undefined in the others, which
    store nothing. The kernel must declare its clusters
    (`known_cluster_size` 1 x 1 x `splits`).

    Example:
    ```mlir
    %first, %sum = nvfp4.wgmma.reduce_splits %acc in %ring splits 2
        warpgroups 1 : !nvfp4.ring<stages = 9, slot_bytes = 16384,
        consumers = 1, scratch_bytes = 65536>, vector<64xf32>
    ```
  }];
  let arguments = (ins
    VectorOfRankAndType<[1], [F32]>:$acc, NVFP4_RingType:$ring,
    ConfinedAttr<I64Attr, [IntMinValue<2>, IntMaxValue<8>]>:$splits,
    ConfinedAttr<I64Attr, [IntMinValue<1>]>:$warpgroups,
    UnitAttr:$release_reads,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$a_tiles);
  let results = (outs I1:$first, VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `in` $ring `splits` $splits `warpgroups` $warpgroups
    (`release_reads` $release_reads^)? (`a_tiles` $a_tiles^)? attr-dict `:`
    qualified(type($ring)) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def NVFP4_WgmmaReduceScatterSplitsOp : NVFP4_WgmmaOp<"wgmma.reduce_scatter_splits"> {
  let summary =
      "Add the accumulators of a cluster's split-K CTAs, each CTA a part of them";
  let description = [{
    The symmetric form of `nvfp4.wgmma.reduce_splits` (same holders, same
    cluster, same two phases of the cluster barrier): instead of every
    split handing its whole tile to the first CTA, which alone adds and
    stores, the tile's rows of A are cut into `splits` equal parts and CTA r
    (cluster rank r) adds and stores part r. Each CTA writes its fragments
    of the other parts into their owners' rings (distributed shared memory:
    the values of rank q's part from sender rank p, p != q, at sender slot
    s = p - (p > q) of q's area, float (s x len(result) + 4 (i / 4)) x T +
    4t + i % 4 for element i of part q of thread t, T threads, in 16-byte
    stores), arrives at phase 2 with release semantics and waits (acquire);
    then it adds the parts it received to its own in rank order, as
    `nvfp4.sum_splits` adds partials in split order. Every CTA moves and
    adds (splits - 1) / splits of a tile instead of the first CTA all of it,
    and all of them store.

    The part is a multiple of 4 accumulators: element 4j + e of the result
    is element 4 (r x G + j) + e of `acc`, G = len(result) / 4, so it is the
    D fragment of the tile's rows of A from r x len(acc) x 2 / splits (a
    wgmma tile of `2 x len(result)` rows): the first result is that row
    offset (i32). `release_reads` and `a_tiles` as for
    `nvfp4.wgmma.reduce_splits`.

    Example:
    ```mlir
    %m0, %part = nvfp4.wgmma.reduce_scatter_splits %acc in %ring splits 2
        warpgroups 1 : !nvfp4.ring<stages = 6, slot_bytes = 19456,
        consumers = 4>, vector<64xf32> -> vector<32xf32>
    ```
  }];
  let arguments = (ins
    VectorOfRankAndType<[1], [F32]>:$acc, NVFP4_RingType:$ring,
    ConfinedAttr<I64Attr, [IntMinValue<2>, IntMaxValue<8>]>:$splits,
    ConfinedAttr<I64Attr, [IntMinValue<1>]>:$warpgroups,
    UnitAttr:$release_reads,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$a_tiles);
  let results = (outs I32:$row_offset, VectorOfRankAndType<[1], [F32]>:$part);
  let assemblyFormat = [{
    $acc `in` $ring `splits` $splits `warpgroups` $warpgroups
    (`release_reads` $release_reads^)? (`a_tiles` $a_tiles^)? attr-dict `:`
    qualified(type($ring)) `,` type($acc) `->` type($part)
  }];
  let hasVerifier = 1;
}

def NVFP4_WgmmaStoreOp : NVFP4_WgmmaOp<"wgmma.store", [AttrSizedOperandSegments]> {
  let summary = "Store a warpgroup's accumulators to its tile of C";
  let description = [{
    The warpgroup's 64 rows of B from `row` (i32) by N = 2 x len(acc)
    rows of A from `m` (i32): thread t's accumulator i is C[m + 8 (i / 4) +
    2q + i % 2][row + 16w + g + 8 ((i / 2) % 2)] (wgmma's D fragment),
    converted to C's element type. The tile is where the GEMM's grid puts
    it: `row` a multiple of 64 and less than N, `m` a multiple of
    2 x len(acc); then elements past M or N are not stored (rows are
    masked when N % 64 != 0, columns when M % (2 x len(acc)) != 0).
    nvfp4-software-pipeline guards the op where a warpgroup's rows can all
    lie past N (not with an MXFP4 C, whose op every warpgroup executes:
    its rows past N are masked).
    With `partials`, the fp32 values go to split `split`'s copy of C in
    it (split-major [split][batch][m][n]) instead.

    `at m %m to %end` (a grouped GEMM's tile): the tile's rows of A are
    C's rows from `m`, which need not be a multiple of anything, and
    those from `end` on are not stored (nor past M).

    `staged in %ring at O`: the tile goes through the ring's shared memory,
    free once the K loop is over, so that C is written in whole lines.
    wgmma's D fragment gives each thread 2-byte pieces of 4 rows of C (a
    warp's store instruction covers 4 rows x 16 bytes, half sectors). Staged,
    the warpgroup writes its converted values into a tile of `len(acc) x 2`
    rows of C by its 64 columns (rows padded by 16 bytes: conflict-free for
    the fragment's pattern) at O + w x getStagedTileBytes() of the ring's
    data, w = thread id / 128 < `warpgroups`, meets at named barrier 2 + w,
    and then stores 16 bytes a thread, 8 threads a row of the tile, each
    warp whole 128-byte lines. Only for C itself (no `partials`) in f16,
    bf16 or f32 with N a multiple of 64; a pass of the 16-byte stores
    covers 16 rows (f16, bf16) or 8 (f32), and each store past the tile's
    rows, past M or from `to` on is skipped (one compare a 16-byte store
    where the fragment's stores make one a 2-byte store). The kernel still
    falls back to the fragment's stores when C's base address plus `row`
    elements is not 16-byte aligned. The caller guarantees that nothing
    else uses those bytes of the ring any more (every consumer warpgroup's
    MMAs and reads of the ring are over, not only this one's: the pipeline
    has the consumers meet named barrier 4 first where no K groups' or
    split cluster's barrier did) and that all the warpgroup's threads
    execute the op; the storing threads are the CTA's first 128 x
    `warpgroups`.

    With e4m3 `c_scales` (C of f4E2M1FN; not staged, no partials), C is
    NVFP4: a row's 16 values of a block are the fragment's 2 values in
    each of the 8 lanes of a quad column (lanes q, q + 4, ..., q + 28),
    whose amax the lanes share by shuffles; each lane quantizes its two
    values, lane pairs exchange their codes, and every even lane stores
    the two bytes it completes, lane q its row's scale.

    With e8m0 `c_scales`, C is MXFP4 (scales rounded by
    `c_scale_rounding`): a block of 32 values spans warps w and w ^ 1 of
    the warpgroup, which exchange their 16-value amaxes through the ring's
    memory at `staging_offset` (required; `getMXExchangeBytes` a
    warpgroup) between two of the warpgroup's named barriers. All
    `warpgroups` warpgroups execute the op (none skips it), and with two
    it first meets a barrier of both (named barrier 4), so that neither
    writes into the ring while the other still reads it; rows past N are
    masked one by one.

    Example:
    ```mlir
    nvfp4.wgmma.store %acc outs(%c : memref<128x7168xf16>)
        at m %m row %row batch %l : vector<64xf32>
    nvfp4.wgmma.store %acc outs(%c : memref<128x7168xf16>)
        at m %m row %row batch %l staged in %ring at 0 warpgroups 1
        : vector<64xf32>, !nvfp4.ring<stages = 8, slot_bytes = 19456,
          consumers = 4>
    ```
  }];
  let arguments = (ins
    VectorOfRankAndType<[1], [F32]>:$acc,
    Arg<NVFP4_GemmOutMemref, "C", [MemWrite]>:$c,
    Arg<Optional<NVFP4_ScaleMemref>, "C's block scales (C in NVFP4 or MXFP4)",
        [MemWrite]>:$c_scales,
    Arg<Optional<NVFP4_GlobalScaleMemref>, "C's per-tensor scale",
        [MemRead]>:$c_global_scale,
    Arg<Optional<MemRefRankOf<[I8], [1]>>, "fp32 partial tiles",
        [MemWrite]>:$partials,
    I32:$m, Optional<I32>:$m_end, I32:$row, Index:$batch,
    Optional<Index>:$split, Optional<NVFP4_RingType>:$staging,
    OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>>:$staging_offset,
    OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>, IntMaxValue<2>]>>:
        $warpgroups,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:
        $c_scales_layout,
    OptionalAttr<NVFP4_ScaleRoundingAttr>:$c_scale_rounding);
  let assemblyFormat = [{
    $acc `outs` `(` $c `:` type($c) `)`
    (`c_scales` `(` $c_scales^ `:` type($c_scales) `)`)?
    (`c_global_scale` `(` $c_global_scale^ `:` type($c_global_scale) `)`)?
    (`partials` `(` $partials^ `:` type($partials) `)`)?
    `at` `m` $m (`to` $m_end^)? `row` $row `batch` $batch (`split` $split^)?
    (`staged` `in` $staging^ `at` $staging_offset `warpgroups` $warpgroups)?
    attr-dict `:` type($acc) (`,` qualified(type($staging))^)?
  }];
  let extraClassDeclaration = [{
    /// Bytes of one warpgroup's staged tile: 2 x `accumulators` rows of C by
    /// 64 columns of `elementBytes`, each row padded by 16 bytes.
    static int64_t getStagedTileBytes(int64_t accumulators,
                                      int64_t elementBytes) {
      return 2 * accumulators * (64 * elementBytes + 16);
    }
    /// Bytes of one warpgroup's exchange of an MXFP4 C's 16-value amaxes:
    /// one f32 per block (len(acc) / 2 a thread) of each quad column (4)
    /// of each warp (4).
    static int64_t getMXExchangeBytes(int64_t accumulators) {
      return 4 * 4 * (accumulators / 2) * 4;
    }
    /// Whether C's tiles can be staged: f16, bf16 or f32 with N a multiple
    /// of 64 (with the op's `row` < N, every row of B's tile inside C;
    /// 16-byte aligned rows).
    static bool canStage(MemRefType c);
  }];
  let hasVerifier = 1;
}

#endif // NVFP4_WGMMA_OPS_TD
