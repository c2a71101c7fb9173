// Quantize bf16 activations to NVFP4 with blocked (cuBLAS/tcgen05) scales
// (no GPU kernel yet):  nvfp4-run examples/quantize_small.mlir --cpu \
//   --output q.npy,sf.npy
func.func @quantize(%x: memref<128x256xbf16>, %q: memref<128x256xf4E2M1FN>,
                    %sf: memref<1x4x32x4x4xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<128x256xbf16>) outs(%q, %sf : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>) {sf_layout = #nvfp4.scale_layout<blocked>}
  return
}
