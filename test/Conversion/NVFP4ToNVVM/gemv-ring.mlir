// RUN: sed -e 's/CHIP/sm_90a/' %s | nvfp4-opt -split-input-file -convert-nvfp4-to-nvvm | FileCheck %s
// RUN: sed -e 's/CHIP/sm_100a/' %s | nvfp4-opt -split-input-file -convert-nvfp4-to-nvvm | FileCheck %s --check-prefix=SM100

// stages = 3: each warp streams A through 3 shared-memory slots. A slot holds
// one outer iteration of the warp's 2 rows: 2 x 1024 value bytes (32 lanes x
// 16 bytes x 2 steps), then 2 x 128 scale bytes = 2304 bytes; the CTA's 4
// warps x 3 slots make a 27648-byte ring, with 12 mbarriers of 8 bytes.
// K = 8192: 4 iterations a row. Lane 0 initializes its warp's 3 barriers,
// fences them, and fills slots 0 and 1 (one arrive.expect_tx of 2304 bytes
// and 4 bulk copies each: 2 rows' values, 2 rows' scales) before B is
// staged.
// CHECK-LABEL: gpu.module @ring
// CHECK-DAG: llvm.mlir.global internal @__nvfp4_ring() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<27648 x i8>
// CHECK-DAG: llvm.mlir.global internal @__nvfp4_ring_bars() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<96 x i8>
// CHECK-LABEL: gpu.func @stream
// CHECK: scf.if
// CHECK-COUNT-3: nvvm.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: %[[TX:.*]] = arith.constant 2304 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[TX]]
// CHECK: %[[V:.*]] = arith.constant 1024 : i32
// CHECK: nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, %[[V]]
// CHECK: %[[S:.*]] = arith.constant 128 : i32
// CHECK: nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, %[[S]]
// CHECK-COUNT-2: nvvm.cp.async.bulk.shared.cluster.global
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-4: nvvm.cp.async.bulk.shared.cluster.global
// CHECK-NOT: nvvm.cp.async.bulk
// B is staged meanwhile; its CTA barrier publishes the initialized mbarriers.
// CHECK: gpu.barrier
// The loop: 4 iterations. A warp barrier (every lane has read the slot
// about to be refilled), lane 0 refills slot (t + 2) % 3 while t + 2 < 4,
// after a proxy fence (those generic reads before the copies' async writes);
// every lane waits on slot t % 3's phase parity (t / 3) % 2, then reads its
// 16-byte pieces from shared memory (no global loads of A in the loop).
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[C4]] step %{{.*}} iter_args
// CHECK: nvvm.bar.warp.sync
// CHECK: %[[NEXT:.*]] = arith.addi %[[T]], %{{.*}} : i32
// CHECK: arith.cmpi ult, %[[NEXT]]
// CHECK: scf.if
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: arith.remui %[[NEXT]]
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-4: nvvm.cp.async.bulk.shared.cluster.global
// CHECK: %[[SLOT:.*]] = arith.remui %[[T]]
// CHECK: %[[ROUND:.*]] = arith.divui %[[T]]
// CHECK: %[[PARITY:.*]] = arith.andi %[[ROUND]]
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]]
// CHECK-NOT: ld.global.nc
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> vector<2xi8>
// CHECK: nvvm.dot.accumulate.4way
// The rows are stored after their last iteration.
// CHECK: arith.cmpi eq
// CHECK: scf.if
// CHECK: gpu.shuffle xor
// CHECK: llvm.store %{{.*}} : f16, !llvm.ptr<1>
// SM100-LABEL: gpu.func @stream
// SM100: nvvm.cp.async.bulk.shared.cluster.global
// SM100: nvvm.mbarrier.try_wait.parity
// SM100: nvvm.convert.f4x2.to.f16x2
gpu.module @ring [#nvvm.target<chip = "CHIP">] {
  gpu.func @stream(%a: memref<64x8192xf4E2M1FN>, %sfa: memref<64x512xf8E4M3FN>, %b: memref<1x8192xf4E2M1FN>, %sfb: memref<1x512xf8E4M3FN>, %c: memref<64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<64x8192xf4E2M1FN>, memref<64x512xf8E4M3FN>, memref<1x8192xf4E2M1FN>, memref<1x512xf8E4M3FN>) outs(%c : memref<64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 2, stage_b = true, stages = 3>
    gpu.return
  }
}

// -----

// The ring runs on across row groups: 3 groups of 1 iteration (K = 2048,
// 1024-byte rows) make 3 iterations; with 4 slots all of them are filled
// before the loop, whose refills (t + 3 < 3) never happen.
// CHECK-LABEL: gpu.func @groups
// CHECK: scf.if
// CHECK-COUNT-4: nvvm.mbarrier.init
// CHECK-COUNT-3: nvvm.mbarrier.arrive.expect_tx
// CHECK: gpu.barrier
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C3]] step
// CHECK: nvvm.mbarrier.try_wait.parity
gpu.module @ring_groups [#nvvm.target<chip = "CHIP">] {
  gpu.func @groups(%a: memref<96x2048xf4E2M1FN>, %sfa: memref<96x128xf8E4M3FN>, %b: memref<1x2048xf4E2M1FN>, %sfb: memref<1x128xf8E4M3FN>, %c: memref<96x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<96x2048xf4E2M1FN>, memref<96x128xf8E4M3FN>, memref<1x2048xf4E2M1FN>, memref<1x128xf8E4M3FN>) outs(%c : memref<96x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 2, stage_b = true, row_groups = 3, stages = 4>
    gpu.return
  }
}
