// The binary stage is one pass to the pass instrumentation: it does not run
// a nested pass manager, so IR printing shows it once and timing does not
// count it twice (which made `Rest` negative).
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: IR Dump After NVFP4SerializePass (nvfp4-serialize)
// DUMP-NOT: IR Dump After
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: NVFP4SerializePass
// TIMING-NOT: GpuModuleToBinaryPass
// TIMING: {{^ +[0-9.]+ +\( *[0-9.]+%\) +Rest$}}
// TIMING: Total
func.func @gemv(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>)
  return
}
