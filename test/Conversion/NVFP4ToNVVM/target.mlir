// convert-nvfp4-to-nvvm reads the chip from each gpu.module's
// #nvvm.target: a module of nvfp4 ops without one, or with a chip nvfp4
// does not support, is an error naming the module, as is a CTA-level op
// outside any gpu.module.
// RUN: nvfp4-opt %s -split-input-file -convert-nvfp4-to-nvvm -verify-diagnostics
// Two gpu.modules for two chips: each lowered for its own (the fp4
// convert instruction on sm_100a, byte permutes on sm_90a).
// RUN: nvfp4-opt %S/Inputs/two-chips.mlir -convert-nvfp4-to-nvvm | FileCheck %s
// CHECK-LABEL: gpu.module @hopper
// CHECK-NOT: nvvm.convert.f4x2.to.f16x2
// CHECK: nvvm.prmt
// CHECK-LABEL: gpu.module @blackwell
// CHECK: nvvm.convert.f4x2.to.f16x2

// expected-error @+1 {{convert-nvfp4-to-nvvm: gpu.module @plain holds nvfp4 ops but has no #nvvm.target to say which chip they are for (nvfp4-tile creates its module with one)}}
gpu.module @plain {
  gpu.func @k(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) kernel {
    %c0 = arith.constant 0 : index
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) rows %c0 batch %c0 plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>
    gpu.return
  }
}

// -----

// expected-error @+1 {{convert-nvfp4-to-nvvm: the #nvvm.target chip 'sm_80' is not supported; supported targets: sm_100a, sm_90a}}
gpu.module @old [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) kernel {
    %c0 = arith.constant 0 : index
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) rows %c0 batch %c0 plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>
    gpu.return
  }
}

// -----

func.func @outside(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'nvfp4.gemv_tile' op must be inside a gpu.module with an #nvvm.target to be lowered; run nvfp4-tile}}
  nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) rows %c0 batch %c0 plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>
  return
}

// -----

// The GEMM's consumer ops are wgmma (sm_90a) ops.
gpu.module @blackwell_gemm [#nvvm.target<chip = "sm_100a">] {
  gpu.func @f(%acc: vector<32xf32>, %c: memref<64x128xf16>, %i: i32, %l: index) kernel {
    // expected-error @+1 {{'nvfp4.wgmma.store' op is lowered with wgmma (sm_90a) only, but gpu.module @blackwell_gemm targets sm_100a}}
    nvfp4.wgmma.store %acc outs(%c : memref<64x128xf16>) at m %i row %i batch %l : vector<32xf32>
    gpu.return
  }
}
