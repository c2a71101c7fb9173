// Shapes whose GEMV grid CUDA cannot launch, or whose rows the kernels
// cannot index, are rejected when planning, with the limit named.
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics -nvfp4-plan=target=sm_90a

// The batch is the grid's y dimension (at most 65535).
func.func @batch(%a: memref<70000x8x64xf4E2M1FN>, %sfa: memref<70000x8x4xf8E4M3FN>, %b: memref<70000x1x64xf4E2M1FN>, %sfb: memref<70000x1x4xf8E4M3FN>, %c: memref<70000x8x1xf16>) {
  // expected-error @+1 {{cannot be launched as one GEMV: its batch (L = 70000) is the grid's y dimension, which CUDA limits to 65535 CTAs; split the batch}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<70000x8x64xf4E2M1FN>, memref<70000x8x4xf8E4M3FN>, memref<70000x1x64xf4E2M1FN>, memref<70000x1x4xf8E4M3FN>) outs(%c : memref<70000x8x1xf16>)
  return
}

// -----

// Rows are 32-bit indices in the kernels.
func.func @rows(%a: memref<4294967296x64xf4E2M1FN>, %sfa: memref<4294967296x4xf8E4M3FN>, %b: memref<1x64xf4E2M1FN>, %sfb: memref<1x4xf8E4M3FN>, %c: memref<4294967296x1xf16>) {
  // expected-error @+1 {{cannot be planned as a GEMV: the kernels index rows and K in 32 bits, so M and K must be below 2^31, but M = 4294967296 and K = 64}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<4294967296x64xf4E2M1FN>, memref<4294967296x4xf8E4M3FN>, memref<1x64xf4E2M1FN>, memref<1x4xf8E4M3FN>) outs(%c : memref<4294967296x1xf16>)
  return
}

// -----

// The planner's ring for a GEMM of 2^31 - 64 values of K: the pre-pass's
// workspace of A's tiles would need more rows than TMA's signed 32-bit
// coordinates reach; the op says so and names the plan that has none.
func.func @a_tiles(%a: memref<128x2147483584xf4E2M1FN>, %sfa: memref<128x134217724xf8E4M3FN>, %b: memref<128x2147483584xf4E2M1FN>, %sfb: memref<128x134217724xf8E4M3FN>, %c: memref<128x128xf16>) {
  // expected-error @+1 {{has a plan whose pre-pass decodes A into 4294967168 rows of tiles, past TMA's signed 32-bit row coordinates; give it a plan with stages = 0 (A decoded in each CTA)}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2147483584xf4E2M1FN>, memref<128x134217724xf8E4M3FN>, memref<128x2147483584xf4E2M1FN>, memref<128x134217724xf8E4M3FN>) outs(%c : memref<128x128xf16>)
  return
}

// -----

// The same bound on a grouped GEMM's workspace (as many tiles as its groups
// can need; no stages = 0 plan for it) and on each independent problem's.
func.func @a_tiles_grouped(%a: memref<128x2147483584xf4E2M1FN>, %sfa: memref<128x134217724xf8E4M3FN>, %b: memref<2x64x2147483584xf4E2M1FN>, %sfb: memref<2x64x134217724xf8E4M3FN>, %offsets: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{has a plan whose pre-pass decodes A into 6442450752 rows of tiles, past TMA's signed 32-bit row coordinates}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<128x2147483584xf4E2M1FN>, memref<128x134217724xf8E4M3FN>, memref<2x64x2147483584xf4E2M1FN>, memref<2x64x134217724xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>) {size_hint = array<i64: 64, 64>}
  return
}

// -----

func.func @a_tiles_problems(%a0: memref<128x2147483584xf4E2M1FN>, %sfa0: memref<128x134217724xf8E4M3FN>, %b0: memref<128x2147483584xf4E2M1FN>, %sfb0: memref<128x134217724xf8E4M3FN>, %c0: memref<128x128xf16>) {
  // expected-error @+1 {{has a plan whose pre-pass decodes problem 0's A into 4294967168 rows of tiles, past TMA's signed 32-bit row coordinates; give it a plan with stages = 0 (A decoded in each CTA)}}
  nvfp4.grouped_problems a(%a0 : memref<128x2147483584xf4E2M1FN>)
      sfa(%sfa0 : memref<128x134217724xf8E4M3FN>)
      b(%b0 : memref<128x2147483584xf4E2M1FN>)
      sfb(%sfb0 : memref<128x134217724xf8E4M3FN>)
      outs(%c0 : memref<128x128xf16>)
  return
}
