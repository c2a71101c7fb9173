// Where an MXFP4 C's warps exchange their amaxes on sm_90a (a 32-value
// block of a row of C spans two warps): in the ring's memory, free after
// the K loop, where a staged tile of C would go (from byte 0 above no K
// groups' sums); with a split cluster whose exchange fills the A tiles of
// every slot from the ring's start, in the rest of the first slot (its B
// bytes: the other splits write only A tiles).
// RUN: nvfp4-opt %s -split-input-file -nvfp4-tile=target=sm_90a -nvfp4-software-pipeline | FileCheck %s

// Two warpgroups, one K group: the exchange from 0 (the store itself
// waits for both warpgroups); rounding floor by default.
// CHECK-LABEL: gpu.func @two_warpgroups_kernel(
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 22528, consumers = 8>
// CHECK: nvfp4.wgmma.store %{{.*}} outs(%{{.*}} : memref<512x3104xf4E2M1FN>) c_scales(%{{.*}} : memref<512x97xf8E8M0FNU>) at m %{{.*}} row %{{.*}} batch %{{.*}} staged in %[[RING]] at 0 warpgroups 2 : vector<64xf32>
// CHECK-NOT: c_scale_rounding
func.func @two_warpgroups(%a: memref<512x4096xf4E2M1FN>, %sfa: memref<512x256xf8E4M3FN>, %b: memref<3104x4096xf4E2M1FN>, %sfb: memref<3104x256xf8E4M3FN>, %c: memref<512x3104xf4E2M1FN>, %sfc: memref<512x97xf8E8M0FNU>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<512x4096xf4E2M1FN>, memref<512x256xf8E4M3FN>, memref<3104x4096xf4E2M1FN>, memref<3104x256xf8E4M3FN>) outs(%c : memref<512x3104xf4E2M1FN>) c_scales(%sfc : memref<512x97xf8E8M0FNU>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 8, k_groups = 1, b_prefetch = 2, producer = true, b_tma = true>>}
  return
}

// -----

// A split cluster of the dual GEMM: the other split's 2 x 256 x 104 floats
// (106496 bytes) fill all 8 slots' A tiles of 13312 bytes, so the exchange
// lies after slot 0's A tile; the rounding travels with the store.
// CHECK-LABEL: gpu.func @split_cluster_kernel(
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 25600, consumers = 8, scratch_bytes = 106496>
// CHECK: nvfp4.wgmma.reduce_splits %{{.*}} in %[[RING]] splits 2 warpgroups 2 a_tiles 13312
// CHECK: nvfp4.wgmma.store %{{.*}} staged in %[[RING]] at 13312 warpgroups 2 {c_scale_rounding = #nvfp4.scale_rounding<rceil>, c_scales_layout = #nvfp4.scale_layout<blocked>} : vector<52xf32>
func.func @split_cluster(%a: memref<100x256xf4E2M1FN>, %sfa: memref<100x16xf8E4M3FN>, %b1: memref<96x256xf4E2M1FN>, %sfb1: memref<96x16xf8E4M3FN>, %b2: memref<96x256xf4E2M1FN>, %sfb2: memref<96x16xf8E4M3FN>, %c: memref<100x96xf4E2M1FN>, %sfc: memref<1x1x32x4x4xf8E8M0FNU>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<100x256xf4E2M1FN>, memref<100x16xf8E4M3FN>, memref<96x256xf4E2M1FN>, memref<96x16xf8E4M3FN>, memref<96x256xf4E2M1FN>, memref<96x16xf8E4M3FN>) outs(%c : memref<100x96xf4E2M1FN>) c_scales(%sfc : memref<1x1x32x4x4xf8E8M0FNU>) {c_scale_rounding = #nvfp4.scale_rounding<rceil>, c_scales_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 104, stages = 8, producer = true, b_tma = true, weights = 2>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>>}
  return
}
