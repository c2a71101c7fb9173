// nvfp4-run's options: combinations that cannot do what they say are
// refused, spellings users reach for are accepted.
// RUN: rm -rf %t && mkdir -p %t

// --iters 0 would time nothing.
// RUN: not nvfp4-run %s --entry gemv --iters 0 2>&1 | FileCheck %s --check-prefix=ITERS
// ITERS: nvfp4-run: error: --iters must be at least 1
// --iters without --bench, and random-input options with loaded inputs,
// would be ignored: errors instead.
// RUN: not nvfp4-run %s --entry gemv --cpu --iters 5 2>&1 | FileCheck %s --check-prefix=ITERSNOBENCH
// ITERSNOBENCH: nvfp4-run: error: --iters sets how many launches --bench times; without --bench nothing is timed
// RUN: not nvfp4-run %s --entry gemv --cpu --seed 3 --inputs a.npy,b.npy,c.npy,d.npy 2>&1 | FileCheck %s --check-prefix=SEEDINPUTS
// SEEDINPUTS: nvfp4-run: error: --seed shapes the random inputs, but --inputs loads them from .npy files
// RUN: not nvfp4-run %s --entry gemv --cpu --max-scale-code 100 --inputs a.npy,b.npy,c.npy,d.npy 2>&1 | FileCheck %s --check-prefix=SCALEINPUTS
// SCALEINPUTS: nvfp4-run: error: --max-scale-code shapes the random inputs, but --inputs loads them from .npy files

// -o only names the --emit destination.
// RUN: not nvfp4-run %s --entry gemv -o %t/x.ptx 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: nvfp4-run: error: -o names the file for --emit; without --emit nothing is written to it (outputs go to --output)

// --emit runs nothing, so it cannot be timed or required on a GPU.
// RUN: not nvfp4-run %s --entry gemv --emit=ptx --bench 2>&1 | FileCheck %s --check-prefix=EMITBENCH
// EMITBENCH: nvfp4-run: error: --emit prints a compiled stage and runs nothing; it cannot be combined with --bench
// RUN: not nvfp4-run %s --entry gemv --cpu --require-gpu 2>&1 | FileCheck %s --check-prefix=CPUGPU
// CPUGPU: nvfp4-run: error: --cpu runs the CPU reference only; it cannot --require-gpu

// A cubin is binary: not to a terminal (script gives the command one).
// RUN: script -qec "nvfp4-run %s --entry gemv --target sm_90a --emit=cubin" /dev/null > %t/tty.txt || true
// RUN: FileCheck %s --check-prefix=TTY < %t/tty.txt
// TTY: nvfp4-run: error: --emit=cubin writes binary data; refusing to write it to a terminal (use -o FILE or a redirection)

// `--entry @name` is the IR's spelling of the name.
// RUN: nvfp4-run %s --entry @gemv --cpu | FileCheck %s --check-prefix=AT
// AT: nvfp4-run: @gemv nvfp4.scaled_matmul on cpu-reference

// Spaces around the names of --inputs are trimmed; --save-inputs writes
// the inputs a run used, and --inputs repeats that run exactly.
// RUN: nvfp4-run %s --entry gemv --cpu --seed 5 --save-inputs %t/in 2>%t/note.txt | sed -e 's/random, seed 5/INPUTS/; s/[0-9.]* ms$//' > %t/random.txt
// RUN: FileCheck %s --check-prefix=SAVED < %t/note.txt
// SAVED: nvfp4-run: note: inputs saved; repeat this run with --inputs {{.*}}in/input0.npy,{{.*}}in/input1.npy,{{.*}}in/input2.npy,{{.*}}in/input3.npy
// RUN: nvfp4-run %s --entry gemv --cpu --inputs "%t/in/input0.npy, %t/in/input1.npy , %t/in/input2.npy,%t/in/input3.npy" | sed -e 's/npy/INPUTS/; s/[0-9.]* ms$//' > %t/loaded.txt
// RUN: diff %t/random.txt %t/loaded.txt

// Shapes whose host buffers cannot exist are refused before anything is
// allocated, with the bytes they would need; --emit allocates nothing.
// RUN: not nvfp4-run %s --entry huge 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: nvfp4-run: error: @huge would need 2473907716096 bytes of host memory for its arguments and their reference copies, more than nvfp4-run's limit of 68719476736 bytes; compile it with --emit instead
// RUN: not nvfp4-run %s --entry overflow --cpu 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: nvfp4-run: error: @overflow would need more than 2^64 bytes of host memory
// RUN: nvfp4-run %s --entry huge --target sm_90a --emit=mlir | FileCheck %s --check-prefix=EMITHUGE
// EMITHUGE: gpu.launch_func @nvfp4_kernels::@huge_kernel

// Non-finite outputs are counted and located (f16 overflows with large
// scales and K); every output appears in the summary.
// RUN: nvfp4-run %s --entry overflowing --cpu --max-scale-code 126 2>&1 | FileCheck %s --check-prefix=NONFINITE
// NONFINITE: nvfp4-run: warning: argument #4 holds {{[0-9]+}} non-finite values of 4096 ({{[0-9.]+}}%); the first at [{{[0-9]+}}, 0] is {{-?INF}}
// NONFINITE: output #4 memref<4096x1xf16> sum={{.*}} nonfinite={{[1-9][0-9]*}}

// --version names the project and the commit built.
// RUN: nvfp4-run --version | FileCheck %s --check-prefix=VERSION
// VERSION: nvfp4 0.1.0 (commit

func.func @gemv(%a: memref<1x128x256xf4E2M1FN>, %sfa: memref<1x128x16xf8E4M3FN>,
                %b: memref<1x1x256xf4E2M1FN>, %sfb: memref<1x1x16xf8E4M3FN>,
                %c: memref<1x128x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x128x256xf4E2M1FN>, memref<1x128x16xf8E4M3FN>, memref<1x1x256xf4E2M1FN>, memref<1x1x16xf8E4M3FN>) outs(%c : memref<1x128x1xf16>)
  return
}

func.func @huge(%a: memref<1048576x2097152xf4E2M1FN>, %sfa: memref<1048576x131072xf8E4M3FN>,
                %b: memref<1x2097152xf4E2M1FN>, %sfb: memref<1x131072xf8E4M3FN>,
                %c: memref<1048576x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1048576x2097152xf4E2M1FN>, memref<1048576x131072xf8E4M3FN>, memref<1x2097152xf4E2M1FN>, memref<1x131072xf8E4M3FN>) outs(%c : memref<1048576x1xf16>)
  return
}

func.func @overflow(%a: memref<9223372036854775807x64xf4E2M1FN>, %sfa: memref<9223372036854775807x4xf8E4M3FN>,
                    %b: memref<1x64xf4E2M1FN>, %sfb: memref<1x4xf8E4M3FN>,
                    %c: memref<9223372036854775807x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<9223372036854775807x64xf4E2M1FN>, memref<9223372036854775807x4xf8E4M3FN>, memref<1x64xf4E2M1FN>, memref<1x4xf8E4M3FN>) outs(%c : memref<9223372036854775807x1xf16>)
  return
}

func.func @overflowing(%a: memref<4096x8192xf4E2M1FN>, %sfa: memref<4096x512xf8E4M3FN>,
                       %b: memref<1x8192xf4E2M1FN>, %sfb: memref<1x512xf8E4M3FN>,
                       %c: memref<4096x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<4096x8192xf4E2M1FN>, memref<4096x512xf8E4M3FN>, memref<1x8192xf4E2M1FN>, memref<1x512xf8E4M3FN>) outs(%c : memref<4096x1xf16>)
  return
}

// An argument of an element type nvfp4 has no buffers for is refused (not
// a buffer of the wrong size).
// RUN: not nvfp4-run %s --entry extra_arg --cpu 2>&1 | FileCheck %s --check-prefix=ARGTYPE
// ARGTYPE: error: entry argument #5 has element type 'i8'; nvfp4-run handles f4E2M1FN, f8E4M3FN, f8E8M0FNU, f16, bf16, f32 and i32 (a grouped GEMM's offsets)
func.func @extra_arg(%a: memref<1x128x256xf4E2M1FN>, %sfa: memref<1x128x16xf8E4M3FN>,
                     %b: memref<1x1x256xf4E2M1FN>, %sfb: memref<1x1x16xf8E4M3FN>,
                     %c: memref<1x128x1xf16>, %x: memref<16xi8>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x128x256xf4E2M1FN>, memref<1x128x16xf8E4M3FN>, memref<1x1x256xf4E2M1FN>, memref<1x1x16xf8E4M3FN>) outs(%c : memref<1x128x1xf16>)
  return
}
