// A grouped GEMM with a persistent grid (#nvfp4.persistent, written in the
// IR here): nvfp4-tile launches min(ctas, work tiles) = min(132, 4 tiles of
// B x 5 tiles of A) = 20 CTAs along x, each a gemm_tile that walks the work
// tiles from its block id, 20 apart; the pipeline writes one walk per role.
// The producer warpgroup's first warp names each work tile's group and rows
// (nvfp4.group_tile, whole warps), skips the empty ones, and its first
// thread fills the tile's 16 chunks (8 fills of two) numbered on from the
// tiles before (the ring's slot and use from the CTA's fill count; the
// first tile's B before the wait for the pre-pass). The consumers walk the
// same tiles carrying the ring position through each K loop, release the
// last round's slot, and store the tile's rows [begin, end) of its group.
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a | FileCheck %s --check-prefix=TILE
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a --nvfp4-software-pipeline | FileCheck %s --check-prefix=PIPE

// TILE: gpu.launch_func @nvfp4_kernels::@grouped_kernel blocks in (%c20, %c1{{.*}}, %c1{{.*}}) threads in (%c384,
// TILE-LABEL: gpu.func @grouped_kernel(
// TILE: %[[BX:.*]] = gpu.block_id x
// TILE-NOT: nvfp4.group_tile
// TILE: nvfp4.gemm_tile {{.*}} outs(%arg4 : memref<14x512xf16>) group_tiles(%arg5 : memref<5xi32>) from %[[BX]] step %c20 plan #nvfp4.kernel<{{.*}}scheduler = #nvfp4.persistent<ctas = 132>>

// PIPE-LABEL: gpu.func @grouped_kernel(
// PIPE: nvvm.setmaxregister decrease 40
// PIPE: %[[FIRST:.*]] = arith.index_castui %block_id_x : index to i32
// PIPE: scf.for %[[W:.*]] = %[[FIRST]] to %c20_i32 step %{{.*}} iter_args(%[[FILLS:.*]] = %{{.*}}) -> (i32)
// PIPE: %[[Y:.*]] = arith.divui %[[W]], %c4_i32
// PIPE: %[[YI:.*]] = arith.index_castui %[[Y]]
// PIPE: nvfp4.group_tile %arg5[%[[YI]]] tile_m 8 rows 14
// PIPE: %[[ISFIRST:.*]] = arith.cmpi eq, %[[FILLS]], %c0_i32
// PIPE: scf.if %[[ISFIRST]] {
// PIPE: nvvm.griddepcontrol wait
// PIPE: %[[START:.*]] = arith.select %[[ISFIRST]], %c4_i32{{.*}}, %c0_i32
// PIPE: scf.for %[[C:.*]] = %[[START]] to %c8_i32{{.*}} step
// PIPE: %[[F:.*]] = arith.addi %[[FILLS]], %[[C]]
// PIPE: nvfp4.ring.acquire
// PIPE: nvfp4.ring.copy
// PIPE: arith.addi %[[FILLS]], %c8_i32
// PIPE: nvvm.setmaxregister increase 232
// PIPE: scf.for %{{.*}} = %{{.*}} to %c20_i32 step %{{.*}} iter_args(%[[RING:.*]] = %c0_i32{{.*}}, %[[PHASE:.*]] = %c0_i32{{.*}}) -> (i32, i32)
// PIPE: nvfp4.group_tile %arg5
// PIPE: scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[RING]], %{{.*}} = %[[PHASE]]) -> (vector<4xf32>, vector<16xi32>, vector<16xi32>, i32, i32)
// PIPE: nvvm.wgmma.wait.group.sync.aligned 0
// PIPE: nvvm.bar.warp.sync
// PIPE: nvfp4.ring.release
// PIPE: nvfp4.wgmma.store %{{.*}} outs(%arg4 : memref<14x512xf16>) at m %{{.*}} to %{{.*}} row %{{.*}} batch %c0 : vector<4xf32>
// PIPE: scf.yield
func.func @grouped(%a: memref<14x1024xf4E2M1FN>, %sfa: memref<14x64xf8E4M3FN>, %b: memref<4x512x1024xf4E2M1FN>, %sfb: memref<4x512x64xf8E4M3FN>, %offsets: memref<5xi32>, %c: memref<14x512xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<14x1024xf4E2M1FN>, memref<14x64xf8E4M3FN>, memref<4x512x1024xf4E2M1FN>, memref<4x512x64xf8E4M3FN>, memref<5xi32>) outs(%c : memref<14x512xf16>) {size_hint = array<i64: 1, 3, 8, 2>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 8, stages = 4, producer = true, b_tma = true, slot_chunks = 2>, scheduler = #nvfp4.persistent<ctas = 132>>}
  return
}
