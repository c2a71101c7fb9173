// The whole pipeline to PTX for both targets, and ptxas assembles each.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | FileCheck %s --check-prefix=SM100
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | FileCheck %s --check-prefix=SM90 --implicit-check-not=e2m1x2

// SM100: gpu.binary @nvfp4_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">
// SM100-SAME: .target sm_100a
// SM100-SAME: ld.global.nc.L1::no_allocate.v4.u32
// SM100-SAME: cvt.rn.f16x2.e4m3x2
// SM100-SAME: cvt.rn.f16x2.e2m1x2
// SM100-SAME: fma.rn.f16x2
// SM100-SAME: shfl.sync.bfly.b32
// SM90: gpu.binary @nvfp4_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">
// SM90-SAME: .target sm_90a
// SM90-SAME: ld.global.nc.L1::no_allocate.v4.u32
// SM90-SAME: prmt.b32
// SM90-SAME: dp4a.u32.s32
// SM90-SAME: cvt.rn.f16x2.e4m3x2

// With ptxas, the pipeline assembles cubins for both targets.
// RUN: %if ptxas %{ nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=bin toolkit=%cuda_root" | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=bin toolkit=%cuda_root" | FileCheck %s --check-prefix=BIN %}
// BIN: gpu.binary @nvfp4_kernels [#gpu.object<#nvvm.target
// BIN-SAME: bin = "

// nvfp4-run --emit=ptx gives the same PTX as a file ptxas accepts, with no
// spills (registers checked by ptxas -v).
// RUN: %if ptxas %{ nvfp4-run %s --emit=ptx --target sm_100a -o %t.sm100.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.sm100.ptx -o %t.sm100.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ nvfp4-run %s --emit=ptx --target sm_90a -o %t.sm90.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: Compiling entry function 'gemv_kernel'
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @gemv(%a: memref<1x7168x16384xf4E2M1FN>, %sfa: memref<1x7168x1024xf8E4M3FN>, %b: memref<1x1x16384xf4E2M1FN>, %sfb: memref<1x1x1024xf8E4M3FN>, %c: memref<1x7168x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x7168x16384xf4E2M1FN>, memref<1x7168x1024xf8E4M3FN>, memref<1x1x16384xf4E2M1FN>, memref<1x1x1024xf8E4M3FN>) outs(%c : memref<1x7168x1xf16>)
  return
}

// Every stage nvfp4-run can emit.
// RUN: nvfp4-run %s --emit=mlir --target sm_90a | FileCheck %s --check-prefix=EMIT-MLIR
// EMIT-MLIR: gpu.launch_func @nvfp4_kernels::@gemv_kernel
// EMIT-MLIR: gpu.module @nvfp4_kernels
// EMIT-MLIR: llvm.func @gemv_kernel
// RUN: nvfp4-run %s --emit=llvm --target sm_100a | FileCheck %s --check-prefix=EMIT-LLVM
// EMIT-LLVM: target triple = "nvptx64-nvidia-cuda"
// EMIT-LLVM: define ptx_kernel void @gemv_kernel(
// EMIT-LLVM: @llvm.nvvm.e2m1x2.to.f16x2.rn
// RUN: %if ptxas %{ nvfp4-run %s --emit=cubin --target sm_100a --cuda-path %cuda_root -o %t.cubin %}
// RUN: %if ptxas %{ od -A n -c -N 4 %t.cubin | FileCheck %s --check-prefix=ELF %}
// ELF: 177   E   L   F
