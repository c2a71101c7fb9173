// On a machine without a GPU, --require-gpu and --bench fail and say why
// (GPU tests and benchmarks use them, so they cannot pass on the CPU).
// REQUIRES: no-gpu
// RUN: not nvfp4-run %s --require-gpu 2>&1 | FileCheck %s --check-prefix=REQUIRE
// REQUIRE: nvfp4-run: error: --require-gpu needs a sm_100a GPU to run the kernels on, but no CUDA driver (libcuda.so.1 not found)
// RUN: not nvfp4-run %s --target sm_90a --bench 2>&1 | FileCheck %s --check-prefix=BENCH
// BENCH: nvfp4-run: error: --bench needs a sm_90a GPU to run the kernels on, but no CUDA driver
// RUN: not nvfp4-run %s --perturb-output 3 2>&1 | FileCheck %s --check-prefix=PERTURB
// PERTURB: nvfp4-run: error: --perturb-output needs a sm_100a GPU to run the kernels on
// RUN: not nvfp4-run --probe-gpu | FileCheck %s --check-prefix=PROBE
// PROBE: no gpu: no CUDA driver (libcuda.so.1 not found)
func.func @gemv(%a: memref<1x128x256xf4E2M1FN>, %sfa: memref<1x128x16xf8E4M3FN>,
                %b: memref<1x1x256xf4E2M1FN>, %sfb: memref<1x1x16xf8E4M3FN>,
                %c: memref<1x128x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x128x256xf4E2M1FN>, memref<1x128x16xf8E4M3FN>, memref<1x1x256xf4E2M1FN>, memref<1x1x16xf8E4M3FN>) outs(%c : memref<1x128x1xf16>)
  return
}
