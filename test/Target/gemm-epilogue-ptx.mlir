// A gemm_tile's epilogue through the whole sm_90a pipeline: the ring's
// kernel applies x / (1 + x^2) to each of its 64 accumulators (one exact
// division each) before the store, and ptxas assembles it.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | FileCheck %s
// RUN: %if ptxas %{ nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// CHECK: gpu.binary @nvfp4_kernels
// CHECK-SAME: .entry epilogue_kernel(
// CHECK-COUNT-64: div.rn.f32
// CHECK-NOT: div.rn.f32
module attributes {gpu.container_module} {
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @epilogue_kernel(%a: memref<256x512xf4E2M1FN>, %sfa: memref<256x32xf8E4M3FN>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<256x32xf8E4M3FN>, %c: memref<256x256xf16>, %tiles: !nvfp4.tensor_map<2048x64xf16, box = [128, 64], swizzle = swizzle_128b>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c64 : index
    %m = arith.muli %by, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<256x512xf4E2M1FN>, memref<256x32xf8E4M3FN>) weight(%b, %sfb : memref<256x512xf4E2M1FN>, memref<256x32xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<2048x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<256x256xf16>) at m %m n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4, k_groups = 2>> epilogue {
    ^bb0(%acc: f32):
      %one = arith.constant 1.0 : f32
      %sq = arith.mulf %acc, %acc : f32
      %den = arith.addf %sq, %one : f32
      %y = arith.divf %acc, %den : f32
      nvfp4.yield %y : f32
    }
    gpu.return
  }
}

}
