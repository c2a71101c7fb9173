//===- ConversionPasses.td - convert nvfp4 to NVVM ---------*- tablegen -*-===//
//
// The conversion stage of the nvfp4 pipeline (lib/Conversion):
// convert-nvfp4-to-nvvm, and nvfp4-tensor-map-params after upstream's
// GPU-to-NVVM lowering.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_PASSES_TD
#define NVFP4_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNVFP4ToNVVMPass : Pass<"convert-nvfp4-to-nvvm"> {
  let summary = "Lower CTA-level nvfp4 ops to NVVM, LLVM, arith and scf";
  let description = [{
    Lowers `nvfp4.gemv_tile` to warp-level code following its plan: lanes
    stream A with 16-byte `ld.global.nc.L1::no_allocate` loads (the next
    iteration's loads issued before the current one's math: a software
    pipeline), B is decoded once per CTA into shared memory (`stage_b`) or
    per step, each 16-value block's dot product is computed exactly, one
    fp32 FMA per block applies `sfa * sfb` (decoded with
    `cvt.rn.f16x2.e4m3x2`), and a warp-shuffle reduction (plus a
    shared-memory one with `k_split`) ends each row.

    The target is the chip of each gpu.module's `#nvvm.target` (nvfp4-tile
    sets it); a gpu.module holding nvfp4 ops without one is an error.

    - sm_100a: values decode with `nvvm.convert.f4x2.to.f16x2`
      (`cvt.rn.f16x2.e2m1x2`); 8 f16x2 FMAs make a block's dot product
      (exact: each half adds 8 products of magnitude <= 36).
    - sm_90a: that instruction does not exist; `nvvm.prmt` looks up
      twice the e2m1 magnitudes (small integers) 4 at a time, and
      `nvvm.dot.accumulate.4way` (dp4a) makes the block's dot product in
      int32; the factor 1/4 is folded into B's fp32 scales.

    Before:
    ```mlir
    nvfp4.gemv_tile ins(...) outs(...) rows %row batch %l plan #nvfp4.gemv_plan<...>
    ```
    After (sm_100a, abridged):
    ```mlir
    %w = llvm.inline_asm has_side_effects "ld.global.nc.L1::no_allocate.v4.u32 ..."
    %h = nvvm.convert.f4x2.to.f16x2 %byte : i8(f4E2M1FN) -> vector<2xf16>
    %acc = llvm.intr.fma(%h, %hb, %acc) : (vector<2xf16>, ...) -> vector<2xf16>
    %r, %ok = gpu.shuffle xor %sum, %c16, %c32 : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect", "::mlir::memref::MemRefDialect"];
}

def NVFP4TensorMapParamsPass : Pass<"nvfp4-tensor-map-params"> {
  let summary = "Pass the kernels' tensor maps by value, as grid constants";
  let description = [{
    Runs after `convert-gpu-to-nvvm`, on the `llvm.func` kernels. A kernel
    parameter of type `!nvfp4.tensor_map` is a 128-byte `CUtensorMap` the
    launcher passes by value; `convert-gpu-to-nvvm` turns it into a plain
    `!llvm.ptr` and cannot mark it (it drops `llvm.byval` from `gpu.func`
    argument attributes, and the NVVM verifier rejects
    `nvvm.grid_constant` on a `gpu.func`). `convert-nvfp4-to-nvvm`
    records the kernel's parameter count and the indices of such
    parameters on it (`nvfp4.tensor_map_params`; the indices hold only
    when memrefs are bare pointers, which the count checks); this pass
    gives each of them
    `llvm.byval = !llvm.array<128 x i8>`, `llvm.align = 64` (the driver
    requires a 64-byte aligned map) and `nvvm.grid_constant`, and drops
    the record. The NVPTX backend then declares the parameter
    `.param .align 64 .b8 p[128]` and hands the TMA instructions its
    address in the parameter space (`cvta.param`), with no local copy,
    which a TMA instruction could not read.

    Before:
    ```mlir
    llvm.func @k(%map: !llvm.ptr, ...) attributes {gpu.kernel,
        nvfp4.tensor_map_params = array<i64: 3, 0>, nvvm.kernel}
    ```
    After:
    ```mlir
    llvm.func @k(%map: !llvm.ptr {llvm.align = 64 : i64,
        llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, ...)
        attributes {gpu.kernel, nvvm.kernel}
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

#endif // NVFP4_CONVERSION_PASSES_TD
