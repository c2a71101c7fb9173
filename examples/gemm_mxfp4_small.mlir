// The same GEMM in MXFP4 (M=128, N=512, K=1024): e2m1 values with an e8m0
// (power-of-two) scale per 32 values of K, as gpt-oss and most open MoE
// checkpoints ship their weights, f16 output. On an H100/H200 it runs on
// the tensor cores (bf16 wgmma on values decoded exactly) and is checked
// against the CPU reference. Without a GPU, nvfp4-run compiles it for
// sm_100a, whose tcgen05 MMAs read e8m0 scales themselves (.block32: two
// scales a row per MMA), prints the predicted B200 time, and runs the CPU
// reference; its last line says that nothing was checked.
//   nvfp4-run examples/gemm_mxfp4_small.mlir
func.func @gemm_mxfp4(%a: memref<128x1024xf4E2M1FN>,
                      %sfa: memref<128x32xf8E8M0FNU>,
                      %b: memref<512x1024xf4E2M1FN>,
                      %sfb: memref<512x32xf8E8M0FNU>,
                      %c: memref<128x512xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x1024xf4E2M1FN>, memref<128x32xf8E8M0FNU>, memref<512x1024xf4E2M1FN>, memref<512x32xf8E8M0FNU>) outs(%c : memref<128x512xf16>)
  return
}
