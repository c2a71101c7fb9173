// The gated dual GEMM C = silu(A·B1ᵀ) * (A·B2ᵀ): on an H100/H200 one kernel
// (the GEMM's wgmma ring with two accumulators, the gate in its epilogue),
// checked against the CPU reference:  nvfp4-run examples/dual_small.mlir
// (--cpu: the CPU reference only).
func.func @dual(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>,
                %b1: memref<32x256xf4E2M1FN>, %sfb1: memref<32x16xf8E4M3FN>,
                %b2: memref<32x256xf4E2M1FN>, %sfb2: memref<32x16xf8E4M3FN>,
                %c: memref<64x32xf32>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>, memref<32x256xf4E2M1FN>, memref<32x16xf8E4M3FN>, memref<32x256xf4E2M1FN>, memref<32x16xf8E4M3FN>) outs(%c : memref<64x32xf32>)
  return
}
