// The gated dual GEMM with a warpgroup for each weight (split_weights): the
// planner gives 256 x 3072 x 4096 (which would split K across a cluster of
// two, tile-dual.mlir) one warpgroup a weight on a 64-row tile of B. The
// producer copies the weights' chunks back to back, then their scale codes
// (B1 at 16384, B2 at 18432, their codes at 20480 and 21504: a one-weight
// CTA's two warpgroups' rows); every consumer reads the slot at its
// warpgroup's row from the first weight's offsets, so each reads its own
// weight, and issues one MMA a round into one accumulator; after the K loop
// each warpgroup puts its sums where the joined fragment holds its weight's
// (zeros for the other's), the two meet in the first warpgroup
// (reduce_k_groups, 2 groups of 1 warpgroup), which applies the gate and
// stores alone.
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a --nvfp4-software-pipeline | FileCheck %s

// CHECK: gpu.func @dual_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 384, 1, 1>
// CHECK: nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 22528, consumers = 8, scratch_bytes = 65536>
// CHECK: nvfp4.ring.copy %[[R:.*]][%[[S0:.*]]] at 16384 from %arg8
// CHECK: nvfp4.ring.copy %[[R]][%[[S0]]] at 20480 from %arg10
// CHECK: nvfp4.ring.copy %[[R]][%[[S0]]] at 18432 from %arg9
// CHECK: nvfp4.ring.copy %[[R]][%[[S0]]] at 21504 from %arg11
// CHECK: nvfp4.wgmma.read_b {{.*}} b_offset 16384 sfb_offset 20480
// CHECK-NOT: nvfp4.wgmma.read_b
// CHECK: nvfp4.wgmma.mma {{.*}}, vector<64xf32>
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: %[[G:.*]] = arith.select %[[FIRST:.*]], %[[OWN:.*]], %[[ZERO:.*]] : vector<64xf32>
// CHECK-NEXT: %[[U:.*]] = arith.select %[[FIRST]], %[[ZERO]], %[[OWN]] : vector<64xf32>
// CHECK: %[[J:.*]] = vector.shuffle {{.*}} [0, 1, 2, 3, 64, 65, 66, 67,
// CHECK: nvfp4.wgmma.reduce_k_groups %[[J]] in %[[R]] groups 2 warpgroups 1 {{.*}} vector<128xf32>
// CHECK: math.exp2 %{{.*}} : vector<64xf32>
// CHECK: nvfp4.wgmma.store %{{.*}} outs(%arg6 : memref<256x3072xbf16>) {{.*}} staged in %[[R]] at 65536 warpgroups 1 : vector<64xf32>
func.func @dual(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x256xf8E4M3FN>,
                %b1: memref<3072x4096xf4E2M1FN>, %sfb1: memref<3072x256xf8E4M3FN>,
                %b2: memref<3072x4096xf4E2M1FN>, %sfb2: memref<3072x256xf8E4M3FN>,
                %c: memref<256x3072xbf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x4096xf4E2M1FN>, memref<256x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>) outs(%c : memref<256x3072xbf16>)
  return
}
