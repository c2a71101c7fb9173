// A small block-scaled GEMM (M=128, N=512, K=1024): c[m, n] = sum_k a[m, k] *
// b[n, k], e2m1 values with e4m3 scales per 16 values of K, f16 output. On
// an H100/H200 it runs on the tensor cores (wgmma) and is checked against
// the CPU reference. Without a GPU, nvfp4-run compiles it for sm_100a
// (tcgen05; these plain scales go through two scale pre-pass kernels, and
// split-K through a sum kernel: 4 kernels), prints the predicted B200 time,
// and runs the CPU reference; its last line says that nothing was checked.
//   nvfp4-run examples/gemm_small.mlir
func.func @gemm(%a: memref<128x1024xf4E2M1FN>, %sfa: memref<128x64xf8E4M3FN>,
                %b: memref<512x1024xf4E2M1FN>, %sfb: memref<512x64xf8E4M3FN>,
                %c: memref<128x512xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x1024xf4E2M1FN>, memref<128x64xf8E4M3FN>, memref<512x1024xf4E2M1FN>, memref<512x64xf8E4M3FN>) outs(%c : memref<128x512xf16>)
  return
}
