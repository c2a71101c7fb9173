// The gated dual GEMM for sm_100a through the whole pipeline on the fourth
// contest shape: the planner's two-accumulator tcgen05 mainloop (128-row
// tiles, 4 slots of both weights' tiles and scales), each weight's scales
// blocked by a pre-pass, each K step's two MMAs (one per weight, into TMEM
// columns 0 and 128) = 8 per 256-value slice, and the store reading both
// accumulators (4 loads of 32 columns each) and applying the gate to each
// of the tile's 128 columns a thread. ptxas assembles it without spills.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | FileCheck %s
// RUN: %if ptxas %{ nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.ptx && %ptxas -arch=sm_100a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: gpu.launch_func @nvfp4_kernels::@dual_kernel_block_sfa
// CHECK: gpu.launch_func @nvfp4_kernels::@dual_kernel_block_sfb
// CHECK: gpu.launch_func @nvfp4_kernels::@dual_kernel_block_sfb2
// CHECK: gpu.launch_func @nvfp4_kernels::@dual_kernel blocks
// CHECK-SAME: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 4, weights = 2>>
// CHECK: .entry dual_kernel(
// CHECK-COUNT-8: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16
// CHECK-NOT: tcgen05.mma.cta_group
// CHECK-COUNT-8: tcgen05.ld.sync.aligned.32x32b.x32
// CHECK-NOT: tcgen05.ld.sync
// PTXAS: Function properties for dual_kernel
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @dual(%a: memref<512x7168xf4E2M1FN>, %sfa: memref<512x448xf8E4M3FN>,
                %b1: memref<3072x7168xf4E2M1FN>, %sfb1: memref<3072x448xf8E4M3FN>,
                %b2: memref<3072x7168xf4E2M1FN>, %sfb2: memref<3072x448xf8E4M3FN>,
                %c: memref<512x3072xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<512x7168xf4E2M1FN>, memref<512x448xf8E4M3FN>, memref<3072x7168xf4E2M1FN>, memref<3072x448xf8E4M3FN>, memref<3072x7168xf4E2M1FN>, memref<3072x448xf8E4M3FN>) outs(%c : memref<512x3072xf16>)
  return
}
