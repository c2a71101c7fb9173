// The gated dual GEMM on sm_90a: nvfp4-plan picks a two-accumulator wgmma
// ring; nvfp4-tile writes a gemm_tile of two weights (each with its tensor
// maps of bytes and scale codes) and the epilogue silu(x1) * x2; the
// pipeline copies both weights' chunks into each slot, issues both MMAs on
// the slot's tile of A, waits for all but the round's two groups, sends the
// two accumulators through the split exchange as one vector interleaved by
// groups of 4 (so a split's part holds both weights' values of the same
// rows), and applies the gate to each split's part before the store. (K =
// 7168: a shorter K gives each weight a warpgroup instead,
// tile-dual-split-weights.mlir.)
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a | FileCheck %s --check-prefix=TILE
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a --nvfp4-software-pipeline | FileCheck %s --check-prefix=PIPE

// TILE: nvfp4.gemm_tile ins(%arg0, %arg1 : {{.*}}) weight(%arg2, %arg3 : {{.*}}) weight(%arg4, %arg5 : {{.*}}) a_tiles(%arg7 : {{.*}}) b_bytes(%arg8, %arg9 : {{.*}}) b_scales(%arg10, %arg11 : {{.*}}) outs(%arg6 : memref<256x3072xbf16>)
// TILE-SAME: plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 8, producer = true, b_tma = true, weights = 2>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>> epilogue {
// TILE-NEXT: ^bb0(%[[X1:.*]]: f32, %[[X2:.*]]: f32):
// TILE-NEXT: %[[L:.*]] = arith.constant -1.44269502 : f32
// TILE-NEXT: %[[S:.*]] = arith.mulf %[[X1]], %[[L]] : f32
// TILE-NEXT: %[[E:.*]] = math.exp2 %[[S]] : f32
// TILE-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// TILE-NEXT: %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : f32
// TILE-NEXT: %[[SILU:.*]] = arith.divf %[[X1]], %[[D]] fastmath<afn> : f32
// TILE-NEXT: %[[Y:.*]] = arith.mulf %[[SILU]], %[[X2]] : f32
// TILE-NEXT: nvfp4.yield %[[Y]] : f32

// PIPE: nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 28672, consumers = 8, scratch_bytes = 65536>
// PIPE: nvfp4.ring.expect %[[R:.*]][%[[S0:.*]]] :
// PIPE: nvfp4.ring.copy %[[R]][%[[S0]]] at 16384 from %arg8
// PIPE: nvfp4.ring.copy %[[R]][%[[S0]]] at 20480 from %arg10
// PIPE: nvfp4.ring.copy %[[R]][%[[S0]]] at 22528 from %arg9
// PIPE: nvfp4.ring.copy %[[R]][%[[S0]]] at 26624 from %arg11
// PIPE: nvfp4.wgmma.read_b {{.*}} b_offset 16384 sfb_offset 20480
// PIPE-NEXT: nvfp4.wgmma.read_b {{.*}} b_offset 22528 sfb_offset 26624
// PIPE: %[[G:.*]] = nvfp4.wgmma.mma %{{.*}}, %{{.*}}, %[[R]][%[[SLOT:.*]]] : {{.*}}, vector<64xf32>
// PIPE-NEXT: %[[U:.*]] = nvfp4.wgmma.mma %{{.*}}, %{{.*}}, %[[R]][%[[SLOT]]] : {{.*}}, vector<64xf32>
// PIPE-NEXT: nvvm.wgmma.wait.group.sync.aligned 2
// Both sums restored from the operands' 2^-14 (ATileWorkspace.h), joined.
// PIPE: %[[G1:.*]] = arith.mulf %{{.*}}#0, %[[S1:.*]] : vector<64xf32>
// PIPE: %[[U1:.*]] = arith.mulf %{{.*}}#1, %[[S2:.*]] : vector<64xf32>
// PIPE: %[[J:.*]] = vector.shuffle %[[G1]], %[[U1]] [0, 1, 2, 3, 64, 65, 66, 67, 4, 5, 6, 7, 68, 69, 70, 71,
// PIPE: %[[OFF:.*]], %[[PART:.*]] = nvfp4.wgmma.reduce_scatter_splits %[[J]] in %[[R]] splits 2 warpgroups 2 {{.*}}vector<128xf32> -> vector<64xf32>
// PIPE: %[[ROWS:.*]] = arith.divui %[[OFF]], %{{.*}} : i32
// PIPE: vector.shuffle %[[PART]], %[[PART]] [0, 1, 2, 3, 8, 9, 10, 11,
// PIPE: vector.shuffle %[[PART]], %[[PART]] [4, 5, 6, 7, 12, 13, 14, 15,
// PIPE: math.exp2 %{{.*}} : vector<32xf32>
// PIPE: nvfp4.wgmma.store %{{.*}} outs(%arg6 : memref<256x3072xbf16>) {{.*}} : vector<32xf32>
func.func @dual(%a: memref<256x7168xf4E2M1FN>, %sfa: memref<256x448xf8E4M3FN>,
                %b1: memref<3072x7168xf4E2M1FN>, %sfb1: memref<3072x448xf8E4M3FN>,
                %b2: memref<3072x7168xf4E2M1FN>, %sfb2: memref<3072x448xf8E4M3FN>,
                %c: memref<256x3072xbf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x7168xf4E2M1FN>, memref<256x448xf8E4M3FN>, memref<3072x7168xf4E2M1FN>, memref<3072x448xf8E4M3FN>, memref<3072x7168xf4E2M1FN>, memref<3072x448xf8E4M3FN>) outs(%c : memref<256x3072xbf16>)
  return
}
