// nvfp4.sum_splits: each thread adds 4 elements of C (strided by the 256
// threads, so a warp's accesses are contiguous), each over the 3 splits'
// fp32 partials in split order, bounds-checked against C's 1000 elements,
// and stores them as f16; first it waits for the GEMM that wrote the
// partials (it is launched as the GEMM's programmatic dependent).
// RUN: nvfp4-opt %s -convert-nvfp4-to-nvvm | FileCheck %s

// CHECK-LABEL: gpu.func @sum
// CHECK-NOT: nvfp4.sum_splits
// CHECK: nvvm.griddepcontrol wait
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: arith.cmpi ult, %{{.*}}, %c1000_i64
// CHECK: scf.if
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// CHECK: arith.addf
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> f32
// CHECK: arith.addf
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: llvm.store {{.*}} : f16, !llvm.ptr<1>
// CHECK-COUNT-3: scf.if
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @sum(%p: memref<12000xi8>, %c: memref<10x100xf16>) kernel {
    %bx = gpu.block_id x
    nvfp4.sum_splits ins(%p : memref<12000xi8>) outs(%c : memref<10x100xf16>) at %bx splits 3
    gpu.return
  }
}
