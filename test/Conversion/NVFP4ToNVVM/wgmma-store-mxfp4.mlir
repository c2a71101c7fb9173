// nvfp4.wgmma.store of an MXFP4 C (e8m0 scales per 32 values): a block of
// a row of C is the 16 columns of warps w and w ^ 1, so after the shuffles
// within each warp the lanes g = 0 write their blocks' amaxes into the
// warpgroup's area of the ring (offset + warpgroup x 2048 bytes: 4 warps x
// 4 quad columns x 32 blocks x 4), meet the warpgroup's named barrier
// (2 + warpgroup) and take the other warp's; with two warpgroups the store
// first waits for both (named barrier 4), since neither may write into
// the ring while the other still reads it.
// RUN: nvfp4-opt %s -split-input-file -convert-nvfp4-to-nvvm | FileCheck %s

// CHECK-LABEL: gpu.func @two_warpgroups
// CHECK: %[[SH:.*]] = arith.shrui %{{.*}}, %c7_i32
// CHECK: %[[WG:.*]] = arith.remui %[[SH]], %c2_i32
// CHECK: arith.muli %[[WG]], %c2048_i32
// CHECK: arith.addi %c4096_i32
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: %[[BAR:.*]] = arith.addi %[[WG]], %c2_i32
// CHECK: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// CHECK-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// The codes and the scales: bytes of C's global memory.
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @two_warpgroups(%acc: vector<64xf32>, %c: memref<128x7168xf4E2M1FN>, %sfc: memref<128x224xf8E8M0FNU>, %m: i32, %row: i32, %l: index) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    nvfp4.wgmma.store %acc outs(%c : memref<128x7168xf4E2M1FN>) c_scales(%sfc : memref<128x224xf8E8M0FNU>) at m %m row %row batch %l staged in %ring at 4096 warpgroups 2 : vector<64xf32>, !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    gpu.return
  }
}

// -----

// One warpgroup: no wait for another; the area at the offset itself.
// CHECK-LABEL: gpu.func @one_warpgroup
// CHECK-NOT: number_of_threads = %c256_i32
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @one_warpgroup(%acc: vector<32xf32>, %c: memref<64x96xf4E2M1FN>, %sfc: memref<64x3xf8E8M0FNU>, %m: i32, %row: i32, %l: index) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 4>
    nvfp4.wgmma.store %acc outs(%c : memref<64x96xf4E2M1FN>) c_scales(%sfc : memref<64x3xf8E8M0FNU>) at m %m row %row batch %l staged in %ring at 0 warpgroups 1 {c_scale_rounding = #nvfp4.scale_rounding<rceil>} : vector<32xf32>, !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 4>
    gpu.return
  }
}
