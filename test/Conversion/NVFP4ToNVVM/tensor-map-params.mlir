// nvfp4-tensor-map-params, after convert-gpu-to-nvvm: the kernel parameters
// convert-nvfp4-to-nvvm recorded as tensor maps become 128-byte byval grid
// constants aligned to 64 bytes (what passes a CUtensorMap by value), and
// the record goes. The pipeline run checks the whole way from a gpu.func
// with a !nvfp4.tensor_map parameter (converted to !llvm.ptr through the
// dialect's ConvertToLLVMPatternInterface) to the PTX parameter.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-tensor-map-params -verify-diagnostics | FileCheck %s
// RUN: nvfp4-opt %s -split-input-file -convert-nvfp4-to-nvvm -convert-gpu-to-nvvm='use-bare-ptr-memref-call-conv=1' -nvfp4-tensor-map-params -reconcile-unrealized-casts -verify-diagnostics | FileCheck %s --check-prefix=GPU

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %arg0: !llvm.ptr, %arg1: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-SAME: attributes {gpu.kernel, nvvm.kernel}
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  llvm.func @k(%p: !llvm.ptr, %map: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, nvfp4.tensor_map_params = array<i64: 2, 1>} {
    llvm.return
  }
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  // expected-error @+1 {{nvfp4-tensor-map-params: 'nvfp4.tensor_map_params' on a function that is not an NVVM kernel (run convert-gpu-to-nvvm first)}}
  llvm.func @not_kernel(%map: !llvm.ptr) attributes {nvfp4.tensor_map_params = array<i64: 1, 0>} {
    llvm.return
  }
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  // expected-error @+1 {{nvfp4-tensor-map-params: parameter 0 of the kernel should be the tensor map's pointer, but it is 'i64' (kernel memrefs must be bare pointers)}}
  llvm.func @wrong(%map: i64) attributes {gpu.kernel, nvvm.kernel, nvfp4.tensor_map_params = array<i64: 1, 0>} {
    llvm.return
  }
}

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  // expected-error @+1 {{nvfp4-tensor-map-params: the kernel had 2 parameters before convert-gpu-to-nvvm and has 6 now; the tensor maps' positions only hold with bare-pointer memrefs (use-bare-ptr-memref-call-conv)}}
  llvm.func @expanded(%p: !llvm.ptr, %q: !llvm.ptr, %o: i64, %s: i64, %t: i64, %map: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel, nvfp4.tensor_map_params = array<i64: 2, 1>} {
    llvm.return
  }
}

// -----

// GPU-LABEL: llvm.func @from_gpu_func(
// GPU-SAME: %arg0: !llvm.ptr, %arg1: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// GPU-NOT: nvfp4.tensor_map_params
// GPU-NOT: unrealized_conversion_cast
// GPU: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1,
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @from_gpu_func(%x: memref<16xf32>, %map: !nvfp4.tensor_map<16x64xf16, box = [8, 64], swizzle = swizzle_128b>) kernel {
    %c0 = arith.constant 0 : i32
    %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 1, slot_bytes = 1024, consumers = 1>
    nvfp4.ring.fill %r[%c0] from %map[%c0, %c0] : !nvfp4.ring<stages = 1, slot_bytes = 1024, consumers = 1>, !nvfp4.tensor_map<16x64xf16, box = [8, 64], swizzle = swizzle_128b>
    gpu.return
  }
}
