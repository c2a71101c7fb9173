// The gated dual GEMM silu(A * B1^T) * (A * B2^T) through the whole sm_90a
// pipeline on the first contest shape: the planner's two-accumulator ring
// (two CTAs splitting K on chip, each storing half the tile), each weight's
// chunk and scale codes copied into the slot (four tensor maps of B), one
// wgmma group per weight and round (the loop waits for all but one round's
// two), and the gate applied once per stored element after the splits
// meet: 32 values a thread (128 rows of A / 2 splits / 2), each one
// ex2.approx and one div.approx. ptxas assembles it without spills.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | FileCheck %s
// RUN: %if ptxas %{ nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.ptx && %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: gpu.launch_func @nvfp4_kernels::@dual_kernel_decode_a
// CHECK: gpu.launch_func @nvfp4_kernels::@dual_kernel clusters in
// CHECK-SAME: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 8, producer = true, b_tma = true, weights = 2>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
// CHECK: .entry dual_kernel(
// CHECK-COUNT-2: wgmma.wait_group.sync.aligned \092;
// CHECK-NOT: wgmma.wait_group.sync.aligned \091;
// CHECK-COUNT-32: ex2.approx.f32
// CHECK-NOT: ex2.approx
// CHECK-NOT: div.rn.f32
// PTXAS: Compiling entry function 'dual_kernel'
// PTXAS: Function properties for dual_kernel
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @dual(%a: memref<256x7168xf4E2M1FN>, %sfa: memref<256x448xf8E4M3FN>,
                %b1: memref<4096x7168xf4E2M1FN>, %sfb1: memref<4096x448xf8E4M3FN>,
                %b2: memref<4096x7168xf4E2M1FN>, %sfb2: memref<4096x448xf8E4M3FN>,
                %c: memref<256x4096xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x7168xf4E2M1FN>, memref<256x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<256x4096xf16>)
  return
}
