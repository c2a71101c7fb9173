// nvfp4-tile on a planned GEMM. With stages > 0: a workspace for A's
// decoded tiles, the pre-pass kernel (one CTA per K chunk and tile of A's
// rows), then the GEMM kernel (one CTA per 64 rows of B and tile of A's
// rows) with its ring in dynamic shared memory, reading the tiles through a
// tensor map of the workspace made next to its launch (the launcher encodes
// it; the kernel takes it by value); with stages = 0 the GEMM kernel alone.
// Both launches with a pre-pass are programmatic dependents: the pre-pass
// of the kernel before it (the previous call's GEMM, back to back), the
// GEMM of its pre-pass.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-tile=target=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @ring
// CHECK: %[[TILES:.*]] = gpu.alloc () : memref<131072xi8>
// CHECK: gpu.launch_func @nvfp4_kernels::@ring_kernel_decode_a blocks in (%c4, %c2, %c1{{.*}}) threads in (%c1024
// CHECK-SAME: args(%arg0 : memref<200x256xf4E2M1FN>, %arg1 : memref<200x16xf8E4M3FN>, %[[TILES]] : memref<131072xi8>)
// CHECK-SAME: {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>>, nvfp4.programmatic_dependent_launch}
// CHECK: %[[MAP:.*]] = nvfp4.tensor_map %[[TILES]] : memref<131072xi8> -> !nvfp4.tensor_map<1024x64xf16, box = [128, 64], swizzle = swizzle_128b>
// CHECK: %[[SMEM:.*]] = arith.constant 66624 : i32
// CHECK: gpu.launch_func @nvfp4_kernels::@ring_kernel blocks in (%c5, %c2{{.*}}, %c1{{.*}}) threads in (%c128{{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK-SAME: %[[MAP]] : !nvfp4.tensor_map<1024x64xf16, box = [128, 64], swizzle = swizzle_128b>) {nvfp4.plan = {{.*}}, nvfp4.programmatic_dependent_launch}
// CHECK: gpu.dealloc %[[TILES]]
// CHECK: gpu.func @ring_kernel_decode_a({{.*}}) kernel attributes {known_block_size = array<i32: 1024, 1, 1>}
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK: nvfp4.decode_a_tile ins(%arg0, %arg1 : {{.*}}) outs(%arg2 : memref<131072xi8>) at m %{{.*}} chunk %block_id_x batch %block_id_z
// CHECK: gpu.func @ring_kernel({{.*}}, %arg5: !nvfp4.tensor_map<1024x64xf16, box = [128, 64], swizzle = swizzle_128b>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: nvfp4.gemm_tile ins(%arg0, %arg1 : {{.*}}) weight(%arg2, %arg3 : {{.*}}) a_tiles(%arg5 : !nvfp4.tensor_map<1024x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%arg4 : memref<200x300xf16>) at m %{{.*}} n %{{.*}} batch %block_id_z
// CHECK-SAME: epilogue {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT: nvfp4.yield %[[ACC]] : f32
func.func @ring(%a: memref<200x256xf4E2M1FN>, %sfa: memref<200x16xf8E4M3FN>, %b: memref<300x256xf4E2M1FN>, %sfb: memref<300x16xf8E4M3FN>, %c: memref<200x300xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<200x256xf4E2M1FN>, memref<200x16xf8E4M3FN>, memref<300x256xf4E2M1FN>, memref<300x16xf8E4M3FN>) outs(%c : memref<200x300xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>>}
  return
}

// -----

// CHECK-LABEL: func.func @decode_in_cta
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @nvfp4_kernels::@decode_in_cta_kernel blocks in (%c1, %c1{{.*}}, %c3) threads in (%c256
// CHECK-NOT: dynamic_shared_memory_size
// CHECK: gpu.func @decode_in_cta_kernel
// CHECK: nvfp4.gemm_tile ins({{.*}}) outs(%arg4 : memref<3x40x128xf32>)
func.func @decode_in_cta(%a: memref<3x40x512xf4E2M1FN>, %sfa: memref<3x40x32xf8E4M3FN>, %b: memref<3x128x512xf4E2M1FN>, %sfb: memref<3x128x32xf8E4M3FN>, %c: memref<3x40x128xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<3x40x512xf4E2M1FN>, memref<3x40x32xf8E4M3FN>, memref<3x128x512xf4E2M1FN>, memref<3x128x32xf8E4M3FN>) outs(%c : memref<3x40x128xf32>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 40>>}
  return
}

// -----

// Split-K: block z is batch * split_k + split; a second workspace holds the
// splits' fp32 partial outputs (2 x 2 x 64 x 128 floats), and a third
// kernel adds them into C (4 x 256 elements per CTA: 32 CTAs), launched as
// the GEMM's programmatic dependent.
// CHECK-LABEL: func.func @split
// CHECK: %[[TILES:.*]] = gpu.alloc () : memref<131072xi8>
// CHECK: gpu.launch_func @nvfp4_kernels::@split_kernel_decode_a
// CHECK: %[[PARTIALS:.*]] = gpu.alloc () : memref<131072xi8>
// CHECK: gpu.launch_func @nvfp4_kernels::@split_kernel blocks in (%c2{{.*}}, %c1{{.*}}, %c4) threads in (%c256
// CHECK-SAME: %{{.*}} : !nvfp4.tensor_map<1024x64xf16, box = [64, 64], swizzle = swizzle_128b>, %[[PARTIALS]] : memref<131072xi8>) {nvfp4.plan = {{.*}}, nvfp4.programmatic_dependent_launch}
// CHECK: gpu.launch_func @nvfp4_kernels::@split_kernel_sum_splits blocks in (%c16, %c1{{.*}}, %c1{{.*}}) threads in (%c256
// CHECK-SAME: args(%[[PARTIALS]] : memref<131072xi8>, %arg4 : memref<2x64x128xbf16>) {nvfp4.plan = {{.*}}, nvfp4.programmatic_dependent_launch}
// CHECK: gpu.dealloc %[[PARTIALS]]
// CHECK: gpu.dealloc %[[TILES]]
// CHECK: gpu.func @split_kernel(
// CHECK: %[[Z:.*]] = gpu.block_id z
// CHECK: %[[BATCH:.*]] = arith.divui %[[Z]], %c2
// CHECK: %[[SPLIT:.*]] = arith.remui %[[Z]], %c2
// CHECK: nvfp4.gemm_tile {{.*}} partials(%arg6 : memref<131072xi8>) at m %{{.*}} n %{{.*}} batch %[[BATCH]] split %[[SPLIT]]
// CHECK: gpu.func @split_kernel_sum_splits(%arg0: memref<131072xi8>, %arg1: memref<2x64x128xbf16>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: nvfp4.sum_splits ins(%arg0 : memref<131072xi8>) outs(%arg1 : memref<2x64x128xbf16>) at %{{.*}} splits 2
func.func @split(%a: memref<2x64x512xf4E2M1FN>, %sfa: memref<2x64x32xf8E4M3FN>, %b: memref<2x128x512xf4E2M1FN>, %sfb: memref<2x128x32xf8E4M3FN>, %c: memref<2x64x128xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x64x512xf4E2M1FN>, memref<2x64x32xf8E4M3FN>, memref<2x128x512xf4E2M1FN>, memref<2x128x32xf8E4M3FN>) outs(%c : memref<2x64x128xbf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, k_groups = 2>, reduction = #nvfp4.split_k<splits = 2>>}
  return
}

// -----

// Scale layouts travel from scaled_matmul to the CTA-level ops.
// CHECK-LABEL: gpu.func @blocked_kernel_decode_a
// CHECK: nvfp4.decode_a_tile {{.*}} {sfa_layout = #nvfp4.scale_layout<blocked>}
// CHECK-LABEL: gpu.func @blocked_kernel(
// CHECK: nvfp4.gemm_tile
// CHECK: } {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
func.func @blocked(%a: memref<200x256xf4E2M1FN>, %sfa: memref<2x4x32x4x4xf8E4M3FN>, %b: memref<300x256xf4E2M1FN>, %sfb: memref<3x4x32x4x4xf8E4M3FN>, %c: memref<200x300xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<200x256xf4E2M1FN>, memref<2x4x32x4x4xf8E4M3FN>, memref<300x256xf4E2M1FN>, memref<3x4x32x4x4xf8E4M3FN>) outs(%c : memref<200x300xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>>, sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// Split-K on chip: the two splits of a tile are a cluster along z that adds
// the partial tiles on chip: one workspace (A's decoded tiles, not the
// partials) and no sum kernel.
// CHECK-LABEL: func.func @split_cluster
// CHECK: gpu.alloc () : memref<131072xi8>
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @nvfp4_kernels::@split_cluster_kernel_decode_a
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @nvfp4_kernels::@split_cluster_kernel clusters in (%c1{{.*}}, %c1{{.*}}, %c2{{.*}}) blocks in (%c2{{.*}}, %c1{{.*}}, %c4)
// CHECK-NOT: sum_splits
// CHECK: gpu.func @split_cluster_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_cluster_size = array<i32: 1, 1, 2>}
// CHECK: %[[Z:.*]] = gpu.block_id z
// CHECK: %[[SPLIT:.*]] = arith.remui %[[Z]], %c2
// CHECK: nvfp4.gemm_tile
// CHECK-NOT: partials(
// CHECK-SAME: split %[[SPLIT]]
// CHECK-NOT: sum_splits
func.func @split_cluster(%a: memref<2x64x512xf4E2M1FN>, %sfa: memref<2x64x32xf8E4M3FN>, %b: memref<2x128x512xf4E2M1FN>, %sfb: memref<2x128x32xf8E4M3FN>, %c: memref<2x64x128xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x64x512xf4E2M1FN>, memref<2x64x32xf8E4M3FN>, memref<2x128x512xf4E2M1FN>, memref<2x128x32xf8E4M3FN>) outs(%c : memref<2x64x128xbf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, k_groups = 2>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>}
  return
}
