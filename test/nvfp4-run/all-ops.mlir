// nvfp4-run executes every nvfp4 op on the CPU reference, with --cpu or
// when no GPU is used; known inputs give known outputs.
// RUN: rm -rf %t && mkdir -p %t

// Dual: a = 1, b1 = 1, b2 = 2 (e2m1 0x2 / 0x4), scales 1 (e4m3 0x38),
// K = 32: silu(32) * 64 = 2048 (silu(32) is 32 in fp32).
// RUN: %python %S/Inputs/npy_tool.py fill %t/a.npy '|u1' 8x16 0x22
// RUN: %python %S/Inputs/npy_tool.py fill %t/sa.npy '|u1' 8x2 0x38
// RUN: %python %S/Inputs/npy_tool.py fill %t/b1.npy '|u1' 4x16 0x22
// RUN: %python %S/Inputs/npy_tool.py fill %t/b2.npy '|u1' 4x16 0x44
// RUN: %python %S/Inputs/npy_tool.py fill %t/sb.npy '|u1' 4x2 0x38
// RUN: nvfp4-run %s --entry dual --cpu --inputs %t/a.npy,%t/sa.npy,%t/b1.npy,%t/sb.npy,%t/b2.npy,%t/sb.npy --output %t/dual.npy | FileCheck %s --check-prefix=DUAL
// RUN: %python %S/Inputs/npy_tool.py dump %t/dual.npy | FileCheck %s --check-prefix=DUAL-VALUES
// DUAL: nvfp4-run: @dual nvfp4.scaled_dual_matmul on cpu-reference (--cpu; not compiled)
// DUAL-VALUES: distinct: 2048.0{{$}}

// Grouped: group 0 (offsets 0..3) uses B = 1, group 1 (3..8) B = -1 (0xA).
// RUN: %python %S/Inputs/npy_tool.py fill %t/gb.npy '|u1' 2x2x16 0x22,0xAA
// RUN: %python %S/Inputs/npy_tool.py fill %t/gsb.npy '|u1' 2x2x2 0x38
// RUN: %python %S/Inputs/npy_tool.py filli32 %t/offs.npy 0,3,8
// RUN: nvfp4-run %s --entry grouped --cpu --inputs %t/a.npy,%t/sa.npy,%t/gb.npy,%t/gsb.npy,%t/offs.npy --output %t/grouped.npy
// RUN: %python %S/Inputs/npy_tool.py dump %t/grouped.npy | FileCheck %s --check-prefix=GROUPED
// GROUPED: values: 32.0 32.0 32.0 32.0 32.0 32.0 -32.0 -32.0
// GROUPED: distinct: -32.0 32.0{{$}}
// The same run-time sizes from --group-sizes instead of a file.
// RUN: nvfp4-run %s --entry grouped --cpu --inputs %t/a.npy,%t/sa.npy,%t/gb.npy,%t/gsb.npy,%t/offs.npy --group-sizes 3,5 --output %t/grouped2.npy
// RUN: cmp %t/grouped.npy %t/grouped2.npy
// Offsets that are no partition are clamped: [1, 9, 4] over 8 rows gives
// group 0 rows 1..8, group 1 none; row 0 is left untouched (zero here).
// RUN: %python %S/Inputs/npy_tool.py filli32 %t/bad.npy 1,9,4
// RUN: nvfp4-run %s --entry grouped --cpu --inputs %t/a.npy,%t/sa.npy,%t/gb.npy,%t/gsb.npy,%t/bad.npy --output %t/clamped.npy
// RUN: %python %S/Inputs/npy_tool.py dump %t/clamped.npy | FileCheck %s --check-prefix=CLAMPED
// CLAMPED: values: 0.0 0.0 32.0 32.0 32.0 32.0 32.0 32.0
// Sizes that do not fit the op are refused.
// RUN: not nvfp4-run %s --entry grouped --cpu --group-sizes 3,6 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: nvfp4-run: error: --group-sizes: the sizes reach 9 rows at group 1 (6 rows), but the grouped GEMM's A has 8 rows (2 groups)
// RUN: not nvfp4-run %s --entry grouped --cpu --group-sizes 3,5,0 2>&1 | FileCheck %s --check-prefix=SIZES-COUNT
// SIZES-COUNT: nvfp4-run: error: --group-sizes gives 3 sizes, but the grouped GEMM has 2 groups
// RUN: not nvfp4-run %s --entry grouped --cpu --group-sizes=-1,8 2>&1 | FileCheck %s --check-prefix=SIZES-NEGATIVE
// SIZES-NEGATIVE: nvfp4-run: error: --group-sizes gives group 0 -1 rows (sizes are >= 0)
// RUN: not nvfp4-run %s --entry grouped --cpu --group-sizes=2147483647,1 2>&1 | FileCheck %s --check-prefix=SIZES-HUGE
// SIZES-HUGE: nvfp4-run: error: --group-sizes gives group 0 2147483647 rows, but the grouped GEMM's A has 8 rows (2 groups)
// A grouped GEMM's sizes for an entry without one, and the run's options
// with --emit (nothing runs), are refused rather than ignored; sizes are
// checked before anything is compiled.
// RUN: not nvfp4-run %s --entry dual --cpu --group-sizes 3,5 2>&1 | FileCheck %s --check-prefix=SIZES-NONE
// SIZES-NONE: nvfp4-run: error: --group-sizes gives a grouped GEMM's row counts, but @dual has no nvfp4.grouped_matmul whose offsets are an argument
// RUN: not nvfp4-run %s --entry grouped --target sm_90a --emit=ptx --group-sizes 3,5 2>&1 | FileCheck %s --check-prefix=EMIT-SIZES
// EMIT-SIZES: nvfp4-run: error: --emit prints a compiled stage and runs nothing; --group-sizes applies to a run
// RUN: not nvfp4-run %s --entry dual --target sm_90a --emit=ptx --seed 3 2>&1 | FileCheck %s --check-prefix=EMIT-SEED
// EMIT-SEED: nvfp4-run: error: --emit prints a compiled stage and runs nothing; --seed applies to a run
// RUN: not nvfp4-run %s --entry dual --target sm_90a --emit=ptx --save-inputs %t/never 2>&1 | FileCheck %s --check-prefix=EMIT-SAVE
// EMIT-SAVE: nvfp4-run: error: --emit prints a compiled stage and runs nothing; --save-inputs applies to a run
// A scale option whose format no input has is noted (scripts/nvfp4 run
// passes one set of options to examples of both formats).
// RUN: nvfp4-run %s --entry dual --cpu --e8m0-range 100,120 2>&1 | FileCheck %s --check-prefix=E8M0-NONE
// E8M0-NONE: nvfp4-run: note: --e8m0-range ignored: no input of @dual has e8m0 (MXFP4) scales

// Quantize: x = 3.0 everywhere (f32 0x40400000): amax/6 = 0.5 is exact in
// e4m3 (0x30), so q = 3.0 / 0.5 = 6 (e2m1 0x7, two per byte 0x77).
// RUN: %python %S/Inputs/npy_tool.py fillf32 %t/x.npy 8x32 3.0
// RUN: nvfp4-run %s --entry quantize --cpu --inputs %t/x.npy --output %t/q.npy,%t/sf.npy
// RUN: %python %S/Inputs/npy_tool.py dump %t/q.npy | FileCheck %s --check-prefix=Q
// RUN: %python %S/Inputs/npy_tool.py dump %t/sf.npy | FileCheck %s --check-prefix=SF
// Q: descr=|u1 shape=(8, 16) n=128
// Q: distinct: 119{{$}}
// SF: descr=|u1 shape=(8, 2) n=16
// SF: distinct: 48{{$}}

// --cpu and --emit exclude each other.
// RUN: not nvfp4-run %s --entry dual --cpu --emit=ptx 2>&1 | FileCheck %s --check-prefix=CPUEMIT
// CPUEMIT: nvfp4-run: error: --cpu runs the CPU reference only; it cannot --emit a compiled stage

// The bundled examples run.
// RUN: nvfp4-run %examples/dual_small.mlir --cpu | FileCheck %s --check-prefix=EXAMPLE
// RUN: nvfp4-run %examples/grouped_small.mlir --cpu | FileCheck %s --check-prefix=EXAMPLE
// RUN: nvfp4-run %examples/quantize_small.mlir --cpu | FileCheck %s --check-prefix=EXAMPLE
// RUN: rm -rf %t.ffn && mkdir -p %t.ffn
// RUN: nvfp4-run %examples/ffn_nvfp4.mlir --cpu --inputs `%python %examples/ffn_inputs.py %t.ffn` | FileCheck %s --check-prefix=EXAMPLE
// EXAMPLE: on cpu-reference (--cpu; not compiled)

func.func @dual(%a: memref<8x32xf4E2M1FN>, %sfa: memref<8x2xf8E4M3FN>,
                %b1: memref<4x32xf4E2M1FN>, %sfb1: memref<4x2xf8E4M3FN>,
                %b2: memref<4x32xf4E2M1FN>, %sfb2: memref<4x2xf8E4M3FN>,
                %c: memref<8x4xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<8x32xf4E2M1FN>, memref<8x2xf8E4M3FN>, memref<4x32xf4E2M1FN>, memref<4x2xf8E4M3FN>, memref<4x32xf4E2M1FN>, memref<4x2xf8E4M3FN>) outs(%c : memref<8x4xf16>)
  return
}

func.func @grouped(%a: memref<8x32xf4E2M1FN>, %sfa: memref<8x2xf8E4M3FN>,
                   %b: memref<2x2x32xf4E2M1FN>, %sfb: memref<2x2x2xf8E4M3FN>,
                   %offsets: memref<3xi32>, %c: memref<8x2xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<8x32xf4E2M1FN>, memref<8x2xf8E4M3FN>, memref<2x2x32xf4E2M1FN>, memref<2x2x2xf8E4M3FN>, memref<3xi32>) outs(%c : memref<8x2xf16>)
  return
}

func.func @quantize(%x: memref<8x32xf32>, %q: memref<8x32xf4E2M1FN>,
                    %sf: memref<8x2xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<8x32xf32>) outs(%q, %sf : memref<8x32xf4E2M1FN>, memref<8x2xf8E4M3FN>)
  return
}
