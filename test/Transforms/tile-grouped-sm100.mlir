// The grouped (MoE) GEMM on sm_100a, group sizes a run-time operand: the
// planner takes the tile (32 to 256 rows of A) whose grid ends first for
// the size hint (128 here), in CTA pairs (cta_group = 2: each CTA holds
// 64 of the tile's rows of A, and its ring 8 slots instead of a single
// CTA's 6); nvfp4-tile launches the gather of A's scales
// (one CTA per tile: nvfp4.group_tile, then nvfp4.gather_scales_tile into
// rows of the tile's own, blocked), the blocking of B's plain scales, and
// the GEMM over as many tiles as the groups can need (ceil(1024 / 128) +
// 8 - 1 = 15 in y). A tile reads group g's weights and their scales (batch
// g), A's packed rows from its group's first row (its half of them: the
// second CTA of a pair 64 rows on), A's scales from the gathered rows at
// m_base, and stores C's rows [begin, end).
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_100a --nvfp4-tile=target=sm_100a | FileCheck %s --check-prefix=TILE
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_100a --nvfp4-tile=target=sm_100a --nvfp4-software-pipeline | FileCheck %s --check-prefix=PIPE

// TILE: gpu.launch_func @nvfp4_kernels::@grouped_kernel_gather_sfa blocks in (%{{.*}}, %c15, %{{.*}}) threads in (%c128, {{.*}} args(%arg1 : memref<1024x448xf8E4M3FN>, %[[GATHERED:.*]] : memref<15x112x32x4x4xf8E4M3FN>, %arg4 : memref<9xi32>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 8, cta_group = 2>>}
// TILE: gpu.launch_func @nvfp4_kernels::@grouped_kernel_block_sfb {{.*}} args(%arg3 : memref<8x4096x448xf8E4M3FN>, %[[SFB:.*]] : memref<8x32x112x32x4x4xf8E4M3FN>)
// TILE: gpu.launch_func @nvfp4_kernels::@grouped_kernel clusters in (%c2, %{{.*}}, %{{.*}}) blocks in (%c32, %c15{{.*}}, %{{.*}}) {{.*}} args(%arg0 : memref<1024x7168xf4E2M1FN>, %[[GATHERED]] : {{.*}}, %arg2 : {{.*}}, %[[SFB]] : {{.*}}, %arg5 : memref<1024x4096xf16>, %arg4 : memref<9xi32>, %{{.*}} : !nvfp4.tensor_map<1x1024x3584xi8, box = [1, 64, 128], swizzle = swizzle_128b>, %{{.*}} : !nvfp4.tensor_map<8x4096x3584xi8, box = [1, 128, 128], swizzle = swizzle_128b>)
// TILE-LABEL: gpu.func @grouped_kernel_gather_sfa
// TILE: %{{.*}}, %[[BEGIN:.*]], %[[END:.*]] = nvfp4.group_tile %arg2[%{{.*}}] tile_m 128 rows 1024 : memref<9xi32>
// TILE: scf.if
// TILE: nvfp4.gather_scales_tile ins(%arg0 : memref<1024x448xf8E4M3FN>) outs(%arg1 : memref<15x112x32x4x4xf8E4M3FN>) rows %[[BEGIN]] to %[[END]] at %{{.*}} tile_m 128
// TILE-LABEL: gpu.func @grouped_kernel(
// TILE: %[[G:.*]], %[[BEGIN:.*]], %[[END:.*]] = nvfp4.group_tile %arg5[%{{.*}}] tile_m 128 rows 1024 : memref<9xi32>
// TILE: scf.if
// TILE: nvfp4.gemm_tile {{.*}} group %[[G]] rows %[[BEGIN]] to %[[END]] plan #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 8, cta_group = 2>>

// PIPE-LABEL: gpu.func @grouped_kernel(
// PIPE: %[[G:.*]], %[[BEGIN:.*]], %[[END:.*]] = nvfp4.group_tile
// PIPE-DAG: %[[G32:.*]] = arith.index_castui %[[G]] : index to i32
// PIPE-DAG: %[[BEGIN32:.*]] = arith.index_castui %[[BEGIN]] : index to i32
// PIPE-DAG: %[[END32:.*]] = arith.index_castui %[[END]] : index to i32
// PIPE: nvfp4.ring.copy %{{.*}} at 0 from %arg7[%[[G32]], %{{.*}}, %{{.*}}]
// PIPE: %[[ROW:.*]] = arith.addi %[[BEGIN32]], %{{.*}} : i32
// PIPE: nvfp4.ring.copy %{{.*}} at 16384 from %arg6[%{{.*}}, %[[ROW]], %{{.*}}] keep_in_l2
// PIPE: arith.index_castui %[[G]] : index to i64
// PIPE: nvfp4.ring.copy_bytes %{{.*}} at 24576 from %arg3[%{{.*}}] bytes 2048
// PIPE: nvfp4.ring.copy_bytes %{{.*}} at 26624 from %arg1[%{{.*}}] bytes 2048
// PIPE: nvfp4.tcgen05.store %{{.*}} columns 128 outs(%arg4 : memref<1024x4096xf16>) at m %[[BEGIN32]] end %[[END32]] row

func.func @grouped(%a: memref<1024x7168xf4E2M1FN>, %sfa: memref<1024x448xf8E4M3FN>, %b: memref<8x4096x7168xf4E2M1FN>, %sfb: memref<8x4096x448xf8E4M3FN>, %offsets: memref<9xi32>, %c: memref<1024x4096xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<1024x7168xf4E2M1FN>, memref<1024x448xf8E4M3FN>, memref<8x4096x7168xf4E2M1FN>, memref<8x4096x448xf8E4M3FN>, memref<9xi32>) outs(%c : memref<1024x4096xf16>) {size_hint = array<i64: 80, 176, 128, 72, 64, 248, 96, 160>}
  return
}
