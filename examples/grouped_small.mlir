// A grouped (mixture-of-experts) GEMM: 3 experts sharing N = 256 and
// K = 512, whose row counts are decided at run time (here 40, 24 and 64 of
// at most 128 rows; try --group-sizes 0,100,28 on the same kernel):
//   nvfp4-run examples/grouped_small.mlir --target sm_90a   (a Hopper GPU)
//   nvfp4-run examples/grouped_small.mlir --cpu
func.func @grouped(%a: memref<128x512xf4E2M1FN>, %sfa: memref<128x32xf8E4M3FN>,
                   %b: memref<3x256x512xf4E2M1FN>, %sfb: memref<3x256x32xf8E4M3FN>,
                   %offsets: memref<4xi32>, %c: memref<128x256xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<128x512xf4E2M1FN>, memref<128x32xf8E4M3FN>, memref<3x256x512xf4E2M1FN>, memref<3x256x32xf8E4M3FN>, memref<4xi32>) outs(%c : memref<128x256xf16>) {size_hint = array<i64: 40, 24, 64>}
  return
}
