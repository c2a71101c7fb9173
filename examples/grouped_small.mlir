// A grouped GEMM: 3 problems with M = 40, 24, 64 sharing N = 32 and K = 256
// (no GPU kernel yet):  nvfp4-run examples/grouped_small.mlir --cpu
func.func @grouped(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>,
                   %b: memref<3x32x256xf4E2M1FN>, %sfb: memref<3x32x16xf8E4M3FN>,
                   %c: memref<128x32xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<3x32x256xf4E2M1FN>, memref<3x32x16xf8E4M3FN>) outs(%c : memref<128x32xf16>) {group_sizes = array<i64: 40, 24, 64>}
  return
}
