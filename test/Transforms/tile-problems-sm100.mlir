// nvfp4-tile on a grouped_problems planned for sm_100a: each problem's
// scales not yet blocked into whole slots get a pre-pass kernel of their
// own (<name>_block_sfa<g>, <name>_block_sfb<g>), each problem's A and B
// a tensor map of their packed bytes, and one kernel whose CTAs switch on
// their problem (block y: every problem's tiles of A's rows in order) into
// that problem's tcgen05 gemm_tile; a CTA past its problem's N skips it
// (with CTA pairs, a pair past it).
// RUN: nvfp4-opt %s -split-input-file -nvfp4-tile=target=sm_100a | FileCheck %s

// CHECK-LABEL: func.func @plain
// CHECK: %[[SFA0:.*]] = gpu.alloc () : memref<1x4x32x4x4xf8E4M3FN>
// CHECK: gpu.launch_func @nvfp4_kernels::@plain_kernel_block_sfa0 {{.*}} args(%arg2 : memref<96x8xf8E4M3FN>, %[[SFA0]] : memref<1x4x32x4x4xf8E4M3FN>)
// CHECK: %[[SFB0:.*]] = gpu.alloc () : memref<1x4x32x4x4xf8E4M3FN>
// CHECK: gpu.launch_func @nvfp4_kernels::@plain_kernel_block_sfb0 {{.*}} args(%arg6 : memref<128x8xf8E4M3FN>, %[[SFB0]] : memref<1x4x32x4x4xf8E4M3FN>)
// CHECK: %[[A0:.*]] = nvfp4.tensor_map %arg0 : memref<96x128xf4E2M1FN> -> !nvfp4.tensor_map<1x96x64xi8, box = [1, 64, 128], swizzle = swizzle_128b>
// CHECK: %[[B0:.*]] = nvfp4.tensor_map %arg4 : memref<128x128xf4E2M1FN> -> !nvfp4.tensor_map<1x128x64xi8, box = [1, 128, 128], swizzle = swizzle_128b>
// CHECK: gpu.launch_func @nvfp4_kernels::@plain_kernel_block_sfa1
// CHECK: gpu.launch_func @nvfp4_kernels::@plain_kernel_block_sfb1
// CHECK: %[[A1:.*]] = nvfp4.tensor_map %arg1
// CHECK: %[[B1:.*]] = nvfp4.tensor_map %arg5
// CHECK: gpu.launch_func @nvfp4_kernels::@plain_kernel blocks in (%c2{{[_0-9]*}}, %c4, %c1{{[_0-9]*}}) threads in (%c128
// CHECK-SAME: args(%arg0 : {{.*}}, %[[SFA0]] : {{.*}}, %arg4 : {{.*}}, %[[SFB0]] : {{.*}}, %arg8 : {{.*}}, %arg1 : {{.*}}, %{{.*}} : {{.*}}, %arg5 : {{.*}}, %{{.*}} : {{.*}}, %arg9 : {{.*}}, %[[A0]] : {{.*}}, %[[B0]] : {{.*}}, %[[A1]] : {{.*}}, %[[B1]] : {{.*}})
// CHECK: gpu.func @plain_kernel(
// Problem 0 has 2 tiles of 64 rows (96 rows), problem 1 the rest of y.
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %block_id_y, %c2
// CHECK: %[[P:.*]] = arith.index_castui %[[PAST]] : i1 to index
// CHECK: scf.index_switch %[[P]]
// CHECK-NEXT: case 0 {
// CHECK: arith.cmpi ult, %block_id_x, %c1
// CHECK: nvfp4.gemm_tile ins(%arg0, %arg1 : {{.*}}) weight(%arg2, %arg3 : {{.*}}) a_bytes(%arg10 : {{.*}}) b_bytes(%arg11 : {{.*}}) outs(%arg4 : memref<96x128xf16>)
// CHECK: case 1 {
// CHECK: nvfp4.gemm_tile ins(%arg5, %arg6 : {{.*}}) weight(%arg7, %arg8 : {{.*}}) a_bytes(%arg12 : {{.*}}) b_bytes(%arg13 : {{.*}}) outs(%arg9 : memref<128x256xf16>)
func.func @plain(%a0: memref<96x128xf4E2M1FN>, %a1: memref<128x512xf4E2M1FN>, %sa0: memref<96x8xf8E4M3FN>, %sa1: memref<128x32xf8E4M3FN>, %b0: memref<128x128xf4E2M1FN>, %b1: memref<256x512xf4E2M1FN>, %sb0: memref<128x8xf8E4M3FN>, %sb1: memref<256x32xf8E4M3FN>, %c0: memref<96x128xf16>, %c1: memref<128x256xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<96x128xf4E2M1FN>, memref<128x512xf4E2M1FN>) sfa(%sa0, %sa1 : memref<96x8xf8E4M3FN>, memref<128x32xf8E4M3FN>) b(%b0, %b1 : memref<128x128xf4E2M1FN>, memref<256x512xf4E2M1FN>) sfb(%sb0, %sb1 : memref<128x8xf8E4M3FN>, memref<256x32xf8E4M3FN>) outs(%c0, %c1 : memref<96x128xf16>, memref<128x256xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>>}
  return
}

// -----

// CTA pairs: clusters of 2 along x, each CTA copying half of a tile of A
// (a box of 64 of the 128 rows); problem 0's one tile of B takes a whole
// pair (its second CTA past N), problem 1's three tiles two pairs, so the
// grid's x is 4 and only CTAs from 2 on skip problem 0.
// CHECK-LABEL: func.func @pairs
// CHECK: nvfp4.tensor_map %arg0 : memref<96x128xf4E2M1FN> -> !nvfp4.tensor_map<1x96x64xi8, box = [1, 64, 128], swizzle = swizzle_128b>
// CHECK: nvfp4.tensor_map %arg1 : memref<130x256xf4E2M1FN> -> !nvfp4.tensor_map<1x130x128xi8, box = [1, 64, 128], swizzle = swizzle_128b>
// CHECK: gpu.launch_func @nvfp4_kernels::@pairs_kernel clusters in (%c2{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}}) blocks in (%c4{{[_0-9]*}}, %c3{{[_0-9]*}}, %c1{{[_0-9]*}})
// CHECK: gpu.func @pairs_kernel(
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK: case 0 {
// CHECK: arith.cmpi ult, %block_id_x, %c2
// CHECK: nvfp4.gemm_tile
// CHECK: case 1 {
// CHECK-NOT: arith.cmpi ult, %block_id_x
// CHECK: nvfp4.gemm_tile
func.func @pairs(%a0: memref<96x128xf4E2M1FN>, %a1: memref<130x256xf4E2M1FN>, %sa0: memref<96x8xf8E4M3FN>, %sa1: memref<130x16xf8E4M3FN>, %b0: memref<128x128xf4E2M1FN>, %b1: memref<384x256xf4E2M1FN>, %sb0: memref<128x8xf8E4M3FN>, %sb1: memref<384x16xf8E4M3FN>, %c0: memref<96x128xf16>, %c1: memref<130x384xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<96x128xf4E2M1FN>, memref<130x256xf4E2M1FN>) sfa(%sa0, %sa1 : memref<96x8xf8E4M3FN>, memref<130x16xf8E4M3FN>) b(%b0, %b1 : memref<128x128xf4E2M1FN>, memref<384x256xf4E2M1FN>) sfb(%sb0, %sb1 : memref<128x8xf8E4M3FN>, memref<384x16xf8E4M3FN>) outs(%c0, %c1 : memref<96x128xf16>, memref<130x384xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 2, cta_group = 2>>}
  return
}
