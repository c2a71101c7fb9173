func.func @f(%a: memref<64x1024xf4E2M1FN>, %sa: memref<64x64xf8E4M3FN>,
             %b: memref<1x1024xf4E2M1FN>, %sb: memref<1x64xf8E4M3FN>,
             %c: memref<64x1xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sa, %b, %sb : memref<64x1024xf4E2M1FN>,
      memref<64x64xf8E4M3FN>, memref<1x1024xf4E2M1FN>, memref<1x64xf8E4M3FN>)
      outs(%c : memref<64x1xbf16>)
  return
}
