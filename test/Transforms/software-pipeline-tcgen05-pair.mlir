// nvfp4-software-pipeline on a #nvfp4.tcgen05_mainloop of CTA pairs
// (cta_group = 2). The pair is a 2 x 1 x 1 cluster along x (block x % 2 is
// the CTA's rank in it); the grid rounds B's three tiles of 128 rows up to
// two pairs. Each CTA's producer copies its own 128 rows of B and 64 of the
// tile's 128 rows of A (its rank's half: the map's box is 64 rows) into
// its own ring, then acquires its last two slots once more (the first
// CTA's releases arrive on both CTAs' barriers: neither CTA leaves before
// they came). Warp 1 of the first CTA waits for its slot and the second
// CTA's (`peer`) and issues the M = 256 MMAs (idesc 0x10200480: M = 256,
// N = 128) for both; warp 1 of the second CTA forwards each of its slots
// once they landed. Both CTAs store their own accumulator; the second
// CTA of the last pair, past N, stores nothing.
// RUN: nvfp4-opt %s -nvfp4-plan=target=sm_100a -nvfp4-tile=target=sm_100a -nvfp4-software-pipeline -canonicalize | FileCheck %s

// CHECK: %[[AMAP:.*]] = nvfp4.tensor_map %arg0 : memref<200x768xf4E2M1FN> -> !nvfp4.tensor_map<1x200x384xi8, box = [1, 64, 128], swizzle = swizzle_128b>
// CHECK: gpu.launch_func @nvfp4_kernels::@gemm_kernel clusters in (%c2, %c1, %c1) blocks in (%c4, %c2, %c1) threads in (%c128, %c1, %c1)
// CHECK-LABEL: gpu.func @gemm_kernel(
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1, cta_group = 2>
// CHECK: %[[TMEM:.*]] = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 256, cta_group = 2>
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT: %[[X:.*]] = arith.index_castui %[[BX]] : index to i32
// CHECK-NEXT: %[[RANK:.*]] = arith.remui %[[X]], %c2_i32
// CHECK: scf.for %{{.*}} = %c0_i32 to %c3_i32
// CHECK: nvfp4.ring.copy %[[RING]][%{{.*}}] at 0 from %arg6
// CHECK: %[[HALF:.*]] = arith.muli %[[RANK]], %c64_i32
// CHECK-NEXT: %[[AROW:.*]] = arith.addi %{{.*}}, %[[HALF]]
// CHECK-NEXT: nvfp4.ring.copy %[[RING]][%{{.*}}] at 16384 from %arg5[%{{.*}}, %[[AROW]], %{{.*}}] keep_in_l2
// CHECK: scf.for %{{.*}} = %c3_i32 to %c5_i32
// CHECK: nvfp4.ring.acquire %[[RING]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: scf.for
// CHECK: nvfp4.ring.wait %[[RING]][%{{.*}}] phase %{{.*}} peer
// CHECK-COUNT-4: nvfp4.tcgen05.mma %[[TMEM]], %[[RING]][%{{.*}}] accumulate %{{.*}} sfb_shift %c0_i32 {{.*}}idesc = 270533760 : i32
// CHECK: nvfp4.tcgen05.release
// CHECK: nvfp4.tcgen05.commit %[[TMEM]]
// CHECK: } else {
// CHECK: scf.for
// CHECK: nvfp4.ring.wait %[[RING]][%[[S:.*]]] phase %{{[0-9]+}} :
// CHECK: nvfp4.ring.forward %[[RING]][%[[S]]]
// CHECK-NOT: nvfp4.tcgen05.mma
// CHECK: nvfp4.tcgen05.wait %[[TMEM]]
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c384_i32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: nvfp4.tcgen05.store %[[TMEM]] columns 128
// CHECK: nvfp4.tmem.dealloc %[[TMEM]]
func.func @gemm(%a: memref<200x768xf4E2M1FN>, %sfa: memref<200x48xf8E4M3FN>,
                %b: memref<384x768xf4E2M1FN>, %sfb: memref<384x48xf8E4M3FN>,
                %c: memref<200x384xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<200x768xf4E2M1FN>, memref<200x48xf8E4M3FN>, memref<384x768xf4E2M1FN>, memref<384x48xf8E4M3FN>) outs(%c : memref<200x384xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 2, cta_group = 2>>}
  return
}
