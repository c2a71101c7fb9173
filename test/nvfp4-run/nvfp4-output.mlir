// NVFP4 outputs of the GEMM kernels (C quantized in the epilogue): the CPU
// reference quantizes the fp32 values as nvfp4.quantize does, a random
// per-tensor scale of C is calibrated from them (amax / (448 x 6)), and
// both targets compile the kernels (on a GPU the codes and scales are
// checked against every fp32 value within the tolerance: RunnerTest and
// test/Integration/GPU/nvfp4-output.test).
// RUN: nvfp4-run %s --entry dual --cpu --save-inputs %t 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: nvfp4-run: @dual nvfp4.scaled_dual_matmul on cpu-reference (--cpu; not compiled): 7 inputs (random, seed 0), outputs #7 memref<200x320xf4E2M1FN> fnv1a=0x{{[0-9a-f]+}}; #8 memref<2x5x32x4x4xf8E4M3FN> fnv1a=0x{{[0-9a-f]+}}
// The calibrated scale: the first 4 bytes after the 128-byte .npy header.
// RUN: %python -c "import struct,sys; d=open(sys.argv[1],'rb').read(); g=struct.unpack('<f', d[128:132])[0]; print('g', g > 0 and g < 1e30)" %t/input6.npy | FileCheck %s --check-prefix=SCALE
// SCALE: g True
// RUN: nvfp4-run %s --entry dual --target sm_90a 2>&1 | FileCheck %s --check-prefix=SM90
// SM90: @dual: compiled for sm_90a (2 kernels)
// RUN: nvfp4-run %s --entry dual --target sm_100a 2>&1 | FileCheck %s --check-prefix=SM100
// SM100: @dual: compiled for sm_100a

// An MXFP4 C (e8m0 scales per 32 values, rounded up here) of a GEMM of
// MXFP4 operands: the CPU reference quantizes as nvfp4.quantize to MXFP4
// does, and both targets compile it (sm_90a exchanges a block's amaxes
// between the two warps that hold it).
// RUN: nvfp4-run %s --entry mx --cpu 2>&1 | FileCheck %s --check-prefix=MXCPU
// MXCPU: nvfp4-run: @mx nvfp4.scaled_matmul on cpu-reference (--cpu; not compiled): 4 inputs (random, seed 0), outputs #4 memref<2x200x96xf4E2M1FN> fnv1a=0x{{[0-9a-f]+}}; #5 memref<2x2x1x32x4x4xf8E8M0FNU> fnv1a=0x{{[0-9a-f]+}}
// RUN: nvfp4-run %s --entry mx --target sm_90a 2>&1 | FileCheck %s --check-prefix=MXSM90
// MXSM90: @mx: compiled for sm_90a
// RUN: nvfp4-run %s --entry mx --target sm_100a 2>&1 | FileCheck %s --check-prefix=MXSM100
// MXSM100: @mx: compiled for sm_100a

// An entry of several ops is checked op by op, on the inputs the GPU gave
// each: an argument written twice is refused before anything runs.
// RUN: not nvfp4-run %s --entry twice --cpu 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: writes entry argument #4, which an earlier 'nvfp4.scaled_matmul' already uses; nvfp4-run checks an entry of several ops op by op, on the inputs the GPU gave each, so each argument may be written once, before any op reads it

func.func @dual(%a: memref<200x512xf4E2M1FN>, %sfa: memref<200x32xf8E4M3FN>,
                %b1: memref<320x512xf4E2M1FN>, %sfb1: memref<320x32xf8E4M3FN>,
                %b2: memref<320x512xf4E2M1FN>, %sfb2: memref<320x32xf8E4M3FN>,
                %g: memref<1xf32>, %c: memref<200x320xf4E2M1FN>,
                %sfc: memref<2x5x32x4x4xf8E4M3FN>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<200x512xf4E2M1FN>, memref<200x32xf8E4M3FN>, memref<320x512xf4E2M1FN>, memref<320x32xf8E4M3FN>, memref<320x512xf4E2M1FN>, memref<320x32xf8E4M3FN>) outs(%c : memref<200x320xf4E2M1FN>) c_scales(%sfc : memref<2x5x32x4x4xf8E4M3FN>) c_global_scale(%g : memref<1xf32>) {c_scales_layout = #nvfp4.scale_layout<blocked>}
  return
}

func.func @twice(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>,
                 %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>,
                 %c: memref<128x64xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

func.func @mx(%a: memref<2x200x512xf4E2M1FN>, %sfa: memref<2x2x4x32x4x4xf8E8M0FNU>,
              %b: memref<2x96x512xf4E2M1FN>, %sfb: memref<2x1x4x32x4x4xf8E8M0FNU>,
              %c: memref<2x200x96xf4E2M1FN>, %sfc: memref<2x2x1x32x4x4xf8E8M0FNU>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x200x512xf4E2M1FN>, memref<2x2x4x32x4x4xf8E8M0FNU>, memref<2x96x512xf4E2M1FN>, memref<2x1x4x32x4x4xf8E8M0FNU>) outs(%c : memref<2x200x96xf4E2M1FN>) c_scales(%sfc : memref<2x2x1x32x4x4xf8E8M0FNU>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, c_scales_layout = #nvfp4.scale_layout<blocked>, c_scale_rounding = #nvfp4.scale_rounding<rceil>}
  return
}
