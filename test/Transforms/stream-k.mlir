// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a --nvfp4-software-pipeline | FileCheck %s
// RUN: nvfp4-run %s --target=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX

// The whole pipeline down to the PTX of the pre-pass, the GEMM and the sum.
// PTX-DAG: .visible .entry gemm_kernel_decode_a(
// PTX-DAG: .visible .entry gemm_kernel(
// PTX-DAG: .visible .entry gemm_kernel_sum_splits(

// Stream-K (sm_90a): 5 CTAs share the 3 tiles of 128 rows of B x 16 K
// chunks (48 chunks, 9 or 10 per CTA), so a CTA's share may end in one
// tile and start in the next; at most 3 CTAs share a tile, so the partials
// hold 3 copies of C, and the sum kernel adds each tile's own.

// CHECK-LABEL: func.func @gemm
// CHECK: gpu.launch_func @nvfp4_kernels::@gemm_kernel blocks in (%c5,
// CHECK: gpu.launch_func @nvfp4_kernels::@gemm_kernel_sum_splits
// CHECK-SAME: args(%{{.*}} : memref<460800xi8>
// CHECK-SAME: nvfp4.programmatic_dependent_launch

// The producer thread fills the CTA's share in order: slot i mod 6,
// acquired after its first use, A's tile row from chunk (first + i) mod 16.
// CHECK-LABEL: gpu.func @gemm_kernel(
// CHECK: nvvm.griddepcontrol wait
// CHECK: scf.for
// CHECK: arith.remui %{{.*}}, %c6_i32
// CHECK: nvfp4.ring.acquire
// CHECK: arith.remui %{{.*}}, %c16_i32
// CHECK: nvfp4.ring.fill

// The consumers: one K loop per tile segment, the ring position carried
// from one to the next; the loop's rounds release their predecessors, the
// segment's end its last round and, after an odd count, the one before;
// each segment stores into its tile's partial slot.
// CHECK: scf.for %{{.*}} iter_args(%[[RING:.*]] = %{{.*}}, %[[PHASE:.*]] = %{{.*}}) -> (i32, i32)
// CHECK: nvfp4.wgmma.load_b
// CHECK: scf.for
// CHECK: nvfp4.ring.wait
// CHECK: nvfp4.wgmma.mma
// CHECK: nvfp4.ring.release
// CHECK: nvfp4.ring.release
// CHECK: scf.if
// CHECK: nvfp4.ring.wait
// CHECK: nvfp4.wgmma.mma
// CHECK: nvfp4.ring.release
// CHECK: scf.if
// CHECK: nvfp4.ring.release
// CHECK: nvfp4.wgmma.store %{{.*}} partials(%{{.*}} : memref<460800xi8>) {{.*}} split
// CHECK: scf.yield %{{.*}}, %{{.*}} : i32, i32
// CHECK: nvvm.griddepcontrol launch_dependents

// CHECK-LABEL: gpu.func @gemm_kernel_sum_splits
// CHECK: nvfp4.sum_splits {{.*}} splits 3 stream [5, 16, 128]
func.func @gemm(%a: memref<128x1024xf4E2M1FN>, %sfa: memref<128x64xf8E4M3FN>, %b: memref<300x1024xf4E2M1FN>, %sfb: memref<300x64xf8E4M3FN>, %c: memref<128x300xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x1024xf4E2M1FN>, memref<128x64xf8E4M3FN>, memref<300x1024xf4E2M1FN>, memref<300x64xf8E4M3FN>) outs(%c : memref<128x300xf16>) {nvfp4.plan = #nvfp4.gemm_plan<warpgroups = 2, tile_m = 128, stages = 6, b_prefetch = 3, producer = true, stream_k = 5>}
  return
}
