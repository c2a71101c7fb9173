// nvfp4-plan on GEMMs whose C is NVFP4 (quantized in the epilogue from the
// finished sums): never the CTA that decodes A itself (it has no
// quantizing store), and splits of K that add on chip, on both targets.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_90a -verify-diagnostics | FileCheck %s
// RUN: not nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a 2>/dev/null | FileCheck %s --check-prefix=SM100

// A half grid: on sm_90a the f16 C's plan (its splits add on chip
// already); on sm_100a splits of K in a cluster, where an f16 C's add in a
// workspace (mode global).
// CHECK-LABEL: func.func @half_grid
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 6, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
// SM100-LABEL: func.func @half_grid
// SM100: reduction = #nvfp4.split_k<splits = 8, mode = cluster>
func.func @half_grid(%a: memref<128x4096xf4E2M1FN>, %sfa: memref<128x256xf8E4M3FN>, %b: memref<1024x4096xf4E2M1FN>, %sfb: memref<1024x256xf8E4M3FN>, %c: memref<128x1024xf4E2M1FN>, %sfc: memref<128x64xf8E4M3FN>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x4096xf4E2M1FN>, memref<128x256xf8E4M3FN>, memref<1024x4096xf4E2M1FN>, memref<1024x256xf8E4M3FN>) outs(%c : memref<128x1024xf4E2M1FN>) c_scales(%sfc : memref<128x64xf8E4M3FN>)
  return
}

// -----

// Short K: with an f16 C one CTA decodes A itself (stages = 0,
// plan-gemm.mlir); with an NVFP4 C the pre-pass and the ring.
// CHECK-LABEL: func.func @short_k_256
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
func.func @short_k_256(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<4096x256xf4E2M1FN>, %sfb: memref<4096x16xf8E4M3FN>, %c: memref<128x4096xf4E2M1FN>, %sfc: memref<128x256xf8E4M3FN>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<4096x256xf4E2M1FN>, memref<4096x16xf8E4M3FN>) outs(%c : memref<128x4096xf4E2M1FN>) c_scales(%sfc : memref<128x256xf8E4M3FN>)
  return
}

// -----

// A given plan that cannot quantize C is refused with the reason.
func.func @given_plan_without_ring(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<4096x256xf4E2M1FN>, %sfb: memref<4096x16xf8E4M3FN>, %c: memref<128x4096xf4E2M1FN>, %sfc: memref<128x256xf8E4M3FN>) {
  // expected-error @+1 {{has an NVFP4 C, quantized in the epilogue from the finished sums, and expects a plan with a ring (stages > 0) whose splits add on chip}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<4096x256xf4E2M1FN>, memref<4096x16xf8E4M3FN>) outs(%c : memref<128x4096xf4E2M1FN>) c_scales(%sfc : memref<128x256xf8E4M3FN>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128>>}
  return
}
