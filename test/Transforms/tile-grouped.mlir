// The grouped (MoE) GEMM on sm_90a, whose group sizes are a run-time
// operand: nvfp4-plan sizes the tile of A for the size hint's largest
// group, up to 128 rows (tile_m = 128, B through the ring, two consumer
// warpgroups sharing each tile of A); nvfp4-tile launches the pre-pass and
// the GEMM over as many tiles of A as the groups can need (ceil(1024 /
// 128) + 8 - 1 = 15 in y),
// each of whose CTAs finds its group and rows with nvfp4.group_tile and
// skips the empty tiles past the last; the pre-pass gathers a tile's rows
// of one group, and the GEMM's tile reads group g's weights (the ring
// copies B at batch coordinate g), runs the K loop written for its rows
// rounded up to 8 (the MMAs' N: sixteen loops, an index_switch on the rows,
// each with accumulators of its MMAs' width, widened to the tile's after its
// loop) and stores C's rows [begin, end) of that group, masked at run time.
// K / 64 = 112 is a multiple of 4: two K chunks a ring slot (the second
// chunk's tile of A at a_offset), 4 slots.
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a | FileCheck %s --check-prefix=TILE
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a --nvfp4-software-pipeline | FileCheck %s --check-prefix=PIPE

// TILE: gpu.launch_func @nvfp4_kernels::@grouped_kernel_decode_a blocks in (%c112, %c15, %{{.*}}) threads in {{.*}} args(%arg0 : {{.*}}, %arg1 : {{.*}}, %{{.*}} : memref<27525120xi8>, %arg4 : memref<9xi32>)
// TILE: gpu.launch_func @nvfp4_kernels::@grouped_kernel blocks in (%c32, %c15{{.*}}, %{{.*}}) threads in {{.*}} args({{.*}}, %arg5 : memref<1024x4096xf16>, %arg4 : memref<9xi32>, %{{.*}} : !nvfp4.tensor_map<215040x64xf16, {{.*}}>, %{{.*}} : !nvfp4.tensor_map<8x4096x3584xi8, {{.*}}>, %{{.*}} : !nvfp4.tensor_map<8x4096x448xi8, {{.*}}>)
// TILE-LABEL: gpu.func @grouped_kernel_decode_a
// TILE: %[[G:.*]], %[[BEGIN:.*]], %[[END:.*]] = nvfp4.group_tile %arg3[%{{.*}}] tile_m 128 rows 1024 : memref<9xi32>
// TILE: %[[HAS:.*]] = arith.cmpi ult, %[[BEGIN]], %[[END]] : index
// TILE: scf.if %[[HAS]] {
// TILE: nvfp4.decode_a_tile {{.*}} rows %[[BEGIN]] to %[[END]] plan
// TILE-LABEL: gpu.func @grouped_kernel(
// TILE: %[[G:.*]], %[[BEGIN:.*]], %[[END:.*]] = nvfp4.group_tile %arg5[%{{.*}}] tile_m 128 rows 1024 : memref<9xi32>
// TILE: scf.if
// TILE: nvfp4.gemm_tile {{.*}} group %[[G]] rows %[[BEGIN]] to %[[END]] plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 4, producer = true, b_tma = true, slot_chunks = 2>>

// PIPE-LABEL: gpu.func @grouped_kernel(
// PIPE: %[[G:.*]], %[[BEGIN:.*]], %[[END:.*]] = nvfp4.group_tile
// PIPE-DAG: %[[G32:.*]] = arith.index_cast{{(ui)?}} %[[G]] : index to i32
// PIPE-DAG: %[[BEGIN32:.*]] = arith.index_cast{{(ui)?}} %[[BEGIN]] : index to i32
// PIPE-DAG: %[[END32:.*]] = arith.index_cast{{(ui)?}} %[[END]] : index to i32
// PIPE: nvfp4.ring.copy %{{.*}} at 16384 from %{{.*}}[%[[G32]], %{{.*}}, %{{.*}}]
// PIPE: %[[ROWS:.*]] = arith.subi %[[END32]], %[[BEGIN32]] : i32
// PIPE: scf.index_switch %{{.*}} -> vector<64xf32>
// PIPE: case 0 {
// PIPE: nvfp4.wgmma.mma {{.*}} : !nvfp4.ring<{{.*}}>, vector<4xf32>
// PIPE: nvfp4.wgmma.mma {{.*}} {a_offset = 22528 : i64} : !nvfp4.ring<{{.*}}>, vector<4xf32>
// PIPE: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 4, {{.*}}] : vector<4xf32>, vector<1xf32>
// PIPE: case 11 {
// PIPE: nvfp4.wgmma.mma {{.*}}, vector<48xf32>
// PIPE: vector.shuffle {{.*}} : vector<48xf32>, vector<1xf32>
// PIPE: case 14 {
// PIPE: nvfp4.wgmma.mma {{.*}}, vector<60xf32>
// PIPE: default {
// PIPE: nvfp4.wgmma.mma {{.*}}, vector<64xf32>
// PIPE-NOT: vector.shuffle
// PIPE: nvfp4.wgmma.store %{{.*}} outs(%{{.*}} : memref<1024x4096xf16>) at m %[[BEGIN32]] to %[[END32]] row

func.func @grouped(%a: memref<1024x7168xf4E2M1FN>, %sfa: memref<1024x448xf8E4M3FN>, %b: memref<8x4096x7168xf4E2M1FN>, %sfb: memref<8x4096x448xf8E4M3FN>, %offsets: memref<9xi32>, %c: memref<1024x4096xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<1024x7168xf4E2M1FN>, memref<1024x448xf8E4M3FN>, memref<8x4096x7168xf4E2M1FN>, memref<8x4096x448xf8E4M3FN>, memref<9xi32>) outs(%c : memref<1024x4096xf16>) {size_hint = array<i64: 80, 176, 128, 72, 64, 248, 96, 160>}
  return
}
