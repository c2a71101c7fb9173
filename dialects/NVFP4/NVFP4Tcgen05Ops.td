//===- NVFP4Tcgen05Ops.td - the sm_100a tcgen05 consumer ---*- tablegen -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The per-thread pieces of the sm_100a consumer of the ring: TMEM
// accumulators, scales copied to TMEM, one MMA thread, the splits' sums
// and the store (GemmSm100.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TCGEN05_OPS_TD
#define NVFP4_TCGEN05_OPS_TD

include "NVFP4Types.td"

//===----------------------------------------------------------------------===//
// The sm_100a consumer: tcgen05 MMAs into tensor memory
//===----------------------------------------------------------------------===//

def NVFP4_TmemAllocOp : NVFP4_Tcgen05Op<"tmem.alloc"> {
  let summary = "Allocate the CTA's tensor memory (every thread)";
  let description = [{
    Every thread of the CTA executes it: warp 0 allocates the type's
    columns (tcgen05.alloc, then gives up the right to allocate more),
    thread 0 initializes the allocation's mbarrier, and after a CTA
    barrier every thread has the base address. A CTA pair's allocation
    (`cta_group = 2`) is made by warp 0 of both CTAs together, and the
    pair meets at a cluster barrier instead (each CTA's mbarriers are then
    initialized before the other arrives on them); its kernel must declare
    clusters of 2 x 1 x 1.
    Example:
    ```mlir
    %tmem = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 512>
    ```
  }];
  let results = (outs NVFP4_TmemType:$tmem);
  let assemblyFormat = "attr-dict `:` qualified(type($tmem))";
  let hasVerifier = 1;
}

def NVFP4_TmemDeallocOp : NVFP4_Tcgen05Op<"tmem.dealloc"> {
  let summary = "Free the CTA's tensor memory (every thread)";
  let description = [{
    Every thread of the CTA executes it once it no longer reads the
    allocation: a CTA barrier (ordered after the threads' tcgen05
    operations; a cluster barrier for a pair's), then warp 0 frees the
    columns (tcgen05.dealloc).
    Example:
    ```mlir
    nvfp4.tmem.dealloc %tmem : !nvfp4.tmem<columns = 512>
    ```
  }];
  let arguments = (ins NVFP4_TmemType:$tmem);
  let assemblyFormat = "$tmem attr-dict `:` qualified(type($tmem))";
}

def NVFP4_Tcgen05CopyScalesOp : NVFP4_Tcgen05Op<"tcgen05.cp"> {
  let summary = "MMA thread: copy one 512-byte scale atom of a slot to TMEM";
  let description = [{
    Issues `tcgen05.cp.cta_group::1.32x128b.warpx4` (`cta_group::2` for a
    pair's allocation: each CTA's atom, from its own slot, into its own
    TMEM): the 32 rows of 16
    bytes at byte `offset` of the slot (one atom of the blocked scale
    layout: 128 rows x 4 scales) go to 4 columns of all 4 lane quadrants of
    TMEM, from column `column + slot x column_step` of the allocation, where
    an MMA reads them as block16 scales. Asynchronous; ordered before the
    thread's later tcgen05.mma, complete when a later commit completes.
    Example:
    ```mlir
    nvfp4.tcgen05.cp %ring[%slot] at 32768 to %tmem column 128 step 32
        : !nvfp4.ring<stages = 6, slot_bytes = 36864, consumers = 1>,
          !nvfp4.tmem<columns = 512>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       NVFP4_TmemType:$tmem,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$column,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$column_step);
  let assemblyFormat = [{
    $ring `[` $slot `]` `at` $offset `to` $tmem `column` $column `step`
    $column_step attr-dict `:` qualified(type($ring)) `,` qualified(type($tmem))
  }];
  let hasVerifier = 1;
}

def NVFP4_Tcgen05MmaOp : NVFP4_Tcgen05Op<"tcgen05.mma"> {
  let summary = "MMA thread: one block-scaled e2m1 MMA (K = 64) on a slot";
  let description = [{
    Issues `tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16`
    (for a pair's allocation `cta_group::2` of M = 256: each CTA's 128 rows
    of the MMA's A and its D, half of the MMA's B rows from each CTA's
    slot)
    (`.block32` when `idesc`'s scale format is ue8m0: MXFP4, two scales a
    row from the half word of each scale cell that the descriptor's scale
    ids select; the ISA would also take ue8m0 with `.block16`, which this
    project does not pair):
    D (f32, from column `d_column`) (+)= (A x SFA) (B x SFB)^T over 64 K
    values, A and B read from the slot through the shared-memory matrix
    descriptors `a_desc` and `b_desc`, whose start-address fields hold
    byte offsets in the slot (the slot's address is added), and the
    instruction descriptor `idesc` (shape, types, scale format), all built
    by include/nvfp4/Target/Tcgen05Descriptors.h. The scales are read
    from TMEM columns `sfa_column + slot x column_step` and
    `sfb_column + slot x column_step + sfb_shift`. With `accumulate`
    false, D is overwritten. In the GEMM, the MMA's A is the tile of the
    weights (B of the product: its rows are the MMA's M) and its B the
    tile of the activations (A of the product).
    Example:
    ```mlir
    nvfp4.tcgen05.mma %tmem, %ring[%slot] accumulate %acc sfb_shift %c0
        {a_desc = 4611756662050996288, b_desc = 4611756662051000384,
         idesc = 135267456 : i32, d_column = 0, sfa_column = 128,
         sfb_column = 144, column_step = 32}
        : !nvfp4.tmem<columns = 512>,
          !nvfp4.ring<stages = 6, slot_bytes = 36864, consumers = 1>
    ```
  }];
  let arguments = (ins NVFP4_TmemType:$tmem, NVFP4_RingType:$ring, I32:$slot,
                       I1:$accumulate, I32:$sfb_shift,
                       I64Attr:$a_desc, I64Attr:$b_desc, I32Attr:$idesc,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$d_column,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$sfa_column,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$sfb_column,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$column_step);
  let assemblyFormat = [{
    $tmem `,` $ring `[` $slot `]` `accumulate` $accumulate `sfb_shift`
    $sfb_shift attr-dict `:` qualified(type($tmem)) `,` qualified(type($ring))
  }];
  let hasVerifier = 1;
}

def NVFP4_Tcgen05ReleaseOp : NVFP4_Tcgen05Op<"tcgen05.release"> {
  let summary = "MMA thread: release a slot once its tcgen05 work completed";
  let description = [{
    `tcgen05.commit` to `empty[slot]`: one arrival once every tcgen05.cp
    and tcgen05.mma the thread issued so far completed (so the slot's
    bytes and its scale columns may be overwritten); for a pair's ring, on
    `empty[slot]` of both CTAs (`.multicast::cluster`). The ring's consumer
    count is the number of such releases per use.
    Example:
    ```mlir
    nvfp4.tcgen05.release %ring[%slot]
        : !nvfp4.ring<stages = 6, slot_bytes = 36864, consumers = 1>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot);
  let assemblyFormat = [{
    $ring `[` $slot `]` attr-dict `:` qualified(type($ring))
  }];
}

def NVFP4_Tcgen05CommitOp : NVFP4_Tcgen05Op<"tcgen05.commit"> {
  let summary = "MMA thread: signal the accumulator once the MMAs completed";
  let description = [{
    `tcgen05.commit` to the allocation's mbarrier (a pair's: in both
    CTAs): it completes (phase 0) once every tcgen05 operation the thread
    issued so far completed.
    Example:
    ```mlir
    nvfp4.tcgen05.commit %tmem : !nvfp4.tmem<columns = 512>
    ```
  }];
  let arguments = (ins NVFP4_TmemType:$tmem);
  let assemblyFormat = "$tmem attr-dict `:` qualified(type($tmem))";
}

def NVFP4_Tcgen05WaitOp : NVFP4_Tcgen05Op<"tcgen05.wait"> {
  let summary = "Wait until the accumulator is complete";
  let description = [{
    Waits for phase 0 of the allocation's mbarrier (`nvfp4.tcgen05.commit`),
    then orders the thread's later tcgen05 operations after it
    (tcgen05.fence::after_thread_sync).
    Example:
    ```mlir
    nvfp4.tcgen05.wait %tmem : !nvfp4.tmem<columns = 512>
    ```
  }];
  let arguments = (ins NVFP4_TmemType:$tmem);
  let assemblyFormat = "$tmem attr-dict `:` qualified(type($tmem))";
}

def NVFP4_Tcgen05ReduceSplitsOp : NVFP4_Tcgen05Op<"tcgen05.reduce_splits"> {
  let summary =
      "Add the TMEM accumulators of a cluster's split-K CTAs into the first's";
  let description = [{
    The sm_100a form of `nvfp4.wgmma.reduce_splits` (a
    `#nvfp4.tcgen05_mainloop` with `#nvfp4.split_k` in mode `cluster`): the
    `splits` CTAs that split K of one tile form a thread-block cluster
    (cluster rank = split), and all 128 threads of each execute this op
    once the accumulator is complete (`nvfp4.tcgen05.wait`). Thread t owns
    TMEM lane t, `columns` fp32 columns of it. After a first phase of the cluster barrier (every CTA
    runs; a relaxed arrive, as in `nvfp4.wgmma.reduce_splits`), CTAs 1..
    load their accumulators from TMEM (`tcgen05.ld`) and store them into
    the first CTA's ring memory (distributed shared memory, 16-byte stores
    to an area at the top of the ring's data; CTA r's column c of thread t
    at float ((r - 1) x columns + 4 (c / 4)) x 128 + 4t + c % 4 of it) and
    arrive at the second phase with release semantics; the first CTA
    arrives (relaxed), waits with acquire
    semantics and adds them to its accumulator in rank order, in TMEM
    (`tcgen05.ld`, add, `tcgen05.st`), so that `nvfp4.tcgen05.store` then
    stores the tile's sum. The other CTAs' accumulators are left as they
    were; they store nothing. The result `first` says whether this CTA is
    the cluster's first (rank 0), the one that stores. The kernel must
    declare its clusters (`known_cluster_size` 1 x 1 x `splits`).

    Example:
    ```mlir
    %first = nvfp4.tcgen05.reduce_splits %tmem columns 64 in %ring splits 2
        : !nvfp4.tmem<columns = 512>, !nvfp4.ring<stages = 8,
          slot_bytes = 32768, consumers = 1>
    ```
  }];
  let arguments = (ins
    NVFP4_TmemType:$tmem, ConfinedAttr<I64Attr, [IntPositive]>:$columns,
    NVFP4_RingType:$ring,
    ConfinedAttr<I64Attr, [IntMinValue<2>, IntMaxValue<8>]>:$splits);
  let results = (outs I1:$first);
  let assemblyFormat = [{
    $tmem `columns` $columns `in` $ring `splits` $splits attr-dict `:`
    qualified(type($tmem)) `,` qualified(type($ring))
  }];
  let hasVerifier = 1;
}

def NVFP4_Tcgen05StoreOp : NVFP4_Tcgen05Op<"tcgen05.store",
    [AttrSizedOperandSegments]> {
  let summary = "Epilogue: the accumulator from TMEM to the tile of C";
  let description = [{
    Every thread of the CTA's 4 warps executes it once the accumulator is
    complete (`nvfp4.tcgen05.wait`): thread t reads TMEM lane t (warp w
    its quadrant, `tcgen05.ld.32x32b`), the accumulator of row `row` + t of
    B, column j for row `m` + j of A (j < `columns`), and stores it to
    C[batch][m + j][row + t] in C's element type; elements past M or N are
    not stored, nor (with `end`: a grouped GEMM's tile, which ends with its
    group at a run-time row) those from row `end` of A on. With `partials`, the fp32 values go to split `split`'s
    copy of C in it (split-major [split][batch][m][n]) instead.

    With an `epilogue` region (the gemm_tile's: one f32 argument per
    accumulator, `nvfp4.yield` of C's element), the tile holds one
    accumulator per argument, accumulator w from TMEM column w x
    `columns`, and the stored value is the region applied to the
    accumulators' elements (the gated dual GEMM's silu(x1) x2); without
    one, the single accumulator is stored as it is.
    With `c_scales` (C of f4E2M1FN, no partials), C is NVFP4: a block of
    16 values of a row of C lies in 16 adjacent lanes (rows of B), which
    share its amax by shuffles; each lane quantizes its value, lane pairs
    exchange their codes, every even lane stores the byte, the block's
    first lane its scale. With e8m0 `c_scales` C is MXFP4: a block is the
    warp's 32 lanes, its scale rounded by `c_scale_rounding`.

    Example:
    ```mlir
    nvfp4.tcgen05.store %tmem columns 128 outs(%c : memref<128x7168xf16>)
        at m %m row %n batch %l : !nvfp4.tmem<columns = 512>
    ```
  }];
  let arguments = (ins
    NVFP4_TmemType:$tmem, ConfinedAttr<I64Attr, [IntPositive]>:$columns,
    Arg<NVFP4_GemmOutMemref, "C", [MemWrite]>:$c,
    Arg<Optional<NVFP4_ScaleMemref>, "C's block scales (C in NVFP4 or MXFP4)",
        [MemWrite]>:$c_scales,
    Arg<Optional<NVFP4_GlobalScaleMemref>, "C's per-tensor scale",
        [MemRead]>:$c_global_scale,
    Arg<Optional<MemRefRankOf<[I8], [1]>>, "fp32 partial tiles",
        [MemWrite]>:$partials,
    I32:$m, Optional<I32>:$m_end, I32:$row, Index:$batch,
    Optional<Index>:$split,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:
        $c_scales_layout,
    OptionalAttr<NVFP4_ScaleRoundingAttr>:$c_scale_rounding);
  let regions = (region AnyRegion:$epilogue);
  let assemblyFormat = [{
    $tmem `columns` $columns `outs` `(` $c `:` type($c) `)`
    (`c_scales` `(` $c_scales^ `:` type($c_scales) `)`)?
    (`c_global_scale` `(` $c_global_scale^ `:` type($c_global_scale) `)`)?
    (`partials` `(` $partials^ `:` type($partials) `)`)?
    `at` `m` $m (`end` $m_end^)? `row` $row `batch` $batch
    (`split` $split^)? attr-dict `:`
    qualified(type($tmem)) (`epilogue` $epilogue^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Accumulators of the tile: the epilogue's arguments, or 1.
    int64_t getAccumulators() {
      return getEpilogue().empty() ? 1 : getEpilogue().getNumArguments();
    }
  }];
}

#endif // NVFP4_TCGEN05_OPS_TD
