// nvfp4-plan on tensor-core GEMMs with MXFP4 operands (e8m0 scales per 32
// values): on sm_90a the ring's plans (only the ring's ops decode MXFP4;
// never the CTA that decodes A itself), B through the ring where a plain
// row of scales (K / 32 bytes) is a multiple of 16 bytes. sm_100a:
// plan-mxfp4-sm100.mlir.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_90a -verify-diagnostics | FileCheck %s

// The contest's middle GEMM: the NVFP4 plan (K % 512 == 0: b_tma).
// CHECK-LABEL: func.func @contest
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 6, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
func.func @contest(%a: memref<128x7168xf4E2M1FN>, %sfa: memref<128x224xf8E8M0FNU>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<4096x224xf8E8M0FNU>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7168xf4E2M1FN>, memref<128x224xf8E8M0FNU>, memref<4096x7168xf4E2M1FN>, memref<4096x224xf8E8M0FNU>) outs(%c : memref<128x4096xf16>)
  return
}

// -----

// K = 6400: NVFP4's plain scales (400 bytes a row) would come through the
// ring, MXFP4's (200 bytes) cannot; blocked MXFP4 scales can.
// CHECK-LABEL: func.func @plain_k_6400
// CHECK-NOT: b_tma = true
// CHECK-LABEL: func.func @blocked_k_6400
// CHECK: b_tma = true
func.func @plain_k_6400(%a: memref<128x6400xf4E2M1FN>, %sfa: memref<128x200xf8E8M0FNU>, %b: memref<4096x6400xf4E2M1FN>, %sfb: memref<4096x200xf8E8M0FNU>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x6400xf4E2M1FN>, memref<128x200xf8E8M0FNU>, memref<4096x6400xf4E2M1FN>, memref<4096x200xf8E8M0FNU>) outs(%c : memref<128x4096xf16>)
  return
}
func.func @blocked_k_6400(%a: memref<128x6400xf4E2M1FN>, %sfa: memref<128x200xf8E8M0FNU>, %b: memref<4096x6400xf4E2M1FN>, %sfb: memref<32x50x32x4x4xf8E8M0FNU>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x6400xf4E2M1FN>, memref<128x200xf8E8M0FNU>, memref<4096x6400xf4E2M1FN>, memref<32x50x32x4x4xf8E8M0FNU>) outs(%c : memref<128x4096xf16>) {sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// Short K: an NVFP4 GEMM's CTA decodes A itself (stages = 0,
// plan-gemm.mlir); an MXFP4 one gets the pre-pass and the ring.
// CHECK-LABEL: func.func @short_k
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
func.func @short_k(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x8xf8E8M0FNU>, %b: memref<4096x256xf4E2M1FN>, %sfb: memref<4096x8xf8E8M0FNU>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x8xf8E8M0FNU>, memref<4096x256xf4E2M1FN>, memref<4096x8xf8E8M0FNU>) outs(%c : memref<128x4096xf16>)
  return
}

// -----

// The gated dual GEMM and the grouped GEMM plan as they do with NVFP4.
// CHECK-LABEL: func.func @dual
// CHECK: weights = 2
// CHECK-LABEL: func.func @grouped
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<
func.func @dual(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x128xf8E8M0FNU>, %b1: memref<3072x4096xf4E2M1FN>, %sfb1: memref<3072x128xf8E8M0FNU>, %b2: memref<3072x4096xf4E2M1FN>, %sfb2: memref<3072x128xf8E8M0FNU>, %c: memref<256x3072xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x4096xf4E2M1FN>, memref<256x128xf8E8M0FNU>, memref<3072x4096xf4E2M1FN>, memref<3072x128xf8E8M0FNU>, memref<3072x4096xf4E2M1FN>, memref<3072x128xf8E8M0FNU>) outs(%c : memref<256x3072xf16>)
  return
}
func.func @grouped(%a: memref<512x4096xf4E2M1FN>, %sfa: memref<512x128xf8E8M0FNU>, %b: memref<2x3072x4096xf4E2M1FN>, %sfb: memref<2x3072x128xf8E8M0FNU>, %c: memref<512x3072xf16>, %offs: memref<3xi32>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offs : memref<512x4096xf4E2M1FN>, memref<512x128xf8E8M0FNU>, memref<2x3072x4096xf4E2M1FN>, memref<2x3072x128xf8E8M0FNU>, memref<3xi32>) outs(%c : memref<512x3072xf16>)
  return
}

// -----

// A given plan whose CTA decodes A itself is refused with the reason.
func.func @given_plan_without_ring(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x8xf8E8M0FNU>, %b: memref<4096x256xf4E2M1FN>, %sfb: memref<4096x8xf8E8M0FNU>, %c: memref<128x4096xf16>) {
  // expected-error @+1 {{has MXFP4 operands, which only the ring's ops decode, and expects a plan with a ring (stages > 0)}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x8xf8E8M0FNU>, memref<4096x256xf4E2M1FN>, memref<4096x8xf8E8M0FNU>) outs(%c : memref<128x4096xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128>>}
  return
}
