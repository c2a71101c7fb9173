// The registered pipeline checks its options when it is built, and a
// serialization error fails the run: nvfp4-opt exits non-zero.
// RUN: not nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=ptx" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: nvfp4-pipeline: unknown format 'ptx'; expected isa (PTX), bin (cubin), llvm (LLVM IR) or none
// RUN: not nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=bin toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: nvfp4-pipeline: format=bin needs ptxas, but '/nonexistent/bin/ptxas' is not an executable; set toolkit= to a CUDA toolkit root or use format=isa
// RUN: not nvfp4-opt %s --nvfp4-pipeline="target=sm_80" 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: nvfp4-pipeline: unsupported target 'sm_80'; supported targets: sm_100a, sm_90a
// An empty target (a script's unset variable) is an error, not the default;
// so is one given to the plan and tile passes.
// RUN: not nvfp4-opt %s --nvfp4-pipeline="target= format=isa" 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: nvfp4-pipeline: target was given an empty value; name one (sm_100a, sm_90a) or leave the option out for the default
// RUN: not nvfp4-opt %s --nvfp4-plan="target=" 2>&1 | FileCheck %s --check-prefix=EMPTYPLAN
// EMPTYPLAN: nvfp4-plan: target was given an empty value
// RUN: not nvfp4-opt %s --nvfp4-tile="target=" 2>&1 | FileCheck %s --check-prefix=EMPTYTILE
// EMPTYTILE: nvfp4-tile: target was given an empty value
// Left out, the target is the default (sm_100a here).
// RUN: nvfp4-opt %s --nvfp4-pipeline="format=none" | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: gpu.module @nvfp4_kernels [#nvvm.target<O = 3, chip = "sm_100a"
// The serialization stage on its own checks the same.
// RUN: not nvfp4-opt %s --nvfp4-serialize="format=ptx" 2>&1 | FileCheck %s --check-prefix=SERIALIZE
// SERIALIZE: nvfp4-serialize: unknown format 'ptx'
// RUN: not nvfp4-opt %s --nvfp4-serialize="format=none" 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: nvfp4-serialize: format=none means no serialization; leave the pass out of the pipeline instead
// Valid options still work.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | FileCheck %s --check-prefix=OK
// OK: gpu.binary @nvfp4_kernels
func.func @gemv(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>)
  return
}
