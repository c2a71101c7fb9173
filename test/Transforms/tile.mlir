// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_90a -nvfp4-tile=target=sm_90a | FileCheck %s

// 100 rows at 8 rows per CTA (4 warps of 2 rows): 13 CTAs along x, one
// per batch along y, 128 threads each.
// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @gemv(
// CHECK-DAG: %[[C13:.*]] = arith.constant 13 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch_func @nvfp4_kernels::@gemv_kernel blocks in (%[[C13]], %[[C2]], %[[C1]]) threads in (%[[C128]], %[[C1]], %[[C1]]) args(%arg0 : memref<2x100x1024xf4E2M1FN>, %arg1 : {{.*}}, %arg2 : {{.*}}, %arg3 : {{.*}}, %arg4 : memref<2x100x1xf16>)
// CHECK-NOT: nvfp4.scaled_matmul
// CHECK: gpu.module @nvfp4_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">]
// CHECK: gpu.func @gemv_kernel({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BY:.*]] = gpu.block_id y
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[BX]], %[[C8]] : index
// CHECK: nvfp4.gemv_tile ins({{.*}}) outs({{.*}}) rows %[[ROW]] batch %[[BY]] plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 1, stage_b = true>
func.func @gemv(%a: memref<2x100x1024xf4E2M1FN>, %sfa: memref<2x100x64xf8E4M3FN>, %b: memref<2x1x1024xf4E2M1FN>, %sfb: memref<2x1x64xf8E4M3FN>, %c: memref<2x100x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x100x1024xf4E2M1FN>, memref<2x100x64xf8E4M3FN>, memref<2x1x1024xf4E2M1FN>, memref<2x1x64xf8E4M3FN>) outs(%c : memref<2x100x1xf16>)
  return
}

// -----

// row_groups = 4: each CTA covers 4 groups of 8 rows, so 1000 rows need
// ceil(1000 / 32) = 32 CTAs.
// CHECK-LABEL: func.func @grouped_rows(
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: gpu.launch_func @nvfp4_kernels::@grouped_rows_kernel blocks in (%[[C32]],
func.func @grouped_rows(%a: memref<1x1000x1024xf4E2M1FN>, %sfa: memref<1x1000x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x1000x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x1000x1024xf4E2M1FN>, memref<1x1000x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x1000x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 1, stage_b = true, row_groups = 4>}
  return
}

// -----

// Two GEMVs in one function get two kernels with distinct names.
// CHECK-LABEL: func.func @two(
// CHECK: gpu.launch_func @nvfp4_kernels::@two_kernel
// CHECK: gpu.launch_func @nvfp4_kernels::@two_kernel_1
// CHECK: gpu.func @two_kernel(
// CHECK: gpu.func @two_kernel_1(
func.func @two(%a: memref<64x1024xf4E2M1FN>, %sfa: memref<64x64xf8E4M3FN>, %b: memref<1x1024xf4E2M1FN>, %sfb: memref<1x64xf8E4M3FN>, %c: memref<64x1xf16>, %d: memref<64x1xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x1024xf4E2M1FN>, memref<64x64xf8E4M3FN>, memref<1x1024xf4E2M1FN>, memref<1x64xf8E4M3FN>) outs(%c : memref<64x1xf16>)
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x1024xf4E2M1FN>, memref<64x64xf8E4M3FN>, memref<1x1024xf4E2M1FN>, memref<1x64xf8E4M3FN>) outs(%d : memref<64x1xf32>)
  return
}
