// A feed-forward block in NVFP4 end to end, one kernel chain on the GPU:
//   x (bf16) --quantize--> NVFP4 --GEMM--> h (NVFP4, quantized in the
//   GEMM's epilogue) --gated dual GEMM--> u = silu(h Wg^T) * (h Wu^T)
//   (NVFP4: the fused SwiGLU + quantize) --GEMM--> y (bf16)
// Every intermediate stays in FP4 in global memory: no f16 round trip, no
// separate quantize kernel after the GEMMs. nvfp4-run checks each op
// against the CPU reference run on the inputs the GPU gave it (the
// GPU's own NVFP4 intermediates), so a value the GPU rounded to the
// other side of an e2m1 boundary is judged where it happened:
//   nvfp4-run examples/ffn_nvfp4.mlir \
//       --inputs $(python3 examples/ffn_inputs.py /tmp/ffn)
// (on an H100/H200; --cpu: the CPU reference alone). The inputs are a
// layer's: x ~ N(0, 1), weights whose products stay of unit size
// (nvfp4-run's own random inputs are adversarial: they saturate the
// intermediates' scales, and are checked as well).
// The intermediates use their block scales alone (no per-tensor scale):
// the GEMMs do not yet take their operands' per-tensor scales (an alpha),
// so h and u carry their magnitude in the e4m3 block scales, which cover
// 2^-9 x 6 to 448 x 6 per block.
func.func @ffn(%x: memref<256x1024xbf16>,
               %w1: memref<1024x1024xf4E2M1FN>, %sw1: memref<1024x64xf8E4M3FN>,
               %wg: memref<2048x1024xf4E2M1FN>, %swg: memref<2048x64xf8E4M3FN>,
               %wu: memref<2048x1024xf4E2M1FN>, %swu: memref<2048x64xf8E4M3FN>,
               %wd: memref<1024x2048xf4E2M1FN>, %swd: memref<1024x128xf8E4M3FN>,
               %xq: memref<256x1024xf4E2M1FN>, %sx: memref<256x64xf8E4M3FN>,
               %h: memref<256x1024xf4E2M1FN>, %sh: memref<256x64xf8E4M3FN>,
               %u: memref<256x2048xf4E2M1FN>, %su: memref<256x128xf8E4M3FN>,
               %y: memref<256x1024xbf16>) {
  nvfp4.quantize ins(%x : memref<256x1024xbf16>) outs(%xq, %sx : memref<256x1024xf4E2M1FN>, memref<256x64xf8E4M3FN>)
  nvfp4.scaled_matmul ins(%xq, %sx, %w1, %sw1 : memref<256x1024xf4E2M1FN>, memref<256x64xf8E4M3FN>, memref<1024x1024xf4E2M1FN>, memref<1024x64xf8E4M3FN>) outs(%h : memref<256x1024xf4E2M1FN>) c_scales(%sh : memref<256x64xf8E4M3FN>)
  nvfp4.scaled_dual_matmul ins(%h, %sh, %wg, %swg, %wu, %swu : memref<256x1024xf4E2M1FN>, memref<256x64xf8E4M3FN>, memref<2048x1024xf4E2M1FN>, memref<2048x64xf8E4M3FN>, memref<2048x1024xf4E2M1FN>, memref<2048x64xf8E4M3FN>) outs(%u : memref<256x2048xf4E2M1FN>) c_scales(%su : memref<256x128xf8E4M3FN>)
  nvfp4.scaled_matmul ins(%u, %su, %wd, %swd : memref<256x2048xf4E2M1FN>, memref<256x128xf8E4M3FN>, memref<1024x2048xf4E2M1FN>, memref<1024x128xf8E4M3FN>) outs(%y : memref<256x1024xbf16>)
  return
}
