// A small batched GEMV (M=256, K=1024, L=2): c[l, m] = sum_k a[l, m, k] * b[l, 0, k]
// with e4m3 scales per 16 values of K. Run it with:
//   nvfp4-run examples/gemv_small.mlir
func.func @gemv(%a: memref<2x256x1024xf4E2M1FN>, %sfa: memref<2x256x64xf8E4M3FN>,
                %b: memref<2x1x1024xf4E2M1FN>, %sfb: memref<2x1x64xf8E4M3FN>,
                %c: memref<2x256x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x256x1024xf4E2M1FN>, memref<2x256x64xf8E4M3FN>, memref<2x1x1024xf4E2M1FN>, memref<2x1x64xf8E4M3FN>) outs(%c : memref<2x256x1xf16>)
  return
}
