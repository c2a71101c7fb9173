// nvfp4-software-pipeline on a #nvfp4.tcgen05_mainloop (sm_100a): the K loop of
// the 128-thread CTA written per thread. Warp 0 fills slot i % stages
// with K slice i (acquiring it after its first use): expect, TMA copies of
// B's and A's tiles, bulk copies of their scale atoms; warp 1 waits for
// the slot, copies the atoms to the slot's TMEM columns, issues 4 MMAs
// (the first overwrites the accumulator) and releases the slot by a
// commit; all threads wait for the accumulator, store it and free TMEM.
// Both warps run their loops whole and wait together, meeting after each
// wait; the lane each elects once before its loop issues.
// The instruction descriptor is 0x08100480 (M = 128, N = 64, e2m1 x e2m1,
// e4m3 block16 scales: Tcgen05DescriptorsTest pins it). Here a 64-row tile of A (split-K 2): A's scale columns shift by
// (m % 128) / 32, and the slices start at split x 4.
// RUN: nvfp4-opt %s -nvfp4-plan=target=sm_100a -nvfp4-tile=target=sm_100a -nvfp4-software-pipeline -canonicalize | FileCheck %s

// CHECK-LABEL: gpu.func @gemm_kernel
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>
// CHECK: %[[TMEM:.*]] = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 128>
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32
// CHECK: %[[PRODUCER:.*]] = arith.cmpi eq, %[[WARP]], %c0_i32
// CHECK: scf.if %[[PRODUCER]]
// CHECK-NEXT: %[[LEAD0:.*]] = nvvm.elect.sync -> i1
// CHECK-NEXT: scf.for %[[I:.*]] = %c0_i32 to %c4_i32
// CHECK: nvfp4.ring.acquire %[[RING]]
// CHECK: nvvm.bar.warp.sync
// CHECK-NEXT: scf.if %[[LEAD0]]
// CHECK: nvfp4.ring.expect %[[RING]][%[[S:.*]]]
// CHECK-NEXT: nvfp4.ring.copy %[[RING]][%[[S]]] at 0 from %arg6[{{[^]]*}}] :
// CHECK-NEXT: nvfp4.ring.copy %[[RING]][%[[S]]] at 16384 from %arg5[{{[^]]*}}] keep_in_l2 :
// CHECK: nvfp4.ring.copy_bytes %[[RING]][%[[S]]] at 24576 from %arg3[{{.*}}] bytes 2048
// CHECK: nvfp4.ring.copy_bytes %[[RING]][%[[S]]] at 26624 from %arg1[{{.*}}] bytes 2048
// CHECK: %[[ISSUER:.*]] = arith.cmpi eq, %[[WARP]], %c1_i32
// CHECK: scf.if %[[ISSUER]]
// CHECK-NEXT: %[[LEAD1:.*]] = nvvm.elect.sync -> i1
// CHECK: %[[SHIFT:.*]] = arith.divui {{.*}}, %c32_i32
// CHECK: scf.for
// CHECK: nvfp4.ring.wait %[[RING]][%[[T:.*]]] phase
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK-NEXT: scf.if %[[LEAD1]]
// CHECK-COUNT-8: nvfp4.tcgen05.cp %[[RING]][%[[T]]] at {{[0-9]+}} to %[[TMEM]] column {{[0-9]+}} step 32
// CHECK: nvfp4.tcgen05.mma %[[TMEM]], %[[RING]][%[[T]]] accumulate %{{.*}} sfb_shift %[[SHIFT]] {a_desc = {{[0-9]+}} : i64, b_desc = {{[0-9]+}} : i64, column_step = 32 : i64, d_column = 0 : i64, idesc = 135267456 : i32, sfa_column = 64 : i64, sfb_column = 80 : i64}
// CHECK-COUNT-3: nvfp4.tcgen05.mma %[[TMEM]], %[[RING]][%[[T]]] accumulate %true
// CHECK: nvfp4.tcgen05.release %[[RING]][%[[T]]]
// CHECK: scf.if %[[LEAD1]]
// CHECK-NEXT: nvfp4.tcgen05.commit %[[TMEM]]
// CHECK: nvfp4.tcgen05.wait %[[TMEM]]
// CHECK-NEXT: nvfp4.tcgen05.store %[[TMEM]] columns 64 outs(%arg4 : memref<128x256xf16>) partials(%arg7 : memref<262144xi8>)
// CHECK-NEXT: nvfp4.tmem.dealloc %[[TMEM]]

// The same plan with its splits added on chip (mode = cluster): the two splits are a 1 x 1 x 2 cluster
// that adds the accumulators on chip; the ring reserves 128 x 64 floats for
// the other split (32768 bytes, more than its 2 slots), and only split 0
// stores, to C.
// RUN: sed -e 's/splits = 2>/splits = 2, mode = cluster>/' %s | nvfp4-opt -nvfp4-plan=target=sm_100a -nvfp4-tile=target=sm_100a -nvfp4-software-pipeline -canonicalize | FileCheck %s --check-prefix=CLUSTER
// CLUSTER-LABEL: gpu.func @gemm_kernel
// CLUSTER-SAME: known_cluster_size = array<i32: 1, 1, 2>
// CLUSTER: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1, scratch_bytes = 32768>
// CLUSTER: nvfp4.tcgen05.wait %[[TMEM:[0-9]+]]
// CLUSTER-NEXT: %[[FIRST:.*]] = nvfp4.tcgen05.reduce_splits %[[TMEM]] columns 64 in %[[RING]] splits 2
// CLUSTER-NEXT: scf.if %[[FIRST]] {
// CLUSTER-NEXT: nvfp4.tcgen05.store %[[TMEM]] columns 64 outs(%arg4 : memref<128x256xf16>) at m
// CLUSTER-NEXT: }
// CLUSTER-NEXT: nvfp4.tmem.dealloc %[[TMEM]]
func.func @gemm(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<1x32x32x4x4xf8E4M3FN>, %b: memref<256x2048xf4E2M1FN>, %sfb: memref<2x32x32x4x4xf8E4M3FN>, %c: memref<128x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<1x32x32x4x4xf8E4M3FN>, memref<256x2048xf4E2M1FN>, memref<2x32x32x4x4xf8E4M3FN>) outs(%c : memref<128x256xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>, reduction = #nvfp4.split_k<splits = 2>>}
  return
}
