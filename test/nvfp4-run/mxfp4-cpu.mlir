// MXFP4 (e8m0 scales per 32 values) on the CPU reference, with known
// inputs and known outputs.
// RUN: rm -rf %t && mkdir -p %t

// a = b = 1.0 (byte 0x22), A's scales 1.0 (e8m0 0x7F), B's 2.0 (0x80):
// every output is K x 2 = 256.
// RUN: %python %S/Inputs/npy_tool.py fill %t/a.npy '|u1' 64x64 0x22
// RUN: %python %S/Inputs/npy_tool.py fill %t/sfa.npy '|u1' 64x4 0x7F
// RUN: %python %S/Inputs/npy_tool.py fill %t/b.npy '|u1' 96x64 0x22
// RUN: %python %S/Inputs/npy_tool.py fill %t/sfb.npy '|u1' 96x4 0x80
// RUN: nvfp4-run %s --entry gemm --cpu --inputs %t/a.npy,%t/sfa.npy,%t/b.npy,%t/sfb.npy --output %t/c.npy | FileCheck %s --check-prefix=GEMM
// RUN: %python %S/Inputs/npy_tool.py dump %t/c.npy | FileCheck %s --check-prefix=C256
// GEMM: nvfp4-run: @gemm nvfp4.scaled_matmul on cpu-reference
// C256: distinct: 256.0{{$}}

// The products are exact: a = 4.0 (0x66) at scale 2^127 (0xFE) times
// b = 1.0 at 2^-127 (0x00) is 4 per element, 512 in all, although
// 4 x 2^127 alone overflows fp32.
// RUN: %python %S/Inputs/npy_tool.py fill %t/a4.npy '|u1' 64x64 0x66
// RUN: %python %S/Inputs/npy_tool.py fill %t/sfabig.npy '|u1' 64x4 0xFE
// RUN: %python %S/Inputs/npy_tool.py fill %t/sfbtiny.npy '|u1' 96x4 0x00
// RUN: nvfp4-run %s --entry gemm --cpu --inputs %t/a4.npy,%t/sfabig.npy,%t/b.npy,%t/sfbtiny.npy --output %t/c4.npy
// RUN: %python %S/Inputs/npy_tool.py dump %t/c4.npy | FileCheck %s --check-prefix=C512
// C512: distinct: 512.0{{$}}

// A NaN scale (0xFF) makes its row's outputs NaN.
// RUN: %python %S/Inputs/npy_tool.py fill %t/sfanan.npy '|u1' 64x4 0xFF
// RUN: nvfp4-run %s --entry gemm --cpu --inputs %t/a.npy,%t/sfanan.npy,%t/b.npy,%t/sfb.npy | FileCheck %s --check-prefix=NAN
// NAN: nonfinite=6144

// Quantize 7.0 everywhere: floor's scale is 2^0 (0x7F) and 7 saturates
// to 6 (nibbles 0x7); rceil's is 7/6 rounded up, 2^1 (0x80), and 3.5 ties
// to the even 4.0 (0x6).
// RUN: %python %S/Inputs/npy_tool.py fillf32 %t/x.npy 4x64 7.0
// RUN: nvfp4-run %s --entry quantize_floor --cpu --inputs %t/x.npy --output %t/qf.npy,%t/sf.npy
// RUN: %python %S/Inputs/npy_tool.py dump %t/qf.npy | FileCheck %s --check-prefix=QFLOOR
// RUN: %python %S/Inputs/npy_tool.py dump %t/sf.npy | FileCheck %s --check-prefix=SFLOOR
// QFLOOR: distinct: 119{{$}}
// SFLOOR: distinct: 127{{$}}
// RUN: nvfp4-run %s --entry quantize_rceil --cpu --inputs %t/x.npy --output %t/qr.npy,%t/sr.npy
// RUN: %python %S/Inputs/npy_tool.py dump %t/qr.npy | FileCheck %s --check-prefix=QRCEIL
// RUN: %python %S/Inputs/npy_tool.py dump %t/sr.npy | FileCheck %s --check-prefix=SRCEIL
// QRCEIL: distinct: 102{{$}}
// SRCEIL: distinct: 128{{$}}

// Random e8m0 scales are drawn from --e8m0-range; bad ranges are refused.
// RUN: nvfp4-run %s --entry gemm --cpu --e8m0-range 0,254 | FileCheck %s --check-prefix=RANGE
// RANGE: @gemm nvfp4.scaled_matmul on cpu-reference
// RUN: not nvfp4-run %s --entry gemm --cpu --e8m0-range 9,3 2>&1 | FileCheck %s --check-prefix=BADRANGE
// BADRANGE: --e8m0-range takes two codes LO,HI with LO <= HI <= 255

func.func @gemm(%a: memref<64x128xf4E2M1FN>, %sfa: memref<64x4xf8E8M0FNU>,
                %b: memref<96x128xf4E2M1FN>, %sfb: memref<96x4xf8E8M0FNU>,
                %c: memref<64x96xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x128xf4E2M1FN>,
      memref<64x4xf8E8M0FNU>, memref<96x128xf4E2M1FN>,
      memref<96x4xf8E8M0FNU>) outs(%c : memref<64x96xf32>)
  return
}

func.func @quantize_floor(%x: memref<4x64xf32>, %q: memref<4x64xf4E2M1FN>,
                          %sf: memref<4x2xf8E8M0FNU>) {
  nvfp4.quantize ins(%x : memref<4x64xf32>)
      outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x2xf8E8M0FNU>)
  return
}

func.func @quantize_rceil(%x: memref<4x64xf32>, %q: memref<4x64xf4E2M1FN>,
                          %sf: memref<4x2xf8E8M0FNU>) {
  nvfp4.quantize ins(%x : memref<4x64xf32>)
      outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x2xf8E8M0FNU>)
      {scale_rounding = #nvfp4.scale_rounding<rceil>}
  return
}
