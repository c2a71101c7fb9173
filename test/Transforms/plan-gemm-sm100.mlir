// nvfp4-plan for sm_100a: the #nvfp4.tcgen05_mainloop plan it chooses for the
// contest shapes on the B200's 148 SMs (64-row tiles of A so the grid
// fills more SMs, split-K when it still covers less than half, as many
// slots as shared memory holds, CTA pairs (cta_group = 2) where B's tiles
// pair up and the pair's smaller slots make the ring deeper), a user plan
// kept, and what it rejects.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a -verify-diagnostics | FileCheck %s

// 56 tiles of B: 64-row tiles of A make 112 CTAs; in pairs, each CTA
// holds 32 rows of A: 9 slots of 24 KiB instead of 8 of 28.
// CHECK-LABEL: func.func @contest1
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 9, cta_group = 2>>
func.func @contest1(%a: memref<128x16384xf4E2M1FN>, %sfa: memref<1x256x32x4x4xf8E4M3FN>, %b: memref<7168x16384xf4E2M1FN>, %sfb: memref<56x256x32x4x4xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x16384xf4E2M1FN>, memref<1x256x32x4x4xf8E4M3FN>, memref<7168x16384xf4E2M1FN>, memref<56x256x32x4x4xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// 32 tiles of B: 64 CTAs of 64 rows, then split-K 2 (128 CTAs), in pairs.
// CHECK-LABEL: func.func @contest2
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 9, cta_group = 2>, reduction = #nvfp4.split_k<splits = 2>>
func.func @contest2(%a: memref<128x7168xf4E2M1FN>, %sfa: memref<1x112x32x4x4xf8E4M3FN>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<32x112x32x4x4xf8E4M3FN>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7168xf4E2M1FN>, memref<1x112x32x4x4xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<32x112x32x4x4xf8E4M3FN>) outs(%c : memref<128x4096xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// CHECK-LABEL: func.func @contest3
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 8>>
func.func @contest3(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<1x32x32x4x4xf8E4M3FN>, %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<56x32x32x4x4xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<1x32x32x4x4xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<56x32x32x4x4xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// A few rows of A: the smallest tile (32); a short K keeps 2 slots.
// CHECK-LABEL: func.func @small
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 32, stages = 2
func.func @small(%a: memref<8x256xf4E2M1FN>, %sfa: memref<1x4x32x4x4xf8E4M3FN>, %b: memref<4096x256xf4E2M1FN>, %sfb: memref<32x4x32x4x4xf8E4M3FN>, %c: memref<8x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<8x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>, memref<4096x256xf4E2M1FN>, memref<32x4x32x4x4xf8E4M3FN>) outs(%c : memref<8x4096xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// A plan written in the IR is kept.
// CHECK-LABEL: func.func @kept
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 256, stages = 3>>
func.func @kept(%a: memref<256x1024xf4E2M1FN>, %sfa: memref<2x16x32x4x4xf8E4M3FN>, %b: memref<1024x1024xf4E2M1FN>, %sfb: memref<8x16x32x4x4xf8E4M3FN>, %c: memref<256x1024xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<256x1024xf4E2M1FN>, memref<2x16x32x4x4xf8E4M3FN>, memref<1024x1024xf4E2M1FN>, memref<8x16x32x4x4xf8E4M3FN>) outs(%c : memref<256x1024xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 256, stages = 3>>}
  return
}

// -----

// K = 192 is one partial slot (its 3 chunks of 64; the tile pass pads the
// scales), planned like any other K.
// CHECK-LABEL: func.func @k192
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>>
func.func @k192(%a: memref<128x192xf4E2M1FN>, %sfa: memref<1x3x32x4x4xf8E4M3FN>, %b: memref<256x192xf4E2M1FN>, %sfb: memref<2x3x32x4x4xf8E4M3FN>, %c: memref<128x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x192xf4E2M1FN>, memref<1x3x32x4x4xf8E4M3FN>, memref<256x192xf4E2M1FN>, memref<2x3x32x4x4xf8E4M3FN>) outs(%c : memref<128x256xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// K must be whole MMAs of 64 values.
func.func @k96(%a: memref<128x96xf4E2M1FN>, %sfa: memref<128x6xf8E4M3FN>, %b: memref<256x96xf4E2M1FN>, %sfb: memref<256x6xf8E4M3FN>, %c: memref<128x256xf16>) {
  // expected-error @+1 {{cannot be planned as a GEMM: the tcgen05 MMA's K is 64 fp4 values, so K % 64 == 0 is needed, but K = 96}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x96xf4E2M1FN>, memref<128x6xf8E4M3FN>, memref<256x96xf4E2M1FN>, memref<256x6xf8E4M3FN>) outs(%c : memref<128x256xf16>)
  return
}

// -----

// Plain scales plan as blocked ones do (the tile pass blocks them).
// CHECK-LABEL: func.func @plain
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>>
func.func @plain(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<256x256xf4E2M1FN>, %sfb: memref<256x16xf8E4M3FN>, %c: memref<128x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<256x256xf4E2M1FN>, memref<256x16xf8E4M3FN>) outs(%c : memref<128x256xf16>)
  return
}

// -----

// A wgmma plan is not an sm_100a plan.
func.func @wrong_kind(%a: memref<128x256xf4E2M1FN>, %sfa: memref<1x4x32x4x4xf8E4M3FN>, %b: memref<256x256xf4E2M1FN>, %sfb: memref<2x4x32x4x4xf8E4M3FN>, %c: memref<128x256xf16>) {
  // expected-error @+1 {{expects 'nvfp4.plan' to be a #nvfp4.kernel with a #nvfp4.tcgen05_mainloop}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>, memref<256x256xf4E2M1FN>, memref<2x4x32x4x4xf8E4M3FN>) outs(%c : memref<128x256xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128>>}
  return
}

// -----

// split_k must divide the K slices.
func.func @split3(%a: memref<128x512xf4E2M1FN>, %sfa: memref<1x8x32x4x4xf8E4M3FN>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<2x8x32x4x4xf8E4M3FN>, %c: memref<128x256xf16>) {
  // expected-error @+1 {{has a plan with split_k = 3, which must divide the 2 K slices of 256 values (K = 512)}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x512xf4E2M1FN>, memref<1x8x32x4x4xf8E4M3FN>, memref<256x512xf4E2M1FN>, memref<2x8x32x4x4xf8E4M3FN>) outs(%c : memref<128x256xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 2>, reduction = #nvfp4.split_k<splits = 3>>}
  return
}

