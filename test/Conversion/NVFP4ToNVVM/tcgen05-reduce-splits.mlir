// nvfp4.tcgen05.reduce_splits (sm_100a, split-K on chip): the exchange area is
// the top of the ring's data, 57344 - 32768 = 24576 bytes from its aligned
// base (the slots' 2 x 28672 bytes; the other split's 128 threads x 64
// columns x 4 bytes), and both of the first CTA's arrives are relaxed; the
// other CTA maps that area to rank 0, stores into it and arrives with the
// default release semantics.
// RUN: nvfp4-opt %s -convert-nvfp4-to-nvvm -canonicalize -cse | FileCheck %s
// CHECK-LABEL: gpu.func @reduce_splits
// CHECK: %[[BASE:.*]] = arith.andi %{{.*}}, %c-1024_i32 : i32
// CHECK: %[[AREA:.*]] = arith.addi %[[BASE]], %c24576_i32 : i32
// CHECK: nvvm.cluster.arrive.relaxed{{$}}
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.cluster.arrive.relaxed{{$}}
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[GET:.*]] = arith.addi %[[AREA]], %{{.*}} : i32
// CHECK-NEXT: %[[GETP:.*]] = llvm.inttoptr %[[GET]] : i32 to !llvm.ptr<3>
// CHECK-NEXT: llvm.load %[[GETP]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: } else {
// CHECK: %[[AREAP:.*]] = llvm.inttoptr %[[AREA]] : i32 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.mapa %[[AREAP]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive{{$}}
// CHECK-NEXT: }
gpu.module @kernels [#nvvm.target<chip = "sm_100a">] {
  gpu.func @reduce_splits() kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_cluster_size = array<i32: 1, 1, 2>} {
    %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1, scratch_bytes = 32768>
    %t = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 64>
    %first = nvfp4.tcgen05.reduce_splits %t columns 64 in %r splits 2 : !nvfp4.tmem<columns = 64>, !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1, scratch_bytes = 32768>
    nvfp4.tmem.dealloc %t : !nvfp4.tmem<columns = 64>
    gpu.return
  }
}
