//===- NVFP4Ops.td - nvfp4 operations ----------------------*- tablegen -*-===//
//
// Kernel-level block-scaled FP4 operations on memrefs.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_OPS_TD
#define NVFP4_OPS_TD

include "NVFP4Dialect.td"
include "NVFP4Attrs.td"
include "NVFP4Types.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def NVFP4_FP4Memref : MemRefOf<[F4E2M1FN]>;
def NVFP4_ScaleMemref : MemRefOf<[F8E4M3FN]>;
def NVFP4_OutMemref : MemRefOf<[F16, BF16, F32]>;
def NVFP4_QuantInMemref : MemRefOf<[F32, F16, BF16]>;

//===----------------------------------------------------------------------===//
// scaled_matmul
//===----------------------------------------------------------------------===//

def NVFP4_ScaledMatmulOp : NVFP4_KernelOp<"scaled_matmul"> {
  let summary = "Batched block-scaled FP4 matrix product C = A * B^T";
  let description = [{
    Computes, for every batch `l`, `C[l, m, n] = sum_k A(l, m, k) * B(l, n, k)`
    where `A(l, m, k) = e2m1(a[l, m, k]) * e4m3(sfa[l, m, k / 16])` and
    likewise for B, accumulated in fp32 and rounded once to C's element type
    (f16, bf16 or f32). Both operands are K-major; the batch dimension is
    optional (rank-2 operands), but all operands agree on it.

    A batched GEMV is the `N = 1` case of this op rather than an op of its
    own: the arithmetic, operands and verifier are identical, and what differs
    (a CUDA-core streaming kernel instead of a tensor-core tile loop) is a
    strategy choice, which belongs to `nvfp4-plan`. A separate op would
    duplicate the verifier and hide from a caller that GEMV and GEMM are the
    same function.

    Shapes (`S = K / 16`, scale layout given by `sfa_layout` / `sfb_layout`):
    - a: `[L x] M x K x f4E2M1FN`, b: `[L x] N x K x f4E2M1FN`
    - sfa: plain `[L x] M x S`, blocked `[L x] ceil(M/128) x ceil(S/4) x 32 x 4 x 4`
      (e4m3); sfb likewise with N
    - c: `[L x] M x N` of f16, bf16 or f32

    K must be a multiple of 16 (one scale per 16 values). Lowerings add their
    own constraints (the GEMV kernels need K % 64 == 0, the tcgen05 GEMM
    K % 256 == 0) and report them when they plan the op.

    Example (the contest's first GEMV shape):
    ```mlir
    nvfp4.scaled_matmul
        ins(%a, %sfa, %b, %sfb : memref<1x7168x16384xf4E2M1FN>,
            memref<1x7168x1024xf8E4M3FN>, memref<1x1x16384xf4E2M1FN>,
            memref<1x1x1024xf8E4M3FN>)
        outs(%c : memref<1x7168x1xf16>)
    ```

    Block-scaled MMA in the PTX ISA:
    https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-block-scaling
  }];
  let arguments = (ins
    Arg<NVFP4_FP4Memref, "A values", [MemRead]>:$a,
    Arg<NVFP4_ScaleMemref, "A scales", [MemRead]>:$sfa,
    Arg<NVFP4_FP4Memref, "B values", [MemRead]>:$b,
    Arg<NVFP4_ScaleMemref, "B scales", [MemRead]>:$sfb,
    Arg<NVFP4_OutMemref, "C", [MemWrite]>:$c,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `,` $b `,` $sfb `:` type($a) `,` type($sfa) `,`
              type($b) `,` type($sfb) `)`
    `outs` `(` $c `:` type($c) `)` attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// scaled_dual_matmul
//===----------------------------------------------------------------------===//

def NVFP4_ScaledDualMatmulOp : NVFP4_KernelOp<"scaled_dual_matmul"> {
  let summary = "Gated dual product C = silu(A * B1^T) * (A * B2^T)";
  let description = [{
    The gated MLP projection with A (and its scales) shared:
    `C = round(silu(fp32(A * B1^T)) * fp32(A * B2^T))`, where both products
    are block-scaled FP4 matmuls accumulated in fp32 exactly as in
    `nvfp4.scaled_matmul`, `silu(x) = x / (1 + exp(-x))`, and the result is
    rounded once to C's element type. B1 and B2 have the same shape and the
    same scale layout, each with its own scales.

    Example:
    ```mlir
    nvfp4.scaled_dual_matmul
        ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2
            : memref<256x7168xf4E2M1FN>, memref<256x448xf8E4M3FN>,
              memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>,
              memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>)
        outs(%c : memref<256x4096xf16>)
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_FP4Memref, "A values", [MemRead]>:$a,
    Arg<NVFP4_ScaleMemref, "A scales", [MemRead]>:$sfa,
    Arg<NVFP4_FP4Memref, "B1 values", [MemRead]>:$b1,
    Arg<NVFP4_ScaleMemref, "B1 scales", [MemRead]>:$sfb1,
    Arg<NVFP4_FP4Memref, "B2 values", [MemRead]>:$b2,
    Arg<NVFP4_ScaleMemref, "B2 scales", [MemRead]>:$sfb2,
    Arg<NVFP4_OutMemref, "C", [MemWrite]>:$c,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `,` $b1 `,` $sfb1 `,` $b2 `,` $sfb2 `:`
              type($a) `,` type($sfa) `,` type($b1) `,` type($sfb1) `,`
              type($b2) `,` type($sfb2) `)`
    `outs` `(` $c `:` type($c) `)` attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// grouped_matmul
//===----------------------------------------------------------------------===//

def NVFP4_GroupedMatmulOp : NVFP4_KernelOp<"grouped_matmul"> {
  let summary = "G independent block-scaled products with per-group M";
  let description = [{
    G problems `C_g = A_g * B_g^T` sharing N and K, with per-group row counts
    `group_sizes = [M_0, ..., M_(G-1)]` (static, each >= 1). The A_g are
    stacked along rows in group order (`a` is `sum(M_g) x K`), as are the C_g
    (`c` is `sum(M_g) x N`); `b` is `G x N x K`. Arithmetic as in
    `nvfp4.scaled_matmul`.

    Scales: plain `sfa` is `sum(M_g) x K/16` and plain `sfb` is
    `G x N x K/16`. Blocked `sfa` gives each group its own atoms (a group's
    rows are padded to 128 on their own), stacked in group order:
    `sum(ceil(M_g/128)) x ceil(K/64) x 32 x 4 x 4`; blocked `sfb` is
    `G x ceil(N/128) x ceil(K/64) x 32 x 4 x 4`.

    Example:
    ```mlir
    nvfp4.grouped_matmul
        ins(%a, %sfa, %b, %sfb : memref<512x4096xf4E2M1FN>,
            memref<512x256xf8E4M3FN>, memref<2x3072x4096xf4E2M1FN>,
            memref<2x3072x256xf8E4M3FN>)
        outs(%c : memref<512x3072xf16>) {group_sizes = array<i64: 192, 320>}
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_FP4Memref, "stacked A values", [MemRead]>:$a,
    Arg<NVFP4_ScaleMemref, "stacked A scales", [MemRead]>:$sfa,
    Arg<NVFP4_FP4Memref, "per-group B values", [MemRead]>:$b,
    Arg<NVFP4_ScaleMemref, "per-group B scales", [MemRead]>:$sfb,
    Arg<NVFP4_OutMemref, "stacked C", [MemWrite]>:$c,
    DenseI64ArrayAttr:$group_sizes,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `,` $b `,` $sfb `:` type($a) `,` type($sfa) `,`
              type($b) `,` type($sfb) `)`
    `outs` `(` $c `:` type($c) `)` attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

def NVFP4_QuantizeOp : NVFP4_KernelOp<"quantize"> {
  let summary = "Quantize f32/f16/bf16 to packed e2m1 values with e4m3 block scales";
  let description = [{
    For every row and every block of 16 consecutive values along K:
    `amax = max |x|`, the scale is `sf = e4m3(amax / 6)` and each value is
    `q = e2m1(x / decode(sf))` (fp32 division; `q = 0` when the decoded scale
    is zero). Both conversions round to nearest, ties to even, and saturate
    to the largest finite value (448 and 6), as PTX `cvt.rn.satfinite` does.
    The scale layout is given by `sf_layout`. The batch dimension is optional.

    Shapes (`S = K / 16`): x `[L x] R x K` (f32, f16 or bf16), q `[L x] R x K`
    (f4E2M1FN), sf plain `[L x] R x S`, blocked
    `[L x] ceil(R/128) x ceil(S/4) x 32 x 4 x 4` (f8E4M3FN).

    Example:
    ```mlir
    nvfp4.quantize ins(%x : memref<128x256xf32>)
        outs(%q, %sf : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>)
    ```

    PTX conversions: https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cvt
  }];
  let arguments = (ins
    Arg<NVFP4_QuantInMemref, "input", [MemRead]>:$x,
    Arg<NVFP4_FP4Memref, "packed e2m1 values", [MemWrite]>:$q,
    Arg<NVFP4_ScaleMemref, "e4m3 block scales", [MemWrite]>:$sf,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sf_layout);
  let assemblyFormat = [{
    `ins` `(` $x `:` type($x) `)`
    `outs` `(` $q `,` $sf `:` type($q) `,` type($sf) `)` attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// block_scales
//===----------------------------------------------------------------------===//

def NVFP4_BlockScalesOp : NVFP4_KernelOp<"block_scales", [NVFP4_PlanFree]> {
  let summary = "Write block scales in the blocked layout, K chunks padded";
  let description = [{
    `dst` is the blocked layout (see `#nvfp4.scale_layout`) of the scales
    in `src`, with as many or more K chunks (of 4 scale columns): plain
    `src` (`[L x] R x K/16`, K a multiple of 64) or blocked `src` with at
    most `dst`'s chunks. Rows past R and chunks past `src`'s are zero
    (padding rows of a blocked `src` are copied as they are).

    What it is for: converting the scales of weights once. The sm_100a
    GEMM copies blocked scales of whole 256-value K slices into its ring
    (`dst` with ceil(K/256) x 4 chunks); given anything else it runs this
    conversion as a pre-pass on every call. `nvfp4-tile` lowers it to one
    kernel of `nvfp4.block_scales_tile` CTAs on every target; it needs no
    plan.

    Shapes: `src` plain `[L x] R x K/16` or blocked `[L x] ceil(R/128) x
    C x 32 x 4 x 4`; `dst` `[L x] ceil(R/128) x C' x 32 x 4 x 4`, C' >= the
    chunks of `src`.

    Example (K = 640 padded to 768 for the sm_100a GEMM):
    ```mlir
    nvfp4.block_scales ins(%sf : memref<7168x40xf8E4M3FN>)
        outs(%blocked : memref<56x12x32x4x4xf8E4M3FN>)
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_ScaleMemref, "plain or blocked scales", [MemRead]>:$src,
    Arg<NVFP4_ScaleMemref, "blocked scales, K chunks padded", [MemWrite]>:$dst);
  let assemblyFormat = [{
    `ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)`
    attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape of `src`: plain (rank 2 or 3) or blocked (rank 5 or 6).
    bool isSrcPlain() { return isPlainScaleSource(getSrc().getType()); }
  }];
}

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

    - `weight` clauses: the weights B_i (N x K) with their scales, each
      multiplied with the same A into its own fp32 accumulator. The GEMM
      has one; the list is where the gated dual GEMM's second weight goes.
    - The tensor maps the tiles are copied through, each named by its role:
      `a_tiles`, A decoded by `nvfp4.decode_a_tile` (a
      `#nvfp4.wgmma_mainloop` with stages > 0); `b_bytes` and `b_scales`,
      B's packed bytes and scale codes (a wgmma mainloop with b_tma, one
      per weight); `a_bytes` and `b_bytes`, A's and B's packed bytes (a
      `#nvfp4.tcgen05_mainloop`).
    - `epilogue`: what C's element is, as a function of the accumulators'
      elements (one f32 block argument per weight, `nvfp4.yield` of one
      f32), applied after every reduction and before the store; the GEMM's
      is the identity. Its ops must be elementwise f32 arith ops on its
      own values: the pipeline applies them to whole accumulator
      fragments. The sm_90a ring applies it; the tcgen05 mainloop and the
      CTA that decodes A itself take the identity only, for now.

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
    Arg<NVFP4_OutMemref, "C", [MemWrite]>:$c,
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
    NVFP4_KernelPlanAttr:$plan,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `:` type($a) `,` type($sfa) `)`
    custom<Weights>($b, type($b), $sfb, type($sfb))
    (`a_tiles` `(` $a_tiles^ `:` type($a_tiles) `)`)?
    (`a_bytes` `(` $a_bytes^ `:` type($a_bytes) `)`)?
    (`b_bytes` `(` $b_bytes^ `:` type($b_bytes) `)`)?
    (`b_scales` `(` $b_scales^ `:` type($b_scales) `)`)?
    `outs` `(` $c `:` type($c) `)`
    (`partials` `(` $partials^ `:` type($partials) `)`)?
    `at` `m` $m_base `n` $n_base `batch` $batch (`split` $split^)?
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
    HasParent<"GemmTileOp">]> {
  let summary = "The value of C's element in a gemm_tile's epilogue";
  let arguments = (ins F32:$value);
  let assemblyFormat = "$value `:` type($value) attr-dict";
}

def NVFP4_DecodeATileOp : NVFP4_WgmmaOp<"decode_a_tile"> {
  let summary = "Decode one K chunk of A's rows for the GEMM's shared memory";
  let description = [{
    The GEMM's pre-pass (plans with `stages > 0`), one per CTA of its own
    kernel: decodes rows `[m_base, m_base + tile_m)` (clamped to M) of
    batch `batch`, K chunk `chunk` (64 values), of A into f16 value x scale,
    in the MMA's permuted K order, and writes that tile (`tile_m` plain
    rows of 128 bytes) to its place in `tiles`, a row-major matrix of 64
    f16 columns: rows from `((batch * m_tiles + m_base / tile_m) * chunks +
    chunk) * tile_m`. The GEMM CTAs then copy tiles with TMA through a
    tensor map of `tiles` (which applies the 128B swizzle their shared
    memory needs) instead of decoding A again for every tile of B. Scales
    are read in `sfa_layout`.

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
    NVFP4_WgmmaMainloopAttr:$plan,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `:` type($a) `,` type($sfa) `)`
    `outs` `(` $tiles `:` type($tiles) `)`
    `at` `m` $m_base `chunk` $chunk `batch` $batch `plan` qualified($plan)
    attr-dict
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
    4`) of the scales in `src` (plain `[batch x] rows x K/16`, or blocked
    with fewer or as many K chunks). Chunks past `src`'s are zero, and so
    are a plain `src`'s rows past `rows`; a blocked `src`'s padding rows
    are copied as they are. The GEMM's ring slots then copy whole 2 KiB
    runs of 4 chunks, and its MMAs past K multiply zero values by zero
    scales.

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

def NVFP4_TensorMapOp : NVFP4_Op<"tensor_map", [Pure]> {
  let summary = "Name the buffer a TMA tensor map describes (host side)";
  let description = [{
    On the host, next to the launch that passes it: the result is a kernel
    operand that the launcher turns into a 128-byte `CUtensorMap`, encoded
    with `cuTensorMapEncodeTiled` from the result type (shape, element
    type, box, swizzle; see `!nvfp4.tensor_map`) and the device address of
    `source`, and passed by value. `source` is reinterpreted: it must be a
    dense buffer of exactly the map's bytes, whatever its own element type.
    The IR alone says how to launch the kernel: an embedding runtime lowers
    this op to its call of `cuTensorMapEncodeTiled` (the arguments are
    `getTensorMapEncoding` in nvfp4/Target/TensorMap.h).

    Example: the decoded A tiles of a GEMM, as 128 x 64 f16 tiles:
    ```mlir
    %map = nvfp4.tensor_map %tiles : memref<4194304xi8>
        -> !nvfp4.tensor_map<32768x64xf16, box = [128, 64], swizzle = swizzle_128b>
    ```
  }];
  let arguments = (ins Arg<AnyStaticShapeMemRef, "the tensor's buffer">:$source);
  let results = (outs NVFP4_TensorMapType:$map);
  let assemblyFormat = [{
    $source attr-dict `:` type($source) `->` qualified(type($map))
  }];
  let hasVerifier = 1;
}

include "NVFP4PipelineOps.td"

#endif // NVFP4_OPS_TD
