//===- Passes.td - nvfp4 pass definitions ------------------*- tablegen -*-===//
//
// The nvfp4 pipeline: plan -> tile -> convert-nvfp4-to-nvvm -> upstream
// GPU/NVVM lowering -> gpu-module-to-binary.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_PASSES_TD
#define NVFP4_PASSES_TD

include "mlir/Pass/PassBase.td"

def NVFP4PlanPass : Pass<"nvfp4-plan", "ModuleOp"> {
  let summary = "Choose a kernel strategy for every nvfp4 op and target";
  let description = [{
    Attaches an `nvfp4.plan` attribute to every nvfp4 op: how many warps per
    CTA, rows per warp, bytes per thread and steps in flight for the GEMV
    kernel. A plan already present (written by a user or an autotuner) is
    kept and only checked. Shapes the target's kernels cannot handle are
    reported here, before any code is generated (e.g. the GEMV kernels need
    K % 64 == 0). Ops with no kernel yet on the target are an error, never a
    silent fallback.

    Before:
    ```mlir
    nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x7168x16384xf4E2M1FN>, ...)
        outs(%c : memref<1x7168x1xf16>)
    ```
    After (`target=sm_90a`):
    ```mlir
    nvfp4.scaled_matmul ins(...) outs(...) {nvfp4.plan = #nvfp4.gemv_plan<
        warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 4>}
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_100a\"",
           "GPU target: sm_100a (B200) or sm_90a (H100/H200)">
  ];
  let dependentDialects = ["::mlir::nvfp4::NVFP4Dialect"];
}

def NVFP4TilePass : Pass<"nvfp4-tile", "ModuleOp"> {
  let summary = "Map planned nvfp4 ops onto a CTA grid in an outlined gpu.func";
  let description = [{
    Every planned GEMV becomes a `gpu.func` kernel in the `gpu.module`
    `@nvfp4_kernels` (created with an `#nvvm.target` for `target`) whose body
    derives its tile from the block ids (x: groups of rows, y: the batch) and
    runs one CTA-level `nvfp4.gemv_tile`. The host op is replaced by a
    `gpu.launch_func` with the grid and block sizes of the plan.

    Before:
    ```mlir
    func.func @gemv(%a: memref<1x7168x16384xf4E2M1FN>, ...) {
      nvfp4.scaled_matmul ins(...) outs(%c : ...) {nvfp4.plan = #nvfp4.gemv_plan<...>}
    ```
    After:
    ```mlir
    gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
      gpu.func @gemv_0(%a: memref<...>, ...) kernel {
        %bx = gpu.block_id x
        ...
        nvfp4.gemv_tile ins(...) outs(...) rows %row batch %l plan #nvfp4.gemv_plan<...>
    }
    func.func @gemv(...) {
      gpu.launch_func @nvfp4_kernels::@gemv_0 blocks in (%c896, %c1, %c1)
          threads in (%c128, %c1, %c1) args(%a : memref<...>, ...)
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_100a\"",
           "GPU target: sm_100a (B200) or sm_90a (H100/H200)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertNVFP4ToNVVMPass : Pass<"convert-nvfp4-to-nvvm"> {
  let summary = "Lower CTA-level nvfp4 ops to NVVM, LLVM, arith and scf";
  let description = [{
    Lowers `nvfp4.gemv_tile` to warp-level code: 16-byte read-only
    (`ld.global.nc.v4`) loads of A, decoding to f16x2, f16x2 FMAs inside
    each 16-value block (exact: each half adds 8 products of at most 36),
    one fp32 FMA per block with the product of the two e4m3 scales (decoded
    with `cvt.rn.f16x2.e4m3x2`), and a warp-shuffle reduction.

    - `target=sm_100a`: values decode with `nvvm.convert.f4x2.to.f16x2`
      (`cvt.rn.f16x2.e2m1x2`).
    - `target=sm_90a`: that instruction does not exist; each 32-bit word of
      8 values decodes with shifts and masks into f16 bit patterns that are
      the true value times 2^-14, and the 2^14 is folded into the fp32 scale.

    Before:
    ```mlir
    nvfp4.gemv_tile ins(...) outs(...) rows %row batch %l plan #nvfp4.gemv_plan<...>
    ```
    After (sm_100a, abridged):
    ```mlir
    %w = llvm.load %p invariant {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
    %h = nvvm.convert.f4x2.to.f16x2 %byte : i8 (f4E2M1FN) -> vector<2xf16>
    %acc = math.fma %h, %hb, %acc : vector<2xf16>
    %r, %ok = gpu.shuffle xor %sum, %c16, %c32 : f32
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_100a\"",
           "GPU target: sm_100a (B200) or sm_90a (H100/H200)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::math::MathDialect", "::mlir::vector::VectorDialect",
                           "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect", "::mlir::memref::MemRefDialect"];
}

#endif // NVFP4_PASSES_TD
