// A ring shared by a cluster of two CTAs: each empty barrier counts the
// consumers of both (2 x 1 arrivals), a cluster barrier follows the
// barriers' initialization, each CTA copies its half of a slot (the map's
// box is 32 of the slot's 64 rows) at row + rank x 32 to byte rank x 4096
// of the slot of both CTAs (multicast mask 0b11), a release arrives on the
// slot's empty barrier of both CTAs (mapa to ranks 0 and 1), and
// ring.retire is a cluster barrier.
// RUN: nvfp4-opt %s -convert-nvfp4-to-nvvm -canonicalize | FileCheck %s

// CHECK-LABEL: gpu.func @ring
// CHECK: %[[MAP:.*]] = builtin.unrealized_conversion_cast %arg0
// CHECK: scf.if
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %c8192_i32
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: arith.muli %[[RANK]], %c4096_i32
// CHECK: %[[ROWS:.*]] = arith.muli %[[RANK]], %c32_i32
// CHECK: %[[ROW:.*]] = arith.addi %arg2, %[[ROWS]]
// A's tiles are kept in L2 longer than the weights (evict_last policy).
// CHECK: %[[POLICY:.*]] = llvm.inline_asm {{.*}}"createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP]], %[[FULL]], box[%c0_i32, %[[ROW]]] multicast_mask = %c3_i16 l2_cache_hint = %[[POLICY]]
// The release arrives on both CTAs' empty barriers at CTA scope (at
// cluster scope ptxas fences the whole GPU before each arrival).
// CHECK: %[[R0:.*]] = nvvm.mapa %[[EMPTY:.*]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive %[[R0]] : !llvm.ptr<7>
// CHECK: %[[R1:.*]] = nvvm.mapa %[[EMPTY]], %c1_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive %[[R1]] : !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @ring(%map: !nvfp4.tensor_map<512x64xf16, box = [32, 64], swizzle = swizzle_128b>, %slot: i32, %row: i32) kernel {
    %c0 = arith.constant 0 : i32
    %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1, cluster = 2>
    nvfp4.ring.fill %r[%slot] from %map[%row, %c0] : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1, cluster = 2>, !nvfp4.tensor_map<512x64xf16, box = [32, 64], swizzle = swizzle_128b>
    nvfp4.ring.release %r[%slot] : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1, cluster = 2>
    nvfp4.ring.retire %r : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1, cluster = 2>
    gpu.return
  }
}
