// RUN: sed -e 's/CHIP/sm_100a/' %s | nvfp4-opt -split-input-file -convert-nvfp4-to-nvvm | FileCheck %s --check-prefix=SM100
// RUN: sed -e 's/CHIP/sm_90a/' %s | nvfp4-opt -split-input-file -convert-nvfp4-to-nvvm | FileCheck %s --check-prefix=SM90

// One step of 16 bytes per lane, one row per warp: A streamed with 16-byte
// ld.global.nc.L1::no_allocate, B with 16-byte read-only loads, scales
// decoded as e4m3 pairs; sm_100a: values decoded with cvt e2m1x2, 16 f16x2
// FMAs (2 blocks x 8), one f32 FMA per block, a 5-step butterfly reduction.
// SM100-LABEL: gpu.func @k
// SM100-NOT: nvfp4.gemv_tile
// SM100: scf.for
// SM100: llvm.inline_asm has_side_effects asm_dialect = att "ld.global.nc.L1::no_allocate.v4.u32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %{{.*}} : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
// SM100: llvm.inline_asm has_side_effects asm_dialect = att "ld.global.nc.L1::no_allocate.u16 $0, [$1];", "=h,l"
// SM100: llvm.load {{.*}} invariant {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// SM100: nvvm.convert.f4x2.to.f16x2 {{.*}} : i8(f4E2M1FN) -> vector<2xf16>
// SM100: nvvm.convert.f8x2.to.f16x2 {{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// SM100-COUNT-16: llvm.intr.fma({{.*}}) : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> vector<2xf16>
// SM100: llvm.intr.fma({{.*}}) : (f32, f32, f32) -> f32
// SM100: scf.yield
// SM100-COUNT-5: gpu.shuffle xor
// SM100: arith.truncf {{.*}} : f32 to f16
// SM100: llvm.store {{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>

// sm_90a: prmt table lookups (table 2 * {0, .5, 1, 1.5} = 0x03020100 and
// 2 * {2, 3, 4, 6} = 0x0C080604; selector masked with 0x7777 = 30583 for
// all magnitudes, unmasked for the positive ones), dp4a per 4 values, the
// block dot 2 * pos - all converted once, B's scales times 1/4.
// SM90-LABEL: gpu.func @k
// SM90-NOT: nvvm.convert.f4x2.to.f16x2
// SM90: scf.for
// SM90: %[[MASK:.*]] = arith.constant 30583 : i32
// SM90: %[[SEL:.*]] = arith.andi %{{.*}}, %[[MASK]] : i32
// SM90-DAG: arith.constant 50462976 : i32
// SM90-DAG: arith.constant 201852420 : i32
// SM90: nvvm.prmt <default> %[[SEL]], %{{.*}}, %{{.*}} : i32
// SM90: arith.constant 2.500000e-01 : f32
// SM90: nvvm.dot.accumulate.4way %{{.*}} <unsigned>, %{{.*}} <signed>, %{{.*}} : vector<4xi8>, vector<4xi8>
// SM90: arith.sitofp %{{.*}} : i32 to f32
// SM90: llvm.intr.fma({{.*}}) : (f32, f32, f32) -> f32
// SM90-NOT: vector<2xf16>, vector<2xf16>, vector<2xf16>
gpu.module @m [#nvvm.target<chip = "CHIP">] {
  gpu.func @k(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>
    gpu.return
  }
}

// -----

// K = 1536 with 16-byte chunks is 48 chunks: two steps for 32 lanes, the
// second only partly valid, so chunks are masked; 20 rows do not fill the
// 8-row CTAs, so rows are clamped on load and checked on store.
// SM100-LABEL: gpu.func @ragged
// SM100: arith.minui
// SM100: scf.for
// SM100: arith.cmpi ult, {{.*}}, %{{.*}} : i32
// SM100: arith.select
// SM100: scf.if
// The same masking on sm_90a: the masked step's accumulator update is a
// select between the new and the old value; the store is guarded by the row
// bound (20 rows).
// SM90-LABEL: gpu.func @ragged
// SM90: %[[LAST:.*]] = arith.constant 19 : i32
// SM90: arith.minui %{{.*}}, %[[LAST]] : i32
// SM90: scf.for
// SM90: arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// SM90: %[[NEW:.*]] = llvm.intr.fma
// SM90: arith.select %{{.*}}, %[[NEW]], %{{.*}} : f32
// SM90: %[[ROWS:.*]] = arith.constant 20 : i32
// SM90: arith.cmpi ult, %{{.*}}, %[[ROWS]] : i32
// SM90: scf.if
// SM90: llvm.store %{{.*}} : bf16, !llvm.ptr<1>
gpu.module @m2 [#nvvm.target<chip = "CHIP">] {
  gpu.func @ragged(%a: memref<20x1536xf4E2M1FN>, %sfa: memref<20x96xf8E4M3FN>, %b: memref<1x1536xf4E2M1FN>, %sfb: memref<1x96xf8E4M3FN>, %c: memref<20x1xbf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<20x1536xf4E2M1FN>, memref<20x96xf8E4M3FN>, memref<1x1536xf4E2M1FN>, memref<1x96xf8E4M3FN>) outs(%c : memref<20x1xbf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 2>
    gpu.return
  }
}

// -----

// stage_b: the gpu.module gains a 16-byte aligned shared-memory buffer
// (K = 1024 signed bytes plus 64 fp32 scales = 1280 bytes on sm_90a; 2048
// f16 bytes + 256 = 2304 on sm_100a), filled by a straight-line prologue
// (32 16-byte quads of B and 16 scale quads over 128 threads: one round,
// indices clamped), then a barrier; the K loop reads B from shared memory
// and decodes only A.
// SM90-LABEL: gpu.module @m3
// SM90: llvm.mlir.global internal @__nvfp4_staged_b() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1280 x i8>
// SM90-LABEL: gpu.func @staged
// SM90: llvm.mlir.addressof @__nvfp4_staged_b : !llvm.ptr<3>
// SM90: llvm.load %{{.*}} invariant {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// SM90: llvm.load %{{.*}} invariant {alignment = 4 : i64} : !llvm.ptr<1> -> vector<4xi8>
// SM90: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// SM90: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// SM90: gpu.barrier
// SM90: scf.for
// SM90: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// SM90: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// SM100-LABEL: gpu.module @m3
// SM100: llvm.mlir.global internal @__nvfp4_staged_b() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<2304 x i8>
// SM100-LABEL: gpu.func @staged
// SM100: nvvm.convert.f4x2.to.f16x2
// SM100: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// SM100: gpu.barrier
gpu.module @m3 [#nvvm.target<chip = "CHIP">] {
  gpu.func @staged(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1, stage_b = true>
    gpu.return
  }
}

// -----

// Software pipeline: K = 4096 is 128 chunks of 16 bytes, 4 steps per lane,
// 2 outer iterations of 2 steps. Iteration 0's loads are issued before the
// loop (and before the B staging prologue, whose latency they hide); each
// iteration issues the loads of iteration min(i + 1, last) before its math
// and carries them to the next iteration.
// SM90-LABEL: gpu.func @pipelined
// SM90-COUNT-2: llvm.inline_asm has_side_effects {{.*}}ld.global.nc.L1::no_allocate.v4.u32
// SM90: gpu.barrier
// SM90: scf.for %[[IT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// SM90: %[[NEXT:.*]] = arith.addi %[[IT]], %{{.*}} : i32
// SM90: arith.minui %[[NEXT]], %{{.*}} : i32
// SM90-COUNT-2: llvm.inline_asm has_side_effects {{.*}}ld.global.nc.L1::no_allocate.v4.u32
// SM90: nvvm.dot.accumulate.4way
// SM90: scf.yield
// SM100-LABEL: gpu.func @pipelined
// SM100-COUNT-2: llvm.inline_asm has_side_effects {{.*}}ld.global.nc.L1::no_allocate.v4.u32
// SM100: scf.for
// SM100: arith.minui
// SM100: nvvm.convert.f4x2.to.f16x2
// The unpipelined plan loads inside the loop only.
// SM90-LABEL: gpu.func @unpipelined
// SM90: scf.for
// SM90: llvm.inline_asm has_side_effects {{.*}}ld.global.nc.L1::no_allocate.v4.u32
gpu.module @m4 [#nvvm.target<chip = "CHIP">] {
  gpu.func @pipelined(%a: memref<64x4096xf4E2M1FN>, %sfa: memref<64x256xf8E4M3FN>, %b: memref<1x4096xf4E2M1FN>, %sfb: memref<1x256xf8E4M3FN>, %c: memref<64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<64x4096xf4E2M1FN>, memref<64x256xf8E4M3FN>, memref<1x4096xf4E2M1FN>, memref<1x256xf8E4M3FN>) outs(%c : memref<64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, stage_b = true>
    gpu.return
  }
  gpu.func @unpipelined(%a: memref<64x4096xf4E2M1FN>, %sfa: memref<64x256xf8E4M3FN>, %b: memref<1x4096xf4E2M1FN>, %sfb: memref<1x256xf8E4M3FN>, %c: memref<64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<64x4096xf4E2M1FN>, memref<64x256xf8E4M3FN>, memref<1x4096xf4E2M1FN>, memref<1x256xf8E4M3FN>) outs(%c : memref<64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, prefetch = false>
    gpu.return
  }
}

// -----

// k_split = 4: warp w takes row group w / 4 and lane offset (w % 4) * 32 in
// K; after the shuffle reduction each warp's lane 0 writes its partial to a
// 4 warps x 1 row x 4 bytes shared buffer, a barrier, and the first warp of
// the group adds the 4 partials in warp order and stores.
// SM90-LABEL: gpu.module @m5
// SM90: llvm.mlir.global internal @__nvfp4_partials() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16 x i8>
// SM90-LABEL: gpu.func @split
// SM90: arith.divui %{{.*}}, %{{.*}} : i32
// SM90: arith.remui %{{.*}}, %{{.*}} : i32
// SM90: llvm.mlir.addressof @__nvfp4_partials : !llvm.ptr<3>
// SM90: scf.for
// SM90-COUNT-5: gpu.shuffle xor
// SM90: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// SM90: gpu.barrier
// SM90-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// SM90: scf.if
// SM90: llvm.store %{{.*}} : f16, !llvm.ptr<1>
gpu.module @m5 [#nvvm.target<chip = "CHIP">] {
  gpu.func @split(%a: memref<64x4096xf4E2M1FN>, %sfa: memref<64x256xf8E4M3FN>, %b: memref<1x4096xf4E2M1FN>, %sfb: memref<1x256xf8E4M3FN>, %c: memref<64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<64x4096xf4E2M1FN>, memref<64x256xf8E4M3FN>, memref<1x4096xf4E2M1FN>, memref<1x256xf8E4M3FN>) outs(%c : memref<64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1, k_split = 4>
    gpu.return
  }
}

// -----

// row_groups = 3: B is staged once, then one loop runs over the 3 row
// groups' 2 iterations each (K = 2048: 1024 bytes a row, 512 per step of a
// warp), prefetching across group boundaries: iteration t is group t / 2,
// iteration t % 2; the next iteration's group and rows are computed for its
// loads. At a group's last iteration its rows are reduced and stored, and
// the accumulators restart from zero. The prologue issues B's staging
// loads first, then the first A loads, then decodes B.
// SM90-LABEL: gpu.func @groups
// SM90: llvm.load %{{.*}} invariant {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// SM90: ld.global.nc.L1::no_allocate.v4.u32
// SM90: nvvm.prmt
// SM90: gpu.barrier
// SM90: %[[C6:.*]] = arith.constant 6 : i32
// SM90: scf.for %[[T:.*]] = %{{.*}} to %[[C6]] step
// SM90-DAG: arith.divui %[[T]], %{{.*}} : i32
// SM90-DAG: arith.remui %[[T]], %{{.*}} : i32
// SM90: nvvm.dot.accumulate.4way
// SM90: %[[LAST:.*]] = arith.cmpi eq
// SM90: scf.if %[[LAST]] -> (f32, f32)
// SM90: gpu.shuffle xor
// SM90: llvm.store %{{.*}} : f16, !llvm.ptr<1>
// SM90: scf.yield %{{.*}}, %{{.*}} : f32, f32
// SM90: } else {
// SM90: scf.yield
gpu.module @m6 [#nvvm.target<chip = "CHIP">] {
  gpu.func @groups(%a: memref<96x2048xf4E2M1FN>, %sfa: memref<96x128xf8E4M3FN>, %b: memref<1x2048xf4E2M1FN>, %sfb: memref<1x128xf8E4M3FN>, %c: memref<96x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<96x2048xf4E2M1FN>, memref<96x128xf8E4M3FN>, memref<1x2048xf4E2M1FN>, memref<1x128xf8E4M3FN>) outs(%c : memref<96x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 1, stage_b = true, row_groups = 3>
    gpu.return
  }
}

// -----

// prefetch_distance = 3: K = 4096 is 2048 bytes a row, 4 iterations of one
// 16-byte step per lane. The prologue issues iterations 0, 1 and 2 (one
// 16-byte load of A and a 2-byte scale load each); the loop carries the
// three iterations in flight (4 words + scales each) besides the
// accumulator, issues iteration min(t + 3, 3), and yields the two younger
// iterations ahead of the new one.
// SM90-LABEL: gpu.func @distance
// SM90-COUNT-3: ld.global.nc.L1::no_allocate.v4.u32
// SM90: gpu.barrier
// SM90: scf.for %[[T:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[I0:[^ ]*]] = %{{[^ ]*}}, %{{.*}}) -> (f32, i32, i32, i32, i32, vector<2xi8>, i32, i32, i32, i32, vector<2xi8>, i32, i32, i32, i32, vector<2xi8>)
// SM90: %[[AHEAD:.*]] = arith.addi %[[T]], %{{.*}} : i32
// SM90: arith.minui %[[AHEAD]]
// SM90: ld.global.nc.L1::no_allocate.v4.u32
// SM90: nvvm.dot.accumulate.4way %{{.*}}, %{{.*}}
// SM90: scf.yield
gpu.module @m8 [#nvvm.target<chip = "CHIP">] {
  gpu.func @distance(%a: memref<64x4096xf4E2M1FN>, %sfa: memref<64x256xf8E4M3FN>, %b: memref<1x4096xf4E2M1FN>, %sfb: memref<1x256xf8E4M3FN>, %c: memref<64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<64x4096xf4E2M1FN>, memref<64x256xf8E4M3FN>, memref<1x4096xf4E2M1FN>, memref<1x256xf8E4M3FN>) outs(%c : memref<64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 8, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1, stage_b = true, prefetch_distance = 3>
    gpu.return
  }
}
