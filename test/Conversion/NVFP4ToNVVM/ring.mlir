// The ring ops of nvfp4-software-pipeline lowered to mbarriers and TMA
// copies: the ring is the i32 address of its first slot in the kernel's
// dynamic shared memory, rounded up to 1024 bytes; full[s] sits at
// max(stages x slot_bytes, scratch_bytes) + 8 s, empty[s] 8 x stages later.
// RUN: nvfp4-opt %s -convert-nvfp4-to-nvvm -canonicalize | FileCheck %s

// CHECK: llvm.mlir.global external @__nvfp4_dynamic_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// The map parameter is recorded for nvfp4-tensor-map-params.
// CHECK-LABEL: gpu.func @ring(%arg0: !nvfp4.tensor_map<{{.*}}>, {{.*}}) kernel attributes {nvfp4.tensor_map_params = array<i64: 4, 0>}
// CHECK: %[[DYN:.*]] = llvm.mlir.addressof @__nvfp4_dynamic_smem
// CHECK: %[[MAP:.*]] = builtin.unrealized_conversion_cast %arg0 : !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b> to !llvm.ptr
// CHECK: %[[INT:.*]] = llvm.ptrtoint %[[DYN]] : !llvm.ptr<3> to i32
// CHECK: %[[UP:.*]] = arith.addi %[[INT]], %c1023_i32
// CHECK: %[[BASE:.*]] = arith.andi %[[UP]], %c-1024_i32
// Thread 0 initializes full[s] (32768 + 8 s) for one arrival and empty[s]
// (32784 + 8 s) for the two consumers.
// CHECK: scf.if
// CHECK: arith.addi %[[BASE]], %c32768_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK: arith.addi %[[BASE]], %c32784_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK: arith.addi %[[BASE]], %c32776_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK: arith.addi %[[BASE]], %c32792_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: }
// CHECK: gpu.barrier
// Fill: expect 8192 bytes on full[slot], and copy the map's 64 x 64 f16
// tile at (row %arg3, column 0) to base + slot x 8192, as a shared::cluster
// address; TMA takes the coordinates innermost first. The map parameter
// meets its use through a cast until convert-gpu-to-nvvm converts the
// signature (the cast above).
// CHECK: %[[FULL:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL]], %c8192_i32
// CHECK: %[[SLOT:.*]] = arith.muli %arg1, %c8192_i32
// CHECK: %[[DST:.*]] = arith.addi %[[BASE]], %[[SLOT]]
// CHECK: %[[DSTP:.*]] = llvm.inttoptr %[[DST]] : i32 to !llvm.ptr<3>
// CHECK: %[[DSTC:.*]] = llvm.addrspacecast %[[DSTP]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DSTC]], %[[MAP]], %[[FULL]], box[%c0_i32, %arg3]
// Acquire waits on empty[slot], wait on full[slot], release arrives on
// empty[slot].
// CHECK: arith.addi %[[BASE]], %c32784_i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %arg2, %c10000000_i32
// CHECK: arith.addi %[[BASE]], %c32768_i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %arg2, %c10000000_i32
// CHECK: arith.addi %[[BASE]], %c32784_i32
// CHECK: nvvm.mbarrier.arrive %{{.*}}
// CHECK-NOT: nvfp4.ring
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @ring(%tiles: !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>, %slot: i32, %phase: i32, %row: i32) kernel {
    %c0 = arith.constant 0 : i32
    %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 2, scratch_bytes = 32768>
    nvfp4.ring.fill %r[%slot] from %tiles[%row, %c0] : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 2, scratch_bytes = 32768>, !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>
    nvfp4.ring.acquire %r[%slot] phase %phase : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 2, scratch_bytes = 32768>
    nvfp4.ring.wait %r[%slot] phase %phase : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 2, scratch_bytes = 32768>
    nvfp4.ring.release %r[%slot] : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 2, scratch_bytes = 32768>
    gpu.return
  }
}
