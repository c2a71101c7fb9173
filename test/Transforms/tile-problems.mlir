// nvfp4-tile on a planned grouped_problems: block y numbers every
// problem's tiles of A's rows in problem order, block x a tile of B's
// rows up to the widest problem's. Each CTA finds its problem from y
// (compares against the static prefix sums), switches into that problem's
// gemm_tile of its own shapes (a CTA past the problem's N skips it), and
// every problem's operands and tensor maps are parameters of the one
// kernel. With a ring, one pre-pass kernel decodes every problem's A into
// a workspace of its own, on the same tiles (x: K chunks).
// RUN: nvfp4-opt %s -split-input-file -nvfp4-tile=target=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @ring
// CHECK: %[[T0:.*]] = gpu.alloc () : memref<28672xi8>
// CHECK: %[[T1:.*]] = gpu.alloc () : memref<229376xi8>
// CHECK: gpu.launch_func @nvfp4_kernels::@ring_kernel_decode_a blocks in (%c8, %c3, %c1{{[_0-9]*}})
// CHECK-SAME: args(%arg0 : memref<96x128xf4E2M1FN>, %arg2 : memref<96x8xf8E4M3FN>, %[[T0]] : memref<28672xi8>, %arg1 : memref<128x512xf4E2M1FN>, %arg3 : memref<128x32xf8E4M3FN>, %[[T1]] : memref<229376xi8>)
// CHECK-SAME: nvfp4.programmatic_dependent_launch
// CHECK: %[[M0:.*]] = nvfp4.tensor_map %[[T0]] : memref<28672xi8> -> !nvfp4.tensor_map<224x64xf16, box = [112, 64], swizzle = swizzle_128b>
// CHECK: %[[M1:.*]] = nvfp4.tensor_map %[[T1]] : memref<229376xi8> -> !nvfp4.tensor_map<1792x64xf16, box = [112, 64], swizzle = swizzle_128b>
// CHECK: gpu.launch_func @nvfp4_kernels::@ring_kernel blocks in (%c4, %c3{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c512
// CHECK-SAME: args(%arg0 : {{.*}}, %arg2 : {{.*}}, %arg4 : {{.*}}, %arg6 : {{.*}}, %arg8 : {{.*}}, %arg1 : {{.*}}, %arg3 : {{.*}}, %arg5 : {{.*}}, %arg7 : {{.*}}, %arg9 : {{.*}}, %[[M0]] : {{.*}}, %[[M1]] : {{.*}})
// CHECK-SAME: nvfp4.programmatic_dependent_launch
// CHECK: gpu.dealloc %[[T0]]
// CHECK: gpu.dealloc %[[T1]]
// The pre-pass: problem 0 has 2 K chunks of the grid's 8 and one tile of
// 112 rows; problem 1 the rest of y.
// CHECK: gpu.func @ring_kernel_decode_a(
// CHECK: %[[Y:.*]] = gpu.block_id y
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %[[Y]], %c1
// CHECK: %[[P:.*]] = arith.index_castui %[[PAST]] : i1 to index
// CHECK: scf.index_switch %[[P]]
// CHECK-NEXT: case 0 {
// CHECK: arith.cmpi ult, %block_id_x, %c2
// CHECK: nvfp4.decode_a_tile ins(%arg0, %arg1 : {{.*}}) outs(%arg2 : {{.*}}) at m %{{.*}} chunk %block_id_x batch
// CHECK: case 1 {
// CHECK: %[[L1:.*]] = arith.subi %[[Y]], %c1
// CHECK: %[[M:.*]] = arith.muli %[[L1]], %c112
// CHECK: nvfp4.decode_a_tile ins(%arg3, %arg4 : {{.*}}) outs(%arg5 : {{.*}}) at m %[[M]] chunk %block_id_x batch
// The GEMM: problem 0's 128 rows of B are 2 of the grid's 4 tiles of 64.
// CHECK: gpu.func @ring_kernel(
// CHECK-SAME: %arg10: !nvfp4.tensor_map<224x64xf16, box = [112, 64], swizzle = swizzle_128b>, %arg11: !nvfp4.tensor_map<1792x64xf16, box = [112, 64], swizzle = swizzle_128b>)
// CHECK: scf.index_switch
// CHECK-NEXT: case 0 {
// CHECK: arith.cmpi ult, %block_id_x, %c2
// CHECK: nvfp4.gemm_tile ins(%arg0, %arg1 : {{.*}}) weight(%arg2, %arg3 : {{.*}}) a_tiles(%arg10 : {{.*}}) outs(%arg4 : memref<96x128xf16>)
// CHECK: case 1 {
// CHECK-NOT: arith.cmpi ult
// CHECK: nvfp4.gemm_tile ins(%arg5, %arg6 : {{.*}}) weight(%arg7, %arg8 : {{.*}}) a_tiles(%arg11 : {{.*}}) outs(%arg9 : memref<128x256xf16>)
// CHECK: default {
func.func @ring(%a0: memref<96x128xf4E2M1FN>, %a1: memref<128x512xf4E2M1FN>, %sa0: memref<96x8xf8E4M3FN>, %sa1: memref<128x32xf8E4M3FN>, %b0: memref<128x128xf4E2M1FN>, %b1: memref<256x512xf4E2M1FN>, %sb0: memref<128x8xf8E4M3FN>, %sb1: memref<256x32xf8E4M3FN>, %c0: memref<96x128xf16>, %c1: memref<128x256xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<96x128xf4E2M1FN>, memref<128x512xf4E2M1FN>) sfa(%sa0, %sa1 : memref<96x8xf8E4M3FN>, memref<128x32xf8E4M3FN>) b(%b0, %b1 : memref<128x128xf4E2M1FN>, memref<256x512xf4E2M1FN>) sfb(%sb0, %sb1 : memref<128x8xf8E4M3FN>, memref<256x32xf8E4M3FN>) outs(%c0, %c1 : memref<96x128xf16>, memref<128x256xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 112, stages = 9, k_groups = 3, producer = true>>}
  return
}

// -----

// B through the ring: each problem's B and scale maps follow its tiles'.
// CHECK-LABEL: func.func @b_tma
// CHECK: gpu.launch_func @nvfp4_kernels::@b_tma_kernel blocks in (%c24, %c5{{[_0-9]*}}, %c1{{[_0-9]*}})
// CHECK: gpu.func @b_tma_kernel(
// CHECK-SAME: %arg10: !nvfp4.tensor_map<{{.*}}xf16{{.*}}>, %arg11: !nvfp4.tensor_map<{{.*}}xi8{{.*}}>, %arg12: !nvfp4.tensor_map<{{.*}}xi8{{.*}}>, %arg13: !nvfp4.tensor_map<{{.*}}xf16{{.*}}>
// CHECK: case 0 {
// CHECK: nvfp4.gemm_tile ins(%arg0, %arg1 : {{.*}}) weight(%arg2, %arg3 : {{.*}}) a_tiles(%arg10 : {{.*}}) b_bytes(%arg11 : {{.*}}) b_scales(%arg12 : {{.*}})
// CHECK: case 1 {
// CHECK: nvfp4.gemm_tile ins(%arg5, %arg6 : {{.*}}) weight(%arg7, %arg8 : {{.*}}) a_tiles(%arg13 : {{.*}}) b_bytes(%arg14 : {{.*}}) b_scales(%arg15 : {{.*}})
func.func @b_tma(%a0: memref<192x4096xf4E2M1FN>, %a1: memref<320x4096xf4E2M1FN>, %sa0: memref<192x256xf8E4M3FN>, %sa1: memref<320x256xf8E4M3FN>, %b0: memref<3072x4096xf4E2M1FN>, %b1: memref<3072x4096xf4E2M1FN>, %sb0: memref<3072x256xf8E4M3FN>, %sb1: memref<3072x256xf8E4M3FN>, %c0: memref<192x3072xf16>, %c1: memref<320x3072xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<192x4096xf4E2M1FN>, memref<320x4096xf4E2M1FN>) sfa(%sa0, %sa1 : memref<192x256xf8E4M3FN>, memref<320x256xf8E4M3FN>) b(%b0, %b1 : memref<3072x4096xf4E2M1FN>, memref<3072x4096xf4E2M1FN>) sfb(%sb0, %sb1 : memref<3072x256xf8E4M3FN>, memref<3072x256xf8E4M3FN>) outs(%c0, %c1 : memref<192x3072xf16>, memref<320x3072xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 8, producer = true, b_tma = true>>}
  return
}

// -----

// The CTA that decodes A itself: no pre-pass, no workspace, no maps; one
// problem needs no switch.
// CHECK-LABEL: func.func @one_problem
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @nvfp4_kernels::@one_problem_kernel blocks in (%c2, %c2{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128
// CHECK: gpu.func @one_problem_kernel(
// CHECK-NOT: scf.index_switch
// CHECK: nvfp4.gemm_tile ins(%arg0, %arg1 : {{.*}}) weight(%arg2, %arg3 : {{.*}}) outs(%arg4 : memref<256x128xbf16>)
func.func @one_problem(%a: memref<256x256xf4E2M1FN>, %sa: memref<256x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sb: memref<128x16xf8E4M3FN>, %c: memref<256x128xbf16>) {
  nvfp4.grouped_problems a(%a : memref<256x256xf4E2M1FN>) sfa(%sa : memref<256x16xf8E4M3FN>) b(%b : memref<128x256xf4E2M1FN>) sfb(%sb : memref<128x16xf8E4M3FN>) outs(%c : memref<256x128xbf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128>>}
  return
}
