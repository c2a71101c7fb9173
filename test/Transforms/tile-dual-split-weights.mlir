// The gated dual GEMM with a warpgroup for each weight (split_weights): the
// planner gives 256 x 3072 x 4096 (which would split K across a cluster of
// two, tile-dual.mlir) one warpgroup a weight on a 64-row tile of B. The
// producer copies the weights' chunks back to back, then their scale codes
// (B1 at 16384, B2 at 18432, their codes at 20480 and 21504: a one-weight
// CTA's two warpgroups' rows); every consumer reads the slot at its
// warpgroup's row from the first weight's offsets, so each reads its own
// weight, and issues one MMA a round into one accumulator; after the K loop
// the two warpgroups swap halves of their tiles (swap_halves: warpgroup w
// keeps rows w x 64 .. of the tile of A and gets the other weight's values
// of them), and each applies the gate to its half and stores it (staged,
// two warpgroups' areas above the swapped halves' 32768 bytes).
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a --nvfp4-software-pipeline | FileCheck %s

// CHECK: gpu.func @dual_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 384, 1, 1>
// CHECK: nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 22528, consumers = 8, scratch_bytes = 32768>
// CHECK: nvfp4.ring.copy %[[R:.*]][%[[S0:.*]]] at 16384 from %arg8
// CHECK: nvfp4.ring.copy %[[R]][%[[S0]]] at 20480 from %arg10
// CHECK: nvfp4.ring.copy %[[R]][%[[S0]]] at 18432 from %arg9
// CHECK: nvfp4.ring.copy %[[R]][%[[S0]]] at 21504 from %arg11
// CHECK: nvfp4.wgmma.read_b {{.*}} b_offset 16384 sfb_offset 20480
// CHECK-NOT: nvfp4.wgmma.read_b
// CHECK: nvfp4.wgmma.mma {{.*}}, vector<64xf32>
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: %[[THEIRS:.*]] = nvfp4.wgmma.swap_halves %[[OWN:.*]] in %[[R]] : {{.*}}, vector<64xf32> -> vector<32xf32>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[W:.*]], %{{.*}} : i32
// CHECK: %[[LO:.*]] = vector.shuffle %[[OWN]], %[[OWN]] [0, 1, 2,
// CHECK: %[[HI:.*]] = vector.shuffle %[[OWN]], %[[OWN]] [32, 33, 34,
// CHECK: %[[KEPT:.*]] = arith.select %[[FIRST]], %[[LO]], %[[HI]] : vector<32xf32>
// CHECK-NEXT: %[[G:.*]] = arith.select %[[FIRST]], %[[KEPT]], %[[THEIRS]] : vector<32xf32>
// CHECK-NEXT: %[[U:.*]] = arith.select %[[FIRST]], %[[THEIRS]], %[[KEPT]] : vector<32xf32>
// CHECK-NEXT: %[[HALF:.*]] = arith.constant 64 : i32
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[W]], %[[HALF]] : i32
// CHECK-NEXT: %[[M:.*]] = arith.addi %{{.*}}, %[[OFF]] : i32
// CHECK: math.exp2 %{{.*}} : vector<32xf32>
// CHECK: nvfp4.wgmma.store %{{.*}} outs(%arg6 : memref<256x3072xbf16>) at m %[[M]] {{.*}} staged in %[[R]] at 32768 warpgroups 2 : vector<32xf32>
func.func @dual(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x256xf8E4M3FN>,
                %b1: memref<3072x4096xf4E2M1FN>, %sfb1: memref<3072x256xf8E4M3FN>,
                %b2: memref<3072x4096xf4E2M1FN>, %sfb2: memref<3072x256xf8E4M3FN>,
                %c: memref<256x3072xbf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x4096xf4E2M1FN>, memref<256x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>) outs(%c : memref<256x3072xbf16>)
  return
}
