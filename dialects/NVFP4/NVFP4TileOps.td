//===- NVFP4TileOps.td - CTA-level tile ops ----------------*- tablegen -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// What nvfp4-tile writes inside each outlined kernel: one CTA-level op
// per CTA (gemv_tile, gemm_tile and its epilogue terminator, the
// pre-passes decode_a_tile and block_scales_tile, split-K's sum_splits).
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TILE_OPS_TD
#define NVFP4_TILE_OPS_TD
//===----------------------------------------------------------------------===//
// gemv_tile (CTA level, produced by nvfp4-tile)
//===----------------------------------------------------------------------===//

def NVFP4_GemvTileOp : NVFP4_CtaOp<"gemv_tile"> {
  let summary = "The rows of a batched GEMV that one CTA computes";
  let description = [{
    The CTA-level form of an `N = 1` `nvfp4.scaled_matmul`, created by
    `nvfp4-tile` inside the outlined `gpu.func`: this CTA computes rows
    `[row_base, row_base + rows_per_cta * row_groups)` (clipped to M) of
    batch `batch`, following `plan` (rows_per_cta = warps_per_cta / k_split
    * rows_per_warp). Operands are the whole kernel operands
    (plain scale layouts); `row_base` and `batch` come from the block ids.
    `convert-nvfp4-to-nvvm` lowers it to warp-level code for its target.

    Example:
    ```mlir
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x7168x16384xf4E2M1FN>,
        memref<1x7168x1024xf8E4M3FN>, memref<1x1x16384xf4E2M1FN>,
        memref<1x1x1024xf8E4M3FN>) outs(%c : memref<1x7168x1xf16>)
        rows %row batch %l
        plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2,
                              bytes_per_thread = 16, unroll = 4>
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_FP4Memref, "A values", [MemRead]>:$a,
    Arg<NVFP4_ScaleMemref, "A scales", [MemRead]>:$sfa,
    Arg<NVFP4_FP4Memref, "B values", [MemRead]>:$b,
    Arg<NVFP4_ScaleMemref, "B scales", [MemRead]>:$sfb,
    Arg<NVFP4_OutMemref, "C", [MemWrite]>:$c,
    Index:$row_base, Index:$batch,
    NVFP4_GemvPlanAttr:$plan);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `,` $b `,` $sfb `:` type($a) `,` type($sfa) `,`
              type($b) `,` type($sfb) `)`
    `outs` `(` $c `:` type($c) `)`
    `rows` $row_base `batch` $batch `plan` qualified($plan) attr-dict
  }];
  let hasVerifier = 1;
}

def NVFP4_GemmTileOp : NVFP4_WgmmaOp<"gemm_tile", [AttrSizedOperandSegments,
    SingleBlock]> {
  let summary = "The output tile of a block-scaled GEMM that one CTA computes";
  let description = [{
    The CTA-level form of an `N > 1` `nvfp4.scaled_matmul`, created by
    `nvfp4-tile` inside the outlined `gpu.func`: this CTA computes
    `C[batch, m_base : m_base + tile_m, n_base : n_base + tile_n]`
    (clipped to M and N) over all of K, following `plan`, reading scales in
    the `sfa_layout` / `sfb_layout` of its scaled_matmul; with split-K, over
    the K chunks of split `split` only, written as fp32 to its partial tile
    in `partials` (split-major [split][batch][m][n], mode `global`) instead
    of to C. Operands are the whole kernel operands; `m_base`, `n_base`,
    `batch` and `split` come from the block ids.

    With `group %g rows %begin to %end`, a tile of a grouped GEMM
    (`nvfp4.grouped_matmul`, from `nvfp4.group_tile`): the weights are
    group g's (B is `G x N x K`; A and C are not batched and `batch` is
    0), A's decoded tile is the pre-pass's tile at `m_base` as usual, and
    its rows are C's rows `[begin, end)` (at most `tile_m`): C's tile
    starts at row `begin` and is masked at `end`. With a
    `#nvfp4.tcgen05_mainloop` A's packed tile is read from row `begin` of
    A itself, and `sfa` holds the tiles' scales as
    `nvfp4.gather_scales_tile` wrote them (tile `m_base / tile_m` at rows
    `m_base`, blocked), not A's rows.

    - `weight` clauses: the weights B_i (N x K) with their scales, each
      multiplied with the same A into its own fp32 accumulator: the GEMM
      has one, the gated dual GEMM two (as many as the plan's mainloop
      has accumulators, `weights`).
    - The tensor maps the tiles are copied through, each named by its role:
      `a_tiles`, A decoded by `nvfp4.decode_a_tile` (a
      `#nvfp4.wgmma_mainloop` with stages > 0); `b_bytes` and `b_scales`,
      B's packed bytes and scale codes (a wgmma mainloop with b_tma, one
      per weight); `a_bytes` and `b_bytes`, A's and B's packed bytes (a
      `#nvfp4.tcgen05_mainloop`).
    - `epilogue`: what C's element is, as a function of the accumulators'
      elements (one f32 block argument per weight, `nvfp4.yield` of one
      f32), applied after every reduction and before the store; the GEMM's
      is the identity. Its ops must be elementwise f32 arith ops or
      `math.exp2` on its own values: the pipeline applies them to whole
      accumulator fragments (sm_90a's ring) or to the elements read from
      TMEM (`nvfp4.tcgen05.store`). The CTA that decodes A itself takes the
      identity only.

    With `c_scales` (C of f4E2M1FN), C is NVFP4 or, with e8m0 scales,
    MXFP4: the epilogue's values quantized as its kernel op says
    (`nvfp4.scaled_matmul`), 16 (MXFP4: 32, rounded by
    `c_scale_rounding`) values of a row of C per scale.

    `nvfp4-software-pipeline` turns a plan with a ring into its K loop;
    `convert-nvfp4-to-nvvm` lowers the rest.

    Example:
    ```mlir
    nvfp4.gemm_tile ins(%a, %sfa : memref<128x16384xf4E2M1FN>,
        memref<128x1024xf8E4M3FN>)
        weight(%b, %sfb : memref<7168x16384xf4E2M1FN>,
        memref<7168x1024xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
        at m %m n %n batch %l
        plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1,
                                                             tile_m = 128>>
        epilogue {
        ^bb0(%acc: f32):
          nvfp4.yield %acc : f32
        }
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_FP4Memref, "A values", [MemRead]>:$a,
    Arg<NVFP4_ScaleMemref, "A scales", [MemRead]>:$sfa,
    Arg<Variadic<NVFP4_FP4Memref>, "the weights' values", [MemRead]>:$b,
    Arg<Variadic<NVFP4_ScaleMemref>, "the weights' scales", [MemRead]>:$sfb,
    Arg<NVFP4_GemmOutMemref, "C", [MemWrite]>:$c,
    Arg<Optional<NVFP4_ScaleMemref>, "C's block scales (C in NVFP4 or MXFP4)",
        [MemWrite]>:$c_scales,
    Arg<Optional<NVFP4_GlobalScaleMemref>, "C's per-tensor scale",
        [MemRead]>:$c_global_scale,
    Index:$m_base, Index:$n_base, Index:$batch,
    Arg<Optional<NVFP4_TensorMapType>,
        "A decoded by nvfp4.decode_a_tile (wgmma ring)">:$a_tiles,
    Arg<Optional<NVFP4_TensorMapType>,
        "A's packed bytes (tcgen05)">:$a_bytes,
    Arg<Variadic<NVFP4_TensorMapType>,
        "each weight's packed bytes (wgmma b_tma, tcgen05)">:$b_bytes,
    Arg<Variadic<NVFP4_TensorMapType>,
        "each weight's scale codes (wgmma b_tma)">:$b_scales,
    Optional<Index>:$split,
    Arg<Optional<MemRefRankOf<[I8], [1]>>,
        "fp32 partial tiles (a #nvfp4.split_k in mode global)",
        [MemWrite]>:$partials,
    Optional<Index>:$group, Optional<Index>:$row_begin,
    Optional<Index>:$row_end,
    NVFP4_KernelPlanAttr:$plan,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:
        $c_scales_layout,
    OptionalAttr<NVFP4_ScaleRoundingAttr>:$c_scale_rounding);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `:` type($a) `,` type($sfa) `)`
    custom<Weights>($b, type($b), $sfb, type($sfb))
    (`a_tiles` `(` $a_tiles^ `:` type($a_tiles) `)`)?
    (`a_bytes` `(` $a_bytes^ `:` type($a_bytes) `)`)?
    (`b_bytes` `(` $b_bytes^ `:` type($b_bytes) `)`)?
    (`b_scales` `(` $b_scales^ `:` type($b_scales) `)`)?
    `outs` `(` $c `:` type($c) `)`
    (`c_scales` `(` $c_scales^ `:` type($c_scales) `)`)?
    (`c_global_scale` `(` $c_global_scale^ `:` type($c_global_scale) `)`)?
    (`partials` `(` $partials^ `:` type($partials) `)`)?
    `at` `m` $m_base `n` $n_base `batch` $batch (`split` $split^)?
    (`group` $group^ `rows` $row_begin `to` $row_end)?
    `plan` qualified($plan) `epilogue` $epilogue attr-dict
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [
    // A GEMM of one weight with the identity epilogue.
    OpBuilder<(ins "::mlir::Value":$a, "::mlir::Value":$sfa,
        "::mlir::Value":$b, "::mlir::Value":$sfb, "::mlir::Value":$c,
        "::mlir::Value":$mBase, "::mlir::Value":$nBase,
        "::mlir::Value":$batch, "::mlir::Value":$aTiles,
        "::mlir::Value":$aBytes, "::mlir::ValueRange":$bBytes,
        "::mlir::ValueRange":$bScales, "::mlir::Value":$split,
        "::mlir::Value":$partials, "KernelPlanAttr":$plan,
        "ScaleLayout":$sfaLayout, "ScaleLayout":$sfbLayout)>
  ];
  let extraClassDeclaration = [{
    /// The plan's mainloop when it is an sm_90a (wgmma) one, else null.
    WgmmaMainloopAttr getWgmmaMainloop() { return getPlan().getWgmma(); }
    /// The plan's mainloop when it is an sm_100a (tcgen05) one, else null.
    Tcgen05MainloopAttr getTcgen05Mainloop() { return getPlan().getTcgen05(); }
    /// The first weight and its scales (the GEMM's only one).
    ::mlir::TypedValue<::mlir::MemRefType> getWeight() {
      return ::llvm::cast<::mlir::TypedValue<::mlir::MemRefType>>(
          getB().front());
    }
    ::mlir::TypedValue<::mlir::MemRefType> getWeightScales() {
      return ::llvm::cast<::mlir::TypedValue<::mlir::MemRefType>>(
          getSfb().front());
    }
    /// Its maps of packed bytes and scale codes, if any.
    ::mlir::Value getWeightBytesMap() {
      return getBBytes().empty() ? ::mlir::Value() : getBBytes().front();
    }
    ::mlir::Value getWeightScalesMap() {
      return getBScales().empty() ? ::mlir::Value() : getBScales().front();
    }
    /// The epilogue's yielded value when it is a block argument: the index
    /// of the weight whose accumulator is stored as it is (the GEMM's
    /// identity), else std::nullopt.
    std::optional<unsigned> getEpilogueIdentity();
  }];
}

def NVFP4_YieldOp : NVFP4_Op<"yield", [Pure, Terminator,
    ParentOneOf<["GemmTileOp", "Tcgen05StoreOp"]>]> {
  let summary = "The value of C's element in a gemm_tile's epilogue";
  let arguments = (ins F32:$value);
  let assemblyFormat = "$value `:` type($value) attr-dict";
}

def NVFP4_GroupTileOp : NVFP4_CtaOp<"group_tile"> {
  let summary = "Which group and rows a grouped GEMM's tile covers";
  let description = [{
    The grouped GEMM's scheduler on the device: the run-time offsets of
    `nvfp4.grouped_matmul` (G + 1 i32 prefix sums, clamped to `[0, rows]`
    and made monotonic as that op defines) cut each group's rows into
    tiles of `tile_m`, numbered in group order; tile `tile` is
    `group`'s rows `[row_begin, row_end)`. A tile past the last one is
    empty (`row_begin == row_end`) and its CTA has nothing to do. Every
    thread of a CTA gets the same results; whole warps compute them
    together (one offset per lane and shuffles), so the op must be
    reached by whole, converged warps.

    Example:
    ```mlir
    %g, %begin, %end = nvfp4.group_tile %offsets[%t] tile_m 128 rows 1024
        : memref<9xi32>
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_OffsetsMemref, "the groups' row offsets (G + 1)",
        [MemRead]>:$offsets,
    Index:$tile, I64Attr:$tile_m, I64Attr:$rows);
  let results = (outs Index:$group, Index:$row_begin, Index:$row_end);
  let assemblyFormat = [{
    $offsets `[` $tile `]` `tile_m` $tile_m `rows` $rows attr-dict `:`
    type($offsets)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Tiles of `tileM` rows that `groups` groups of at most `rows` rows
    /// in all can need: each group's last tile may be partial.
    static int64_t maxTiles(int64_t rows, int64_t groups, int64_t tileM) {
      return std::min<int64_t>(
          (rows + tileM - 1) / tileM + groups - 1,
          rows); // every tile holds a row
    }
  }];
}

def NVFP4_DecodeATileOp : NVFP4_WgmmaOp<"decode_a_tile",
    [AttrSizedOperandSegments]> {
  let summary = "Decode one K chunk of A's rows for the GEMM's shared memory";
  let description = [{
    The GEMM's pre-pass (plans with `stages > 0`), one per CTA of its own
    kernel: decodes rows `[m_base, m_base + tile_m)` (clamped to M) of
    batch `batch`, K chunk `chunk` (64 values), of A into f16 value x scale
    (MXFP4: bf16 value x scale / 4, as `nvfp4.wgmma.decode_b` decodes B),
    in the MMA's permuted K order, and writes that tile (`tile_m` plain
    rows of 128 bytes) to its place in `tiles`, a row-major matrix of 64
    16-bit columns: rows from `((batch * m_tiles + m_base / tile_m) * chunks +
    chunk) * tile_m`. The GEMM CTAs then copy tiles with TMA through a
    tensor map of `tiles` (which applies the 128B swizzle their shared
    memory needs) instead of decoding A again for every tile of B. Scales
    are read in `sfa_layout`.

    With `rows %begin to %end` (a grouped GEMM's gather, A not batched),
    the tile at `m_base` holds A's rows `[begin, end)` (at most `tile_m`)
    instead of `[m_base, m_base + tile_m)`: each group's rows start a
    tile of their own.

    Example:
    ```mlir
    nvfp4.decode_a_tile ins(%a, %sfa : memref<128x16384xf4E2M1FN>,
        memref<128x1024xf8E4M3FN>) outs(%tiles : memref<4194304xi8>)
        at m %m chunk %c batch %l
        plan #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_FP4Memref, "A values", [MemRead]>:$a,
    Arg<NVFP4_ScaleMemref, "A scales", [MemRead]>:$sfa,
    Arg<MemRefRankOf<[I8], [1]>, "decoded tiles", [MemWrite]>:$tiles,
    Index:$m_base, Index:$chunk, Index:$batch,
    Optional<Index>:$row_begin, Optional<Index>:$row_end,
    NVFP4_WgmmaMainloopAttr:$plan,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `:` type($a) `,` type($sfa) `)`
    `outs` `(` $tiles `:` type($tiles) `)`
    `at` `m` $m_base `chunk` $chunk `batch` $batch
    (`rows` $row_begin^ `to` $row_end)? `plan` qualified($plan)
    attr-dict
  }];
  let hasVerifier = 1;
}

def NVFP4_QuantizeTileOp : NVFP4_CtaOp<"quantize_tile"> {
  let summary = "Quantize the scale blocks of one CTA";
  let description = [{
    The CTA-level form of `nvfp4.quantize` (same operands and semantics;
    a computed per-tensor scale arrives as `global_scale`, written by
    `nvfp4.global_amax_tile` kernels before), created by `nvfp4-tile`: the
    CTA of `plan`'s threads quantizes the scale blocks (16 values for
    NVFP4, 32 for MXFP4) `[base, base + threads x blocks_per_thread)` of
    `x` in row-major order over `[L x] R x K / block` (clipped to the last),
    each thread `blocks_per_thread` consecutive blocks of a row. The
    lowering is the same on every target except the e2m1 conversion:
    `cvt.rn.satfinite.e2m1x2.f32` on sm_100a, integer rounding of the f32
    bits on sm_90a, which has no e2m1 conversion.

    Example:
    ```mlir
    nvfp4.quantize_tile ins(%x : memref<128x256xbf16>)
        outs(%q, %sf : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>)
        at %base plan #nvfp4.quantize_plan<warps_per_cta = 8,
                                           blocks_per_thread = 2>
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_QuantInMemref, "input", [MemRead]>:$x,
    Arg<Optional<NVFP4_GlobalScaleMemref>, "per-tensor scale",
        [MemRead]>:$global_scale,
    Arg<NVFP4_FP4Memref, "packed e2m1 values", [MemWrite]>:$q,
    Arg<NVFP4_ScaleMemref, "block scales", [MemWrite]>:$sf,
    Index:$base,
    NVFP4_QuantizePlanAttr:$plan,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sf_layout,
    OptionalAttr<NVFP4_ScaleRoundingAttr>:$scale_rounding);
  let assemblyFormat = [{
    `ins` `(` $x `:` type($x) `)`
    (`global_scale` `(` $global_scale^ `:` type($global_scale) `)`)?
    `outs` `(` $q `,` $sf `:` type($q) `,` type($sf) `)`
    `at` $base `plan` $plan attr-dict
  }];
  let hasVerifier = 1;
}

def NVFP4_GlobalAmaxTileOp : NVFP4_CtaOp<"global_amax_tile"> {
  let summary = "One CTA's step of a quantize's device-computed scale";
  let description = [{
    Made by `nvfp4-tile` for `nvfp4.quantize ... returns_global_scale(%g)`:
    three kernels before the quantization's, each a step over `g`:
    - `zero`: thread 0 stores +0 into `g`;
    - `amax`: the CTA's `kThreads` threads take the largest finite |x| of
      x's 16-byte words `[base, base + words)` (clipped to x's end; words
      a multiple of kThreads), reduce it per warp by shuffles and across
      warps in shared memory, and one thread adds it to `g` with an atomic
      unsigned maximum on its bits (non-negative floats order as their
      bits do);
    - `finalize`: thread 0 replaces `g` (the amax) by `g / (448 * 6)`.
    Kernel boundaries order the steps.

    Example:
    ```mlir
    nvfp4.global_amax_tile #nvfp4.global_amax_step<amax>
        ins(%x : memref<128x256xbf16>)
        outs(%g : memref<1xf32>) at %base words 4096
    ```
  }];
  let arguments = (ins
    NVFP4_GlobalAmaxStepAttr:$step,
    Arg<NVFP4_QuantInMemref, "input", [MemRead]>:$x,
    Arg<NVFP4_GlobalScaleMemref, "the scale being computed",
        [MemRead, MemWrite]>:$g,
    Index:$base,
    I64Attr:$words);
  let assemblyFormat = [{
    $step `ins` `(` $x `:` type($x) `)` `outs` `(` $g `:` type($g) `)`
    `at` $base `words` $words attr-dict
  }];
  let extraClassDeclaration = [{
    /// Threads of the kernel (its known_block_size).
    static constexpr int64_t kThreads = 256;
  }];
  let hasVerifier = 1;
}

def NVFP4_BlockScalesTileOp : NVFP4_CtaOp<"block_scales_tile"> {
  let summary = "Write scales in the blocked layout, K padded to whole slots";
  let description = [{
    The CTA-level form of `nvfp4.block_scales` (same operands and
    semantics), one per CTA of `kThreads` threads (the kernel's
    `known_block_size`), created by `nvfp4-tile` for that op and as the
    sm_100a GEMM's scale pre-pass for an operand whose scales are plain,
    or blocked with K not a multiple of 256 (`#nvfp4.tcgen05_mainloop`): `dst`
    is the blocked layout (`[batch x] ceil(rows/128) x chunks x 32 x 4 x
    4`) of the scales in `src` (plain `[batch x] rows x K/16`, MXFP4's
    K/32, or blocked with fewer or as many K chunks). Chunks past `src`'s
    are zero, and so are a plain `src`'s rows past `rows`; a blocked
    `src`'s padding rows and columns are copied as they are. The GEMM's
    ring slots then copy whole runs of a slice's chunks (2 KiB per 128
    rows, MXFP4's 1 KiB), and issue no MMA past K.

    The CTA writes 32-bit words `[base, base + 4 * kThreads)` of `dst`
    (clipped), 4 per thread, with coalesced stores (the lowering's comment
    says which thread writes which).

    Example:
    ```mlir
    nvfp4.block_scales_tile ins(%sf : memref<128x40xf8E4M3FN>)
        outs(%blocked : memref<1x12x32x4x4xf8E4M3FN>) at %base
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_ScaleMemref, "plain or blocked scales", [MemRead]>:$src,
    Arg<NVFP4_ScaleMemref, "blocked scales, K padded", [MemWrite]>:$dst,
    Index:$base);
  let assemblyFormat = [{
    `ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)`
    `at` $base attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Threads of a block_scales_tile CTA; each writes 4 words.
    static constexpr int64_t kThreads = 256;
    /// The shape of `src`: plain (rank 2 or 3) or blocked (rank 5 or 6).
    bool isSrcPlain() { return isPlainScaleSource(getSrc().getType()); }
  }];
}

def NVFP4_GatherScalesTileOp : NVFP4_CtaOp<"gather_scales_tile"> {
  let summary = "One grouped tile's rows of A's scales, blocked";
  let description = [{
    The sm_100a grouped GEMM's pre-pass for A's scales, one per CTA of
    `kThreads` threads (the kernel's `known_block_size`), created by
    `nvfp4-tile` with `nvfp4.group_tile`: a group's tile of rows
    `[begin, end)` of A may start on any row, and tcgen05.cp copies whole
    128 x 4 atoms, so each tile's scales get rows of their own. The CTA
    writes rows `[row, row + tile_m)` of `dst`, every K chunk: row
    `row + j` holds the scales of `src`'s plain row `begin + j` where
    `begin + j < end`, and zeros past it (so the tile's MMA multiplies its
    rows past the group by zero scales); chunks past `src`'s are zero.
    `src` is plain (`rows x K/16`, MXFP4's `K/32`, whole words of 4
    scales per chunk), `dst` blocked (`ceil(R/128) x chunks x 32 x 4 x 4`,
    K padded to whole slots). Rows of `dst` that no tile writes keep what
    they held.

    Example:
    ```mlir
    nvfp4.gather_scales_tile ins(%sfa : memref<1024x448xf8E4M3FN>)
        outs(%ws : memref<15x112x32x4x4xf8E4M3FN>) rows %begin to %end
        at %row tile_m 128
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_ScaleMemref, "plain scales of A's rows", [MemRead]>:$src,
    Arg<NVFP4_ScaleMemref, "the tiles' blocked scales", [MemWrite]>:$dst,
    Index:$begin, Index:$end, Index:$row,
    ConfinedAttr<I64Attr, [IntPositive]>:$tile_m);
  let assemblyFormat = [{
    `ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)`
    `rows` $begin `to` $end `at` $row `tile_m` $tile_m attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Threads of a gather_scales_tile CTA.
    static constexpr int64_t kThreads = 128;
  }];
}

def NVFP4_SumSplitsOp : NVFP4_CtaOp<"sum_splits"> {
  let summary = "Add the fp32 partial GEMM outputs of split-K CTAs into C";
  let description = [{
    The last kernel of a split-K GEMM (`#nvfp4.split_k` in mode `global`),
    one per CTA of `kSumThreads` threads, created by `nvfp4-tile`: the CTA
    takes C's flat elements `[base, base + 4 * kSumThreads)` (clipped), adds
    element e of every split's partial output (`partials` holds `splits`
    copies of C's shape in fp32, split-major) and stores the sum in C's
    element type.

    Example:
    ```mlir
    nvfp4.sum_splits ins(%partials : memref<4194304xi8>)
        outs(%c : memref<128x4096xf16>) at %base splits 2
    ```
  }];
  let arguments = (ins
    Arg<MemRefRankOf<[I8], [1]>, "fp32 partials", [MemRead]>:$partials,
    Arg<NVFP4_OutMemref, "C", [MemWrite]>:$c,
    Index:$base,
    ConfinedAttr<I64Attr, [IntMinValue<2>]>:$splits);
  let assemblyFormat = [{
    `ins` `(` $partials `:` type($partials) `)`
    `outs` `(` $c `:` type($c) `)` `at` $base `splits` $splits attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Threads of a sum_splits CTA; each adds 4 elements.
    static constexpr int64_t kSumThreads = 256;
  }];
}

#endif // NVFP4_TILE_OPS_TD
