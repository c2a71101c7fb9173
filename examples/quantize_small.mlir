// Quantize bf16 activations to NVFP4: a per-tensor scale (nvfp4-run fills
// it with the input's amax / (448 x 6)) and blocked (cuBLAS/tcgen05) e4m3
// block scales, ready for the GEMM's A operand. On the GPU when one
// answers, checked bit for bit against the CPU reference:
//   nvfp4-run examples/quantize_small.mlir --output q.npy,sf.npy
func.func @quantize(%x: memref<128x256xbf16>, %g: memref<1xf32>,
                    %q: memref<128x256xf4E2M1FN>,
                    %sf: memref<1x4x32x4x4xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<128x256xbf16>) global_scale(%g : memref<1xf32>) outs(%q, %sf : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>) {sf_layout = #nvfp4.scale_layout<blocked>}
  return
}
