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
// NVFP4's e4m3 scales per 16 values, or MXFP4's e8m0 per 32: the scale
// element type names the format (BlockFormat.h).
def NVFP4_ScaleMemref : MemRefOf<[F8E4M3FN, F8E8M0FNU]>;
def NVFP4_OutMemref : MemRefOf<[F16, BF16, F32]>;
// A GEMM-shaped op's C: a float type, or NVFP4 (packed e2m1 with its block
// scales in `c_scales`: the output quantized in the epilogue).
def NVFP4_GemmOutMemref : MemRefOf<[F16, BF16, F32, F4E2M1FN]>;
def NVFP4_QuantInMemref : MemRefOf<[F32, F16, BF16]>;
def NVFP4_GlobalScaleMemref : MemRefRankOf<[F32], [1]>;
def NVFP4_OffsetsMemref : MemRefRankOf<[I32], [1]>;

//===----------------------------------------------------------------------===//
// scaled_matmul
//===----------------------------------------------------------------------===//

def NVFP4_ScaledMatmulOp : NVFP4_KernelOp<"scaled_matmul",
    [AttrSizedOperandSegments]> {
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

    MXFP4: with `f8E8M0FNU` scales (both operands; mixing formats is an
    error) one power-of-two scale covers 32 values (`S = K / 32`, K a
    multiple of 32, blocked atoms of 128 values of K), and each 32-value
    block's partial sum is exact: the e2m1 products summed, then scaled by
    `2^(ca + cb - 254)` with one rounding to fp32, so a block overflows or
    flushes only where its exact value does; blocks are added in fp32.
    Kernels: the GEMV (both targets) and the tensor-core GEMM, dual and
    grouped kernels (sm_90a in bf16, sm_100a with tcgen05's `.block32`).

    An NVFP4 C (the output quantized in the epilogue, for a next layer's
    FP4 GEMM): with C of `f4E2M1FN` (`[L x] M x N`, N a multiple of 16)
    and its e4m3 block scales in `c_scales` (plain `[L x] M x N/16` or, by
    `c_scales_layout`, blocked `[L x] ceil(M/128) x ceil(N/64) x 32 x 4 x
    4`), C holds what `nvfp4.quantize` with `global_scale`
    `c_global_scale` (optional: 1 without it) and `sf_layout`
    `c_scales_layout` makes of the fp32 values this op would round to a
    float C: one scale per 16 consecutive values of a row of C, no
    intermediate rounding; the kernels compute the scale and quotients
    within 2 ulp of those formulas. (A kernel's fp32 values differ from
    the CPU reference's by accumulation order, so a check compares the
    codes against every value within the tolerance, not bit for bit.)

    An MXFP4 C: `c_scales` of `f8E8M0FNU` (plain `[L x] M x N/32`,
    blocked `[L x] ceil(M/128) x ceil(N/128) x 32 x 4 x 4`, N a multiple
    of 32), no `c_global_scale`, and `c_scale_rounding` (`floor`, the
    default, or `rceil`): C holds what `nvfp4.quantize` to MXFP4 with that
    `scale_rounding` makes of the fp32 values, exactly (the scale comes
    from the block's amax and the quotients are exact power-of-two
    scalings). The output's format is independent of the operands': an
    NVFP4 product may write an MXFP4 C and the reverse.

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
    Arg<NVFP4_GemmOutMemref, "C", [MemWrite]>:$c,
    Arg<Optional<NVFP4_ScaleMemref>, "C's block scales (C in NVFP4 or MXFP4)",
        [MemWrite]>:$c_scales,
    Arg<Optional<NVFP4_GlobalScaleMemref>, "C's per-tensor scale",
        [MemRead]>:$c_global_scale,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:
        $c_scales_layout,
    OptionalAttr<NVFP4_ScaleRoundingAttr>:$c_scale_rounding);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `,` $b `,` $sfb `:` type($a) `,` type($sfa) `,`
              type($b) `,` type($sfb) `)`
    `outs` `(` $c `:` type($c) `)`
    (`c_scales` `(` $c_scales^ `:` type($c_scales) `)`)?
    (`c_global_scale` `(` $c_global_scale^ `:` type($c_global_scale) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// scaled_dual_matmul
//===----------------------------------------------------------------------===//

def NVFP4_ScaledDualMatmulOp : NVFP4_KernelOp<"scaled_dual_matmul",
    [AttrSizedOperandSegments]> {
  let summary = "Gated dual product C = silu(A * B1^T) * (A * B2^T)";
  let description = [{
    The gated MLP projection with A (and its scales) shared:
    `C = round(silu(fp32(A * B1^T)) * fp32(A * B2^T))`, where both products
    are block-scaled FP4 matmuls accumulated in fp32 exactly as in
    `nvfp4.scaled_matmul`, `silu(x) = x / (1 + exp(-x))`, and the result is
    rounded once to C's element type. B1 and B2 have the same shape and the
    same scale layout, each with its own scales.

    C may be NVFP4 (`c_scales`, `c_global_scale`, `c_scales_layout`) as
    in `nvfp4.scaled_matmul`: the gated values silu(x1) * x2 quantized in
    the epilogue, the fused SwiGLU + quantize whose output feeds the next
    layer's FP4 GEMM; or MXFP4 (`c_scales` of e8m0, `c_scale_rounding`).

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
    Arg<NVFP4_GemmOutMemref, "C", [MemWrite]>:$c,
    Arg<Optional<NVFP4_ScaleMemref>, "C's block scales (C in NVFP4 or MXFP4)",
        [MemWrite]>:$c_scales,
    Arg<Optional<NVFP4_GlobalScaleMemref>, "C's per-tensor scale",
        [MemRead]>:$c_global_scale,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:
        $c_scales_layout,
    OptionalAttr<NVFP4_ScaleRoundingAttr>:$c_scale_rounding);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `,` $b1 `,` $sfb1 `,` $b2 `,` $sfb2 `:`
              type($a) `,` type($sfa) `,` type($b1) `,` type($sfb1) `,`
              type($b2) `,` type($sfb2) `)`
    `outs` `(` $c `:` type($c) `)`
    (`c_scales` `(` $c_scales^ `:` type($c_scales) `)`)?
    (`c_global_scale` `(` $c_global_scale^ `:` type($c_global_scale) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// grouped_matmul
//===----------------------------------------------------------------------===//

def NVFP4_GroupedMatmulOp : NVFP4_KernelOp<"grouped_matmul"> {
  let summary = "G block-scaled products with row counts known at run time";
  let description = [{
    The expert layer of a mixture-of-experts model: G problems
    `C_g = A_g * B_g^T` sharing N and K, whose rows are decided at run time
    (by a router kernel, say). `a` stacks the groups' rows in group order
    and `c` their outputs, both with a static upper bound `Mmax` on the
    total rows (`a` is `Mmax x K`, `c` is `Mmax x N`); `b` is `G x N x K`.
    `offsets` is a device buffer of G + 1 i32 prefix sums, like torch's
    `offs`: group g owns rows `[offsets[g], offsets[g + 1])`. Nothing about
    them is needed on the host: the kernels read them on the device.
    Arithmetic as in `nvfp4.scaled_matmul`.

    Offsets that are not a valid partition are clamped, never followed out
    of bounds: with `o[i] = min(max(offsets[i], 0), Mmax)` and
    `e[0] = o[0]`, `e[i] = max(e[i - 1], o[i])` (a running maximum), group
    g owns rows `[e[g], e[g + 1])`, so groups never overlap and never leave
    `[0, Mmax)`. Empty groups are legal. Rows of `c` outside every group
    (before `e[0]`, from `e[G]` on) are left untouched.

    Scales: `sfa` is plain, `Mmax x K/16` (a row's scales travel with the
    row, wherever its group starts); `sfb` is `G x N x K/16` plain or
    `G x ceil(N/128) x ceil(K/64) x 32 x 4 x 4` blocked.

    `size_hint`, optional, gives typical group sizes (G entries summing to
    at most Mmax) for the planner; correctness never depends on it.

    Example:
    ```mlir
    nvfp4.grouped_matmul
        ins(%a, %sfa, %b, %sfb, %offsets : memref<512x4096xf4E2M1FN>,
            memref<512x256xf8E4M3FN>, memref<2x3072x4096xf4E2M1FN>,
            memref<2x3072x256xf8E4M3FN>, memref<3xi32>)
        outs(%c : memref<512x3072xf16>) {size_hint = array<i64: 192, 320>}
    ```
  }];
  let arguments = (ins
    Arg<NVFP4_FP4Memref, "stacked A values", [MemRead]>:$a,
    Arg<NVFP4_ScaleMemref, "stacked A scales", [MemRead]>:$sfa,
    Arg<NVFP4_FP4Memref, "per-group B values", [MemRead]>:$b,
    Arg<NVFP4_ScaleMemref, "per-group B scales", [MemRead]>:$sfb,
    Arg<NVFP4_OffsetsMemref, "the groups' row offsets (G + 1)",
        [MemRead]>:$offsets,
    Arg<NVFP4_OutMemref, "stacked C", [MemWrite]>:$c,
    OptionalAttr<DenseI64ArrayAttr>:$size_hint,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout);
  let assemblyFormat = [{
    `ins` `(` $a `,` $sfa `,` $b `,` $sfb `,` $offsets `:` type($a) `,`
              type($sfa) `,` type($b) `,` type($sfb) `,` type($offsets) `)`
    `outs` `(` $c `:` type($c) `)` attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// G, the number of groups (B's leading dimension).
    int64_t getGroups() { return getB().getType().getDimSize(0); }
    /// The group sizes plans and predictions are made for: the size hint,
    /// else Mmax / G rows each (rounded up).
    SmallVector<int64_t> getPlannedSizes() {
      if (std::optional<ArrayRef<int64_t>> hint = getSizeHint())
        return SmallVector<int64_t>(*hint);
      const int64_t rows = getA().getType().getDimSize(0);
      return SmallVector<int64_t>(getGroups(),
                                  (rows + getGroups() - 1) / getGroups());
    }
  }];
}

//===----------------------------------------------------------------------===//
// grouped_problems
//===----------------------------------------------------------------------===//

def NVFP4_GroupedProblemsOp : NVFP4_KernelOp<"grouped_problems",
                                             [AttrSizedOperandSegments]> {
  let summary = "G independent block-scaled products, each of its own shape";
  let description = [{
    The grouped GEMM as CUTLASS and the NVFP4 contest define it: G problems
    `C_g = A_g * B_g^T`, each with its own tensors and its own (M, N, K),
    all known when the kernel is compiled. Problem g is `a[g]` (M x K),
    `sfa[g]`, `b[g]` (N x K), `sfb[g]` and `c[g]` (M x N); arithmetic as in
    `nvfp4.scaled_matmul`. The operand lists are in problem order and
    equally long; every problem has at least one row (drop an empty one).
    One scale format and one layout per operand role hold for all
    problems.

    All problems run in one kernel whose CTAs each take one tile of one
    problem (the kernel switches on the problem; its tensors are kernel
    parameters by value). Where the sizes are decided at run time, use
    `nvfp4.grouped_matmul`.

    Example (the contest's first test case):
    ```mlir
    nvfp4.grouped_problems
        a(%a0, %a1 : memref<96x128xf4E2M1FN>, memref<128x512xf4E2M1FN>)
        sfa(%sa0, %sa1 : memref<96x8xf8E4M3FN>, memref<128x32xf8E4M3FN>)
        b(%b0, %b1 : memref<128x128xf4E2M1FN>, memref<256x512xf4E2M1FN>)
        sfb(%sb0, %sb1 : memref<128x8xf8E4M3FN>, memref<256x32xf8E4M3FN>)
        outs(%c0, %c1 : memref<96x128xf16>, memref<128x256xf16>)
    ```
  }];
  let arguments = (ins
    Arg<Variadic<NVFP4_FP4Memref>, "each problem's A", [MemRead]>:$a,
    Arg<Variadic<NVFP4_ScaleMemref>, "each problem's A scales",
        [MemRead]>:$sfa,
    Arg<Variadic<NVFP4_FP4Memref>, "each problem's B", [MemRead]>:$b,
    Arg<Variadic<NVFP4_ScaleMemref>, "each problem's B scales",
        [MemRead]>:$sfb,
    Arg<Variadic<NVFP4_OutMemref>, "each problem's C", [MemWrite]>:$c,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfa_layout,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sfb_layout);
  let assemblyFormat = [{
    `a` `(` $a `:` type($a) `)` `sfa` `(` $sfa `:` type($sfa) `)`
    `b` `(` $b `:` type($b) `)` `sfb` `(` $sfb `:` type($sfb) `)`
    `outs` `(` $c `:` type($c) `)` attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// G, the number of problems.
    int64_t getProblems() { return static_cast<int64_t>(getA().size()); }
  }];
}

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

def NVFP4_QuantizeOp : NVFP4_KernelOp<"quantize", [AttrSizedOperandSegments]> {
  let summary = "Quantize f32/f16/bf16 to packed e2m1 values with block scales";
  let description = [{
    NVFP4's two-level scaling as inference uses it: a per-tensor fp32 scale
    `g` (the `global_scale` operand, a `memref<1xf32>`; 1 without one) and
    an e4m3 scale per block of 16 consecutive values along K. For every
    row and block:
    - `amax = max |x|` over the block (NaN elements skipped);
    - the scale code `sf = e4m3((amax / 6) / g)` (two fp32 divisions), or
      0 when `amax` is 0;
    - `s = decode(sf) * g` (an fp32 product), and each value
      `q = e2m1(x / s)` (an fp32 division), or 0 when `s` is 0.

    Both conversions round to nearest, ties to even, and saturate to the
    largest finite value (448 and 6), as PTX `cvt.rn.satfinite` does; so
    a dequantized value is `decode(q) * decode(sf) * g`. Without a
    `global_scale` the formulas are those with `g = 1` (x / s then divides
    by the decoded scale itself). Special values, exactly as the formulas
    give them: an infinite element makes its block's scale 448 and
    encodes as +-6; a NaN element encodes as +6 (0x7, e2m1 has no NaN); a
    `g` that is 0 gives zero scales (`(amax / 6) / 0` saturates to 448,
    `s = 448 * 0 = 0`) and zero values; a NaN `g` gives NaN scales (0x7F)
    and values 0x7. The scale layout is given by `sf_layout` (blocked:
    padding rows and columns zero). The batch dimension is optional; one
    `g` covers the whole tensor.

    The per-tensor scale can instead be computed on the device and
    returned: with `returns_global_scale(%g : memref<1xf32>)` (and no
    `global_scale`), a first pass writes `g = amax / (448 * 6)` (an fp32
    division), `amax` being the largest finite |x| of the whole tensor (all
    batches; infinities and NaN skipped, 0 when there is none, so `g` may be
    0), and the quantization then uses that `g` as above. That is what
    calibration-free inference does per activation tensor: the block
    scales then span e4m3's range.

    Shapes (`S = K / 16`): x `[L x] R x K` (f32, f16 or bf16), q `[L x] R x
    K` (f4E2M1FN), sf plain `[L x] R x S`, blocked `[L x] ceil(R/128) x
    ceil(S/4) x 32 x 4 x 4` (f8E4M3FN), global_scale `1` (f32).

    MXFP4, when `sf` holds `f8E8M0FNU` (S = K / 32): one power-of-two scale
    `2^e` per block of 32 values and no per-tensor scale (OCP MX). The
    exponent comes from `amax` by `scale_rounding`: `floor` (the default,
    the OCP MX rule) takes `e = floor(log2(amax)) - 2` (e2m1's largest
    exponent), so values up to 8x the scale saturate to +-6; `rceil`
    (cuBLAS's and TensorRT-LLM's) rounds `amax / 6` (an fp32 division) up
    to a power of two, so nothing saturates. `e` is clamped to [-127, 127]
    (codes 0 to 254; an all-zero or all-NaN block gets code 0, an infinite
    `amax` code 254), and each value is `q = e2m1(x * 2^-e)` (exact
    scaling, then RNE and satfinite as above).

    Example:
    ```mlir
    nvfp4.quantize ins(%x : memref<128x256xbf16>)
        global_scale(%g : memref<1xf32>)
        outs(%q, %sf : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>)
    ```

    PTX conversions: https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cvt
  }];
  let arguments = (ins
    Arg<NVFP4_QuantInMemref, "input", [MemRead]>:$x,
    Arg<Optional<NVFP4_GlobalScaleMemref>, "per-tensor scale",
        [MemRead]>:$global_scale,
    Arg<NVFP4_FP4Memref, "packed e2m1 values", [MemWrite]>:$q,
    Arg<NVFP4_ScaleMemref, "block scales", [MemWrite]>:$sf,
    Arg<Optional<NVFP4_GlobalScaleMemref>,
        "per-tensor scale computed from the input", [MemWrite]>:
        $returned_global_scale,
    DefaultValuedAttr<NVFP4_ScaleLayoutAttr, "ScaleLayout::Plain">:$sf_layout,
    OptionalAttr<NVFP4_ScaleRoundingAttr>:$scale_rounding);
  let assemblyFormat = [{
    `ins` `(` $x `:` type($x) `)`
    (`global_scale` `(` $global_scale^ `:` type($global_scale) `)`)?
    `outs` `(` $q `,` $sf `:` type($q) `,` type($sf) `)`
    (`returns_global_scale` `(` $returned_global_scale^ `:`
     type($returned_global_scale) `)`)? attr-dict
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
    `getTensorMapEncoding` in nvfp4/Runtime/TensorMap.h).

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

include "NVFP4TileOps.td"
include "NVFP4RingOps.td"
include "NVFP4WgmmaOps.td"
include "NVFP4Tcgen05Ops.td"

#endif // NVFP4_OPS_TD
