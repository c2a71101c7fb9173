// nvfp4-tile on a GEMM with a #nvfp4.tcgen05_mainloop: the ring slots copy
// blocked scales 256 K values at a time, so scales that are plain, or
// blocked with K % 256 != 0, are first written blocked and padded to whole
// slots by a pre-pass kernel per operand (nvfp4.block_scales_tile, 256 threads,
// 1024 words per CTA) into a workspace the GEMM reads instead; blocked
// scales of whole slots are read as they are.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-tile=target=sm_100a | FileCheck %s

// CHECK-LABEL: func.func @blocked
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @nvfp4_kernels::@blocked_kernel blocks
// CHECK-SAME: args(%arg0 : memref<128x512xf4E2M1FN>, %arg1 : memref<1x8x32x4x4xf8E4M3FN>, %arg2 : memref<256x512xf4E2M1FN>, %arg3 : memref<2x8x32x4x4xf8E4M3FN>
// CHECK-NOT: block_scales
// CHECK: nvfp4.gemm_tile ins(%arg0, %arg1 : {{.*}}) weight(%arg2, %arg3 : {{.*}}) a_bytes(%arg5 : {{.*}}) b_bytes(%arg6 : {{.*}})
// CHECK-NOT: block_scales
func.func @blocked(%a: memref<128x512xf4E2M1FN>, %sfa: memref<1x8x32x4x4xf8E4M3FN>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<2x8x32x4x4xf8E4M3FN>, %c: memref<128x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x512xf4E2M1FN>, memref<1x8x32x4x4xf8E4M3FN>, memref<256x512xf4E2M1FN>, memref<2x8x32x4x4xf8E4M3FN>) outs(%c : memref<128x256xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 2>>}
  return
}

// -----

// 6144 words of A's blocked scales (2 batches x 2 blocks x 12 chunks x 128)
// take 6 CTAs, B's 9216 take 9; K = 640 is padded to 768 (12 chunks).
// CHECK-LABEL: func.func @plain
// CHECK: %[[SFA:.*]] = gpu.alloc () : memref<2x2x12x32x4x4xf8E4M3FN>
// CHECK: gpu.launch_func @nvfp4_kernels::@plain_kernel_block_sfa blocks in (%c6, %c1{{.*}}, %c1{{.*}}) threads in (%c256, %c1{{.*}}, %c1{{.*}}) args(%arg1 : memref<2x200x40xf8E4M3FN>, %[[SFA]] : memref<2x2x12x32x4x4xf8E4M3FN>)
// CHECK: %[[SFB:.*]] = gpu.alloc () : memref<2x3x12x32x4x4xf8E4M3FN>
// CHECK: gpu.launch_func @nvfp4_kernels::@plain_kernel_block_sfb blocks in (%c9, %c1{{.*}}, %c1{{.*}}) threads in (%c256{{.*}}) args(%arg3 : memref<2x300x40xf8E4M3FN>, %[[SFB]] : memref<2x3x12x32x4x4xf8E4M3FN>)
// CHECK: gpu.launch_func @nvfp4_kernels::@plain_kernel blocks
// CHECK-SAME: args(%arg0 : memref<2x200x640xf4E2M1FN>, %[[SFA]] : memref<2x2x12x32x4x4xf8E4M3FN>, %arg2 : memref<2x300x640xf4E2M1FN>, %[[SFB]] : memref<2x3x12x32x4x4xf8E4M3FN>
// CHECK: gpu.dealloc %[[SFA]]
// CHECK: gpu.dealloc %[[SFB]]
// CHECK: gpu.func @plain_kernel_block_sfa(%arg0: memref<2x200x40xf8E4M3FN>, %arg1: memref<2x2x12x32x4x4xf8E4M3FN>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: %[[BASE:.*]] = arith.muli %block_id_x, %c1024
// CHECK: nvfp4.block_scales_tile ins(%arg0 : memref<2x200x40xf8E4M3FN>) outs(%arg1 : memref<2x2x12x32x4x4xf8E4M3FN>) at %[[BASE]]
// CHECK: gpu.func @plain_kernel_block_sfb
// CHECK: nvfp4.gemm_tile ins(%arg0, %arg1 : memref<2x200x640xf4E2M1FN>, memref<2x2x12x32x4x4xf8E4M3FN>) weight(%arg2, %arg3 : memref<2x300x640xf4E2M1FN>, memref<2x3x12x32x4x4xf8E4M3FN>)
// CHECK: } {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
func.func @plain(%a: memref<2x200x640xf4E2M1FN>, %sfa: memref<2x200x40xf8E4M3FN>, %b: memref<2x300x640xf4E2M1FN>, %sfb: memref<2x300x40xf8E4M3FN>, %c: memref<2x200x300xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x200x640xf4E2M1FN>, memref<2x200x40xf8E4M3FN>, memref<2x300x640xf4E2M1FN>, memref<2x300x40xf8E4M3FN>) outs(%c : memref<2x200x300xbf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 3>>}
  return
}

// -----

// Blocked A scales of 11 chunks (K = 704) padded to 12; B's plain ones
// blocked.
// CHECK-LABEL: func.func @blocked_k704
// CHECK: gpu.alloc () : memref<1x12x32x4x4xf8E4M3FN>
// CHECK: @blocked_k704_kernel_block_sfa {{.*}} args(%arg1 : memref<1x11x32x4x4xf8E4M3FN>, %{{.*}} : memref<1x12x32x4x4xf8E4M3FN>)
// CHECK: gpu.alloc () : memref<2x12x32x4x4xf8E4M3FN>
// CHECK: @blocked_k704_kernel_block_sfb {{.*}} args(%arg3 : memref<130x44xf8E4M3FN>, %{{.*}} : memref<2x12x32x4x4xf8E4M3FN>)
// CHECK: nvfp4.block_scales_tile ins(%arg0 : memref<1x11x32x4x4xf8E4M3FN>) outs(%arg1 : memref<1x12x32x4x4xf8E4M3FN>)
// CHECK: nvfp4.block_scales_tile ins(%arg0 : memref<130x44xf8E4M3FN>) outs(%arg1 : memref<2x12x32x4x4xf8E4M3FN>)
func.func @blocked_k704(%a: memref<64x704xf4E2M1FN>, %sfa: memref<1x11x32x4x4xf8E4M3FN>, %b: memref<130x704xf4E2M1FN>, %sfb: memref<130x44xf8E4M3FN>, %c: memref<64x130xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x704xf4E2M1FN>, memref<1x11x32x4x4xf8E4M3FN>, memref<130x704xf4E2M1FN>, memref<130x44xf8E4M3FN>) outs(%c : memref<64x130xf32>) {sfa_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>>}
  return
}

// -----

// Split-K on chip: the two splits of a tile are a 1 x 1 x 2 cluster that adds
// the accumulators on chip: no partials workspace, no sum kernel.
// CHECK-LABEL: func.func @split_cluster
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @nvfp4_kernels::@split_cluster_kernel clusters in (%c1{{.*}}, %c1{{.*}}, %c2{{.*}}) blocks in (%c2{{.*}}, %c2{{.*}}, %c2{{.*}})
// CHECK-NOT: sum_splits
// CHECK: gpu.func @split_cluster_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_cluster_size = array<i32: 1, 1, 2>}
// CHECK: nvfp4.gemm_tile
// CHECK-NOT: partials(
// CHECK-SAME: split %
// CHECK-NOT: sum_splits
func.func @split_cluster(%a: memref<128x512xf4E2M1FN>, %sfa: memref<1x8x32x4x4xf8E4M3FN>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<2x8x32x4x4xf8E4M3FN>, %c: memref<128x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x512xf4E2M1FN>, memref<1x8x32x4x4xf8E4M3FN>, memref<256x512xf4E2M1FN>, memref<2x8x32x4x4xf8E4M3FN>) outs(%c : memref<128x256xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>>}
  return
}

// -----

// A CTA of 512 TMEM columns (a 256-row accumulator and 2 slots' scales)
// alone on its SM: a second one would wait in tcgen05.alloc. Its 111648-byte ring launches with 116736 bytes, more
// than half an SM's 228 KiB with 1 KiB reserved per CTA.
// CHECK-LABEL: func.func @tmem_alone
// CHECK: %[[SMEM:.*]] = arith.constant 116736 : i32
// CHECK: gpu.launch_func @nvfp4_kernels::@tmem_alone_kernel blocks in {{.*}} dynamic_shared_memory_size %[[SMEM]]
func.func @tmem_alone(%a: memref<256x1024xf4E2M1FN>, %sfa: memref<2x16x32x4x4xf8E4M3FN>, %b: memref<256x1024xf4E2M1FN>, %sfb: memref<2x16x32x4x4xf8E4M3FN>, %c: memref<256x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<256x1024xf4E2M1FN>, memref<2x16x32x4x4xf8E4M3FN>, memref<256x1024xf4E2M1FN>, memref<2x16x32x4x4xf8E4M3FN>) outs(%c : memref<256x256xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 256, stages = 2>>}
  return
}
