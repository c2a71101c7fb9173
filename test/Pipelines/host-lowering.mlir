// The pipeline's result is standard MLIR: upstream's gpu-to-llvm lowers its
// host side. With use-bare-pointers-for-kernels=true (the README says so)
// each memref becomes one pointer, the 5 parameters the kernel declares;
// the default passes memref descriptors (45 values) to a kernel that takes
// 5 pointers.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" \
// RUN:   | nvfp4-opt --gpu-to-llvm="use-bare-pointers-for-kernels=true" \
// RUN:   | FileCheck %s --check-prefix=BARE
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" \
// RUN:   | nvfp4-opt --gpu-to-llvm | FileCheck %s --check-prefix=DESC
// BARE: gpu.launch_func @nvfp4_kernels::@gemv_kernel
// BARE-SAME: args({{%[0-9]+}} : !llvm.ptr, {{%[0-9]+}} : !llvm.ptr, {{%[0-9]+}} : !llvm.ptr, {{%[0-9]+}} : !llvm.ptr, {{%[0-9]+}} : !llvm.ptr){{$}}
// BARE: .entry gemv_kernel(
// BARE-SAME: gemv_kernel_param_4\0A)
// DESC: gpu.launch_func @nvfp4_kernels::@gemv_kernel
// DESC-SAME: : !llvm.ptr, {{.*}} : !llvm.ptr, {{.*}} : i64, {{.*}} : i64, {{.*}} : i64
func.func @gemv(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>)
  return
}
