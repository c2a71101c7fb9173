// nvfp4-run rejects bad input with a clear message and a non-zero exit.
// RUN: rm -rf %t && mkdir -p %t

// A missing .mlir file.
// RUN: not nvfp4-run %t/nope.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: nvfp4-run: error: cannot read '{{.*}}nope.mlir': No such file or directory

// Unparsable IR.
// RUN: echo 'func.func @f(' > %t/broken.mlir
// RUN: not nvfp4-run %t/broken.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: broken.mlir:1:14: error: expected non-function type
// PARSE: nvfp4-run: error: cannot parse '{{.*}}broken.mlir' (diagnostics above)

// IR the verifier rejects.
// RUN: sed -e 's/1x1x16xf8E4M3FN/1x1x8xf8E4M3FN/g' %s > %t/invalid.mlir
// RUN: not nvfp4-run %t/invalid.mlir --entry gemv 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: error: 'nvfp4.scaled_matmul' op expects 'sfb' in the plain scale layout to have shape [1, 1, 16] ([L, N, K/16]), but got [1, 1, 8]

// Several functions and no --entry; then an unknown entry.
// RUN: not nvfp4-run %s 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: nvfp4-run: error: '{{.*}}bad-input.mlir' defines several functions (@gemv, @k96, @gemm, @grouped, @not_nvfp4); pick one with --entry
// RUN: not nvfp4-run %s --entry nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: nvfp4-run: error: no function @nope in '{{.*}}bad-input.mlir' (functions: @gemv, @k96, @gemm, @grouped, @not_nvfp4)

// An entry that is not made of nvfp4 ops.
// RUN: not nvfp4-run %s --entry not_nvfp4 2>&1 | FileCheck %s --check-prefix=NOTNVFP4
// NOTNVFP4: error: nvfp4-run executes entry functions made of nvfp4 ops on the entry's arguments; 'memref.copy' is not supported here

// Wrong number of .npy inputs.
// RUN: %python %S/Inputs/npy_tool.py fill %t/a.npy '|u1' 1x128x128 0x22
// RUN: not nvfp4-run %s --entry gemv --inputs %t/a.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: nvfp4-run: error: @gemv reads 4 input arguments, but --inputs names 1 files

// A missing .npy file.
// RUN: not nvfp4-run %s --entry gemv --inputs %t/a.npy,%t/missing.npy,%t/a.npy,%t/a.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: nvfp4-run: error: input #1 (argument #1): {{.*}}missing.npy

// Wrong dtype: f16 data where packed e2m1 bytes are expected.
// RUN: %python %S/Inputs/npy_tool.py fill %t/f16.npy '<f2' 1x128x128 0x00
// RUN: not nvfp4-run %s --entry gemv --inputs %t/f16.npy,%t/a.npy,%t/a.npy,%t/a.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: nvfp4-run: error: input #0 (argument #0): '{{.*}}f16.npy' has dtype '<f2', but memref<1x128x256xf4E2M1FN> needs '|u1' (packed e2m1 bytes, two values per byte)

// Wrong shape: K values instead of K/2 packed bytes.
// RUN: %python %S/Inputs/npy_tool.py fill %t/wide.npy '|u1' 1x128x256 0x22
// RUN: not nvfp4-run %s --entry gemv --inputs %t/wide.npy,%t/a.npy,%t/a.npy,%t/a.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: nvfp4-run: error: input #0 (argument #0): '{{.*}}wide.npy' has shape (1, 128, 256), but memref<1x128x256xf4E2M1FN> needs (1, 128, 128) (the last dimension holds K/2 packed bytes)

// Not an .npy file at all.
// RUN: %python %S/Inputs/npy_tool.py raw %t/text.npy 'hello'
// RUN: not nvfp4-run %s --entry gemv --inputs %t/text.npy,%t/a.npy,%t/a.npy,%t/a.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: nvfp4-run: error: input #0 (argument #0): {{.*}}text.npy

// An unsupported target is rejected with the list of supported ones.
// RUN: not nvfp4-run %s --entry gemv --target sm_80 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: nvfp4-run: error: unsupported target 'sm_80'; supported targets: sm_100a, sm_90a

// A shape the GEMV kernels cannot handle is reported when planning, before
// anything runs (K = 96 is a multiple of 16 but not of 64).
// RUN: not nvfp4-run %s --entry k96 --target sm_90a 2>&1 | FileCheck %s --check-prefix=PLAN
// PLAN: error: 'nvfp4.scaled_matmul' op cannot be planned as a GEMV: the GEMV kernels need K % 64 == 0 (whole 64-value chunks per load), but K = 96
// PLAN: nvfp4-run: error: cannot compile @k96 for sm_90a (diagnostics above)

// An op the target has no kernel for (K = 32: the tcgen05 MMA's K is 64)
// is an error on the GPU path, not a fallback to the CPU reference.
// RUN: not nvfp4-run %s --entry grouped --target sm_100a 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NOKERNEL: error: 'nvfp4.grouped_matmul' op cannot be planned as a GEMM: the tcgen05 MMA's K is 64 fp4 values, so K % 64 == 0 is needed, but K = 32

// An unknown --emit stage.
// RUN: not nvfp4-run %s --entry gemv --emit=sass 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: nvfp4-run: error: --emit must be one of mlir, llvm, ptx, cubin; got 'sass'

// An out-of-range option.
// RUN: not nvfp4-run %s --entry gemv --max-scale-code 127 2>&1 | FileCheck %s --check-prefix=SCALE
// SCALE: nvfp4-run: error: --max-scale-code must be at most 126

func.func @gemv(%a: memref<1x128x256xf4E2M1FN>, %sfa: memref<1x128x16xf8E4M3FN>,
                %b: memref<1x1x256xf4E2M1FN>, %sfb: memref<1x1x16xf8E4M3FN>,
                %c: memref<1x128x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x128x256xf4E2M1FN>, memref<1x128x16xf8E4M3FN>, memref<1x1x256xf4E2M1FN>, memref<1x1x16xf8E4M3FN>) outs(%c : memref<1x128x1xf16>)
  return
}

func.func @k96(%a: memref<1x8x96xf4E2M1FN>, %sfa: memref<1x8x6xf8E4M3FN>,
               %b: memref<1x1x96xf4E2M1FN>, %sfb: memref<1x1x6xf8E4M3FN>,
               %c: memref<1x8x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x8x96xf4E2M1FN>, memref<1x8x6xf8E4M3FN>, memref<1x1x96xf4E2M1FN>, memref<1x1x6xf8E4M3FN>) outs(%c : memref<1x8x1xf16>)
  return
}

func.func @gemm(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>,
                %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>,
                %c: memref<128x64xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

func.func @grouped(%a: memref<8x32xf4E2M1FN>, %sfa: memref<8x2xf8E4M3FN>,
                   %b: memref<2x4x32xf4E2M1FN>, %sfb: memref<2x4x2xf8E4M3FN>,
                   %offsets: memref<3xi32>, %c: memref<8x4xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<8x32xf4E2M1FN>, memref<8x2xf8E4M3FN>, memref<2x4x32xf4E2M1FN>, memref<2x4x2xf8E4M3FN>, memref<3xi32>) outs(%c : memref<8x4xf16>)
  return
}

func.func @not_nvfp4(%a: memref<4xf32>, %b: memref<4xf32>) {
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  return
}
