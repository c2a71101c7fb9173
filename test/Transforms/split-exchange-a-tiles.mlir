// A split cluster's exchange with b_tma (nvfp4-software-pipeline): the
// consumers read B's bytes and scale codes in the slots with plain loads,
// so where the other splits' parts fit in the A tiles (the first
// tile_m x 128 bytes) of the ring's last slots, the exchange lies there
// (`a_tiles`: bytes only TMA writes and only MMAs read) and its first
// cluster arrive stays relaxed; otherwise it lies at the top of the ring
// and that arrive releases the reads (`release_reads`). A staged store
// ends below the exchange either way.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-tile=target=sm_90a -nvfp4-software-pipeline | FileCheck %s

// One consumer warpgroup, 6 slots of 19456 bytes: the other split's part
// (128 threads x 32 floats, 16384 bytes) fills the last slot's A tile, from
// 5 x 19456 = 97280; the part is staged from 0.
// CHECK-LABEL: gpu.func @last_slot_kernel(
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 6, slot_bytes = 19456, consumers = 4, scratch_bytes = 16384>
// CHECK: %{{.*}}, %[[PART:.*]] = nvfp4.wgmma.reduce_scatter_splits %{{.*}} in %[[RING]] splits 2 warpgroups 1 a_tiles 16384 :
// CHECK: nvfp4.wgmma.store %[[PART]] {{.*}} staged in %[[RING]] at 0 warpgroups 1
func.func @last_slot(%a: memref<128x1024xf4E2M1FN>, %sfa: memref<128x64xf8E4M3FN>, %b: memref<1024x1024xf4E2M1FN>, %sfb: memref<1024x64xf8E4M3FN>, %c: memref<128x1024xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x1024xf4E2M1FN>, memref<128x64xf8E4M3FN>, memref<1024x1024xf4E2M1FN>, memref<1024x64xf8E4M3FN>) outs(%c : memref<128x1024xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 6, k_groups = 1, b_prefetch = 2, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>}
  return
}

// -----

// Two K groups: their sums take the ring's first 32768 bytes; the exchange
// in the last slot's A tile starts at 3 x 19456 = 58368, above them, and the
// part is staged between the two, from 32768.
// CHECK-LABEL: gpu.func @above_k_groups_kernel(
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 19456, consumers = 4, scratch_bytes = 49152>
// CHECK: nvfp4.wgmma.reduce_k_groups
// CHECK: %{{.*}}, %[[PART:.*]] = nvfp4.wgmma.reduce_scatter_splits %{{.*}} in %[[RING]] splits 2 warpgroups 1 a_tiles 16384 :
// CHECK: nvfp4.wgmma.store %[[PART]] {{.*}} staged in %[[RING]] at 32768 warpgroups 1
func.func @above_k_groups(%a: memref<128x1024xf4E2M1FN>, %sfa: memref<128x64xf8E4M3FN>, %b: memref<1024x1024xf4E2M1FN>, %sfb: memref<1024x64xf8E4M3FN>, %c: memref<128x1024xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x1024xf4E2M1FN>, memref<128x64xf8E4M3FN>, memref<1024x1024xf4E2M1FN>, memref<1024x64xf8E4M3FN>) outs(%c : memref<128x1024xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4, k_groups = 2, b_prefetch = 2, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>}
  return
}

// -----

// Two warpgroups and 2 slots, the splits meeting in the first CTA (mode
// cluster): the exchange (the other split's whole tile, 65536 bytes) is
// larger than the two slots' A tiles (32768 bytes), so it stays at the
// ring's top and its first arrive releases.
// CHECK-LABEL: gpu.func @released_kernel(
// CHECK: nvfp4.wgmma.reduce_splits %{{.*}} in %{{.*}} splits 2 warpgroups 2 release_reads :
// CHECK-NOT: a_tiles
func.func @released(%a: memref<128x1024xf4E2M1FN>, %sfa: memref<128x64xf8E4M3FN>, %b: memref<1024x1024xf4E2M1FN>, %sfb: memref<1024x64xf8E4M3FN>, %c: memref<128x1024xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x1024xf4E2M1FN>, memref<128x64xf8E4M3FN>, memref<1024x1024xf4E2M1FN>, memref<1024x64xf8E4M3FN>) outs(%c : memref<128x1024xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 2, k_groups = 1, b_prefetch = 2, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>>}
  return
}
