// nvfp4-plan for the gated dual GEMM on sm_90a: a two-accumulator wgmma
// ring (weights = 2); two consumer warpgroups share each tile of A (one
// where N <= 64); B's chunks through the ring where they fit (K % 256 == 0
// or blocked scales); two CTAs split K on chip where the grid would leave
// more than half the SMs idle. On sm_100a: a two-accumulator tcgen05
// mainloop (weights = 2: both TMEM accumulators and both weights' tiles
// and scales per slot, so at most 4 slots; 5 in CTA pairs, whose CTAs hold
// half the tile of A each), the GEMM's tiles, and a split that adds on
// chip (mode cluster: the gate applies after the sum; no pairs then).
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_90a | FileCheck %s
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a | FileCheck %s --check-prefix=SM100

// The first contest shape: 64 CTAs of 128 x 128 on 132 SMs, so two split K.
// CHECK-LABEL: func.func @contest
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 8, producer = true, b_tma = true, weights = 2>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
// SM100-LABEL: func.func @contest
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 5, weights = 2, cta_group = 2>>}
func.func @contest(%a: memref<256x7168xf4E2M1FN>, %sfa: memref<256x448xf8E4M3FN>, %b1: memref<4096x7168xf4E2M1FN>, %sfb1: memref<4096x448xf8E4M3FN>, %b2: memref<4096x7168xf4E2M1FN>, %sfb2: memref<4096x448xf8E4M3FN>, %c: memref<256x4096xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x7168xf4E2M1FN>, memref<256x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<256x4096xf16>)
  return
}

// -----

// A full grid (128 CTAs): no split.
// CHECK-LABEL: func.func @full_grid
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 8, producer = true, b_tma = true, weights = 2>>}
// SM100-LABEL: func.func @full_grid
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 4, weights = 2>>}
func.func @full_grid(%a: memref<512x7168xf4E2M1FN>, %sfa: memref<512x448xf8E4M3FN>, %b1: memref<4096x7168xf4E2M1FN>, %sfb1: memref<4096x448xf8E4M3FN>, %b2: memref<4096x7168xf4E2M1FN>, %sfb2: memref<4096x448xf8E4M3FN>, %c: memref<512x4096xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<512x7168xf4E2M1FN>, memref<512x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<512x4096xf16>)
  return
}

// -----

// N <= 64: one warpgroup; K % 256 != 0 with plain scales: B stays out of
// the ring (loaded into registers two rounds ahead); 20 rows of A: a tile
// of 24; K / 64 = 7 chunks: no split.
// CHECK-LABEL: func.func @small
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 24, stages = 8, producer = true, weights = 2>>}
// SM100-LABEL: func.func @small
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 32, stages = 2, weights = 2>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>>}
func.func @small(%a: memref<20x448xf4E2M1FN>, %sfa: memref<20x28xf8E4M3FN>, %b1: memref<40x448xf4E2M1FN>, %sfb1: memref<40x28xf8E4M3FN>, %b2: memref<40x448xf4E2M1FN>, %sfb2: memref<40x28xf8E4M3FN>, %c: memref<20x40xbf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<20x448xf4E2M1FN>, memref<20x28xf8E4M3FN>, memref<40x448xf4E2M1FN>, memref<40x28xf8E4M3FN>, memref<40x448xf4E2M1FN>, memref<40x28xf8E4M3FN>) outs(%c : memref<20x40xbf16>)
  return
}

// -----

// sm_100a: a short grid splits K on chip only as far as the first CTA's
// ring holds the other splits' two accumulators (4 of the 8 splits the
// slices allow).
// SM100-LABEL: func.func @narrow
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 4, weights = 2>, reduction = #nvfp4.split_k<splits = 4, mode = cluster>>}
// CHECK-LABEL: func.func @narrow
func.func @narrow(%a: memref<64x4096xf4E2M1FN>, %sfa: memref<64x256xf8E4M3FN>, %b1: memref<512x4096xf4E2M1FN>, %sfb1: memref<512x256xf8E4M3FN>, %b2: memref<512x4096xf4E2M1FN>, %sfb2: memref<512x256xf8E4M3FN>, %c: memref<64x512xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<64x4096xf4E2M1FN>, memref<64x256xf8E4M3FN>, memref<512x4096xf4E2M1FN>, memref<512x256xf8E4M3FN>, memref<512x4096xf4E2M1FN>, memref<512x256xf8E4M3FN>) outs(%c : memref<64x512xf16>)
  return
}

// -----

// A grid that would split K (24 x 2 CTAs), K <= 4096, plain B scales: a
// warpgroup a weight instead (split_weights), which swap halves of the tile.
// CHECK-LABEL: func.func @split_weights
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 8, producer = true, b_tma = true, weights = 2, split_weights = true>>}
func.func @split_weights(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x256xf8E4M3FN>, %b1: memref<3072x4096xf4E2M1FN>, %sfb1: memref<3072x256xf8E4M3FN>, %b2: memref<3072x4096xf4E2M1FN>, %sfb2: memref<3072x256xf8E4M3FN>, %c: memref<256x3072xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x4096xf4E2M1FN>, memref<256x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>) outs(%c : memref<256x3072xf16>)
  return
}

// -----

// 40 rows of A: the tile of 40 rounds up to 48, whose halves are whole
// groups of 8 columns (24 each).
// CHECK-LABEL: func.func @split_weights_rounded
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 48, stages = 8, producer = true, b_tma = true, weights = 2, split_weights = true>>}
func.func @split_weights_rounded(%a: memref<40x1024xf4E2M1FN>, %sfa: memref<40x64xf8E4M3FN>, %b1: memref<1024x1024xf4E2M1FN>, %sfb1: memref<1024x64xf8E4M3FN>, %b2: memref<1024x1024xf4E2M1FN>, %sfb2: memref<1024x64xf8E4M3FN>, %c: memref<40x1024xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<40x1024xf4E2M1FN>, memref<40x64xf8E4M3FN>, memref<1024x1024xf4E2M1FN>, memref<1024x64xf8E4M3FN>, memref<1024x1024xf4E2M1FN>, memref<1024x64xf8E4M3FN>) outs(%c : memref<40x1024xf16>)
  return
}
