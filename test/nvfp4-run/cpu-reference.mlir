// Known inputs give known outputs: a = b = 1.0 everywhere (byte 0x22 holds
// two e2m1 1.0 values), scales 1.0 (e4m3 0x38) for a and 2.0 (0x40) for b,
// so every output is K * 2 = 2048.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy_tool.py fill %t/a.npy '|u1' 2x256x512 0x22
// RUN: %python %S/Inputs/npy_tool.py fill %t/sfa.npy '|u1' 2x256x64 0x38
// RUN: %python %S/Inputs/npy_tool.py fill %t/b.npy '|u1' 2x1x512 0x22
// RUN: %python %S/Inputs/npy_tool.py fill %t/sfb.npy '|u1' 2x1x64 0x40
// RUN: nvfp4-run %s --inputs %t/a.npy,%t/sfa.npy,%t/b.npy,%t/sfb.npy --output %t/c.npy | FileCheck %s --check-prefix=SUMMARY
// RUN: %python %S/Inputs/npy_tool.py dump %t/c.npy | FileCheck %s --check-prefix=VALUES
// SUMMARY: nvfp4-run: @gemv nvfp4.scaled_matmul on cpu-reference{{.*}}: 4 inputs (npy), output #4 memref<2x256x1xf16> sum=1.048576e+06 absmax=2.048000e+03 nonfinite=0
// VALUES: descr=<f2 shape=(2, 256, 1) n=512
// VALUES: distinct: 2048.0{{$}}

// Negative values: 0xAA holds two e2m1 -1.0 values, so a*b = -1 * 1.
// RUN: %python %S/Inputs/npy_tool.py fill %t/an.npy '|u1' 2x256x512 0xAA
// RUN: nvfp4-run %s --inputs %t/an.npy,%t/sfa.npy,%t/b.npy,%t/sfb.npy --output %t/cn.npy
// RUN: %python %S/Inputs/npy_tool.py dump %t/cn.npy | FileCheck %s --check-prefix=NEG
// NEG: distinct: -2048.0{{$}}

// Without a GPU of the target, nvfp4-run still compiles for it: to a cubin
// when ptxas is there, to PTX (what the driver would assemble) when not.
// RUN: nvfp4-run %s --target sm_100a --cuda-path %t/no-cuda | FileCheck %s --check-prefix=NOPTXAS
// NOPTXAS: compiled for sm_100a: {{[0-9]+}}-byte ptx)
// RUN: %if ptxas %{ nvfp4-run %s --target sm_100a --cuda-path %cuda_root | FileCheck %s --check-prefix=CUBIN %}
// CUBIN: compiled for sm_100a: {{[0-9]+}}-byte cubin)

// Random inputs are reproducible for a seed and differ between seeds.
// RUN: nvfp4-run %s --seed 7 | grep -v '^nvfp4-run: compiled' | sed -e 's/[0-9.]* ms$//' > %t/s7a.txt
// RUN: nvfp4-run %s --seed 7 | grep -v '^nvfp4-run: compiled' | sed -e 's/[0-9.]* ms$//' > %t/s7b.txt
// RUN: diff %t/s7a.txt %t/s7b.txt
// RUN: nvfp4-run %s --seed 8 | grep -v '^nvfp4-run: compiled' | sed -e 's/[0-9.]* ms$//' > %t/s8.txt
// RUN: not diff %t/s7a.txt %t/s8.txt
func.func @gemv(%a: memref<2x256x1024xf4E2M1FN>, %sfa: memref<2x256x64xf8E4M3FN>,
                %b: memref<2x1x1024xf4E2M1FN>, %sfb: memref<2x1x64xf8E4M3FN>,
                %c: memref<2x256x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x256x1024xf4E2M1FN>, memref<2x256x64xf8E4M3FN>, memref<2x1x1024xf4E2M1FN>, memref<2x1x64xf8E4M3FN>) outs(%c : memref<2x256x1xf16>)
  return
}
