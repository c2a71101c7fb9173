// nvfp4-plan on sm_100a tensor-core GEMMs with MXFP4 operands: tcgen05
// plans of format = mxfp4 (.block32 MMAs; a slot holds 2 scale atoms per
// 128 rows instead of 4, so the same stages fit in less shared memory),
// and the constraints that are MXFP4's own.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a -verify-diagnostics | FileCheck %s

// The contest's middle GEMM: NVFP4's plan (plan-gemm-sm100.mlir) in the
// MXFP4 format.
// CHECK-LABEL: func.func @contest
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 10, format = mxfp4, cta_group = 2>
func.func @contest(%a: memref<128x7168xf4E2M1FN>, %sfa: memref<128x224xf8E8M0FNU>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<4096x224xf8E8M0FNU>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7168xf4E2M1FN>, memref<128x224xf8E8M0FNU>, memref<4096x7168xf4E2M1FN>, memref<4096x224xf8E8M0FNU>) outs(%c : memref<128x4096xf16>)
  return
}

// -----

// The gated dual GEMM: two accumulators, MXFP4 slots.
// CHECK-LABEL: func.func @dual
// CHECK: weights = 2, format = mxfp4>
func.func @dual(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x128xf8E8M0FNU>, %b1: memref<3072x4096xf4E2M1FN>, %sfb1: memref<3072x128xf8E8M0FNU>, %b2: memref<3072x4096xf4E2M1FN>, %sfb2: memref<3072x128xf8E8M0FNU>, %c: memref<256x3072xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x4096xf4E2M1FN>, memref<256x128xf8E8M0FNU>, memref<3072x4096xf4E2M1FN>, memref<3072x128xf8E8M0FNU>, memref<3072x4096xf4E2M1FN>, memref<3072x128xf8E8M0FNU>) outs(%c : memref<256x3072xf16>)
  return
}

// -----

// K = 192: blocked MXFP4 scales (2 atoms, the second half padding) plan;
// plain ones (6 a row) the pre-pass cannot move in whole 4-scale words.
// CHECK-LABEL: func.func @blocked_k192
// CHECK: format = mxfp4
func.func @blocked_k192(%a: memref<128x192xf4E2M1FN>, %sfa: memref<1x2x32x4x4xf8E8M0FNU>, %b: memref<256x192xf4E2M1FN>, %sfb: memref<2x2x32x4x4xf8E8M0FNU>, %c: memref<128x256xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x192xf4E2M1FN>, memref<1x2x32x4x4xf8E8M0FNU>, memref<256x192xf4E2M1FN>, memref<2x2x32x4x4xf8E8M0FNU>) outs(%c : memref<128x256xf32>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

func.func @plain_k192(%a: memref<128x192xf4E2M1FN>, %sfa: memref<128x6xf8E8M0FNU>, %b: memref<256x192xf4E2M1FN>, %sfb: memref<256x6xf8E8M0FNU>, %c: memref<128x256xf32>) {
  // expected-error @+1 {{has plain MXFP4 scales, which the sm_100a kernel's pre-pass blocks in words of 4 scales, and expects K to be a multiple of 128, but K = 192; use blocked scales}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x192xf4E2M1FN>, memref<128x6xf8E8M0FNU>, memref<256x192xf4E2M1FN>, memref<256x6xf8E8M0FNU>) outs(%c : memref<128x256xf32>)
  return
}

// -----

// A given plan of the other format is refused, either way round.
func.func @nvfp4_plan_on_mxfp4(%a: memref<128x512xf4E2M1FN>, %sfa: memref<128x16xf8E8M0FNU>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<256x16xf8E8M0FNU>, %c: memref<128x256xf32>) {
  // expected-error @+1 {{has MXFP4 operands and expects a #nvfp4.tcgen05_mainloop of format = mxfp4 (its MMAs' scale vector and slot layout), but got #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 2>>}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x512xf4E2M1FN>, memref<128x16xf8E8M0FNU>, memref<256x512xf4E2M1FN>, memref<256x16xf8E8M0FNU>) outs(%c : memref<128x256xf32>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 2>>}
  return
}

// -----

func.func @mxfp4_plan_on_nvfp4(%a: memref<128x512xf4E2M1FN>, %sfa: memref<128x32xf8E4M3FN>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<256x32xf8E4M3FN>, %c: memref<128x256xf32>) {
  // expected-error @+1 {{has NVFP4 operands and expects a #nvfp4.tcgen05_mainloop of format = nvfp4}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x512xf4E2M1FN>, memref<128x32xf8E4M3FN>, memref<256x512xf4E2M1FN>, memref<256x32xf8E4M3FN>) outs(%c : memref<128x256xf32>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 2, format = mxfp4>>}
  return
}

// -----

// The grouped GEMM's A scales are plain: MXFP4 on sm_100a needs K % 128
// (here K = 4032).
func.func @grouped(%a: memref<512x4032xf4E2M1FN>, %sfa: memref<512x126xf8E8M0FNU>, %b: memref<2x3072x4032xf4E2M1FN>, %sfb: memref<2x3072x126xf8E8M0FNU>, %c: memref<512x3072xf16>, %offs: memref<3xi32>) {
  // expected-error @+1 {{has plain MXFP4 scales, which the sm_100a kernel's pre-pass blocks in words of 4 scales, and expects K to be a multiple of 128, but K = 4032 (a grouped GEMM's A scales are plain)}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offs : memref<512x4032xf4E2M1FN>, memref<512x126xf8E8M0FNU>, memref<2x3072x4032xf4E2M1FN>, memref<2x3072x126xf8E8M0FNU>, memref<3xi32>) outs(%c : memref<512x3072xf16>)
  return
}
