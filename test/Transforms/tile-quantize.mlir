// nvfp4-tile for nvfp4.quantize: one kernel of the plan's threads, CTA i
// quantizing blocks of 16 values from i x blocks_per_cta (8 warps x 32
// threads x 2 blocks = 512) on, over every batch and row: 2 x 128 x 448
// blocks are 224 CTAs. The per-tensor scale, when there is one, is the
// kernel's second operand.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_90a -nvfp4-tile=target=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @bf16
// CHECK: gpu.launch_func @nvfp4_kernels::@bf16_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in ({{.*}}) args(%arg0 : memref<2x128x7168xbf16>, %arg1 : memref<1xf32>, %arg2 : memref<2x128x7168xf4E2M1FN>, %arg3 : memref<2x1x112x32x4x4xf8E4M3FN>) {nvfp4.plan = #nvfp4.quantize_plan<warps_per_cta = 8, blocks_per_thread = 2>}
// CHECK: gpu.func @bf16_kernel(%[[X:.*]]: memref<2x128x7168xbf16>, %[[G:.*]]: memref<1xf32>, %[[Q:.*]]: memref<2x128x7168xf4E2M1FN>, %[[SF:.*]]: memref<2x1x112x32x4x4xf8E4M3FN>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %c512
// CHECK: nvfp4.quantize_tile ins(%[[X]] : memref<2x128x7168xbf16>) global_scale(%[[G]] : memref<1xf32>) outs(%[[Q]], %[[SF]] : memref<2x128x7168xf4E2M1FN>, memref<2x1x112x32x4x4xf8E4M3FN>) at %[[BASE]] plan <warps_per_cta = 8, blocks_per_thread = 2> {sf_layout = #nvfp4.scale_layout<blocked>}
func.func @bf16(%x: memref<2x128x7168xbf16>, %g: memref<1xf32>, %q: memref<2x128x7168xf4E2M1FN>, %sf: memref<2x1x112x32x4x4xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<2x128x7168xbf16>) global_scale(%g : memref<1xf32>) outs(%q, %sf : memref<2x128x7168xf4E2M1FN>, memref<2x1x112x32x4x4xf8E4M3FN>) {sf_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// A per-tensor scale computed on the device: three single-step kernels of
// nvfp4.global_amax_tile run first (zero g; the amax, 4096 16-byte words a
// CTA: 2 x 128 x 7168 bf16 are 229376 words, 56 CTAs; g / (448 x 6)), then
// the quantization reads g as its global scale.
// CHECK-LABEL: func.func @device_scale
// CHECK: gpu.launch_func @nvfp4_kernels::@device_scale_kernel_zero blocks in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c256{{.*}}, {{.*}}) args(%arg0 : memref<2x128x7168xbf16>, %arg3 : memref<1xf32>)
// CHECK: gpu.launch_func @nvfp4_kernels::@device_scale_kernel_amax blocks in (%c56{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c256{{.*}}, {{.*}}) args(%arg0 : memref<2x128x7168xbf16>, %arg3 : memref<1xf32>)
// CHECK: gpu.launch_func @nvfp4_kernels::@device_scale_kernel_finalize blocks in (%c1{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c256{{.*}}, {{.*}}) args(%arg0 : memref<2x128x7168xbf16>, %arg3 : memref<1xf32>)
// CHECK: gpu.launch_func @nvfp4_kernels::@device_scale_kernel blocks in ({{.*}}) threads in ({{.*}}) args(%arg0 : memref<2x128x7168xbf16>, %arg3 : memref<1xf32>, %arg1 : memref<2x128x7168xf4E2M1FN>, %arg2 : memref<2x128x448xf8E4M3FN>)
// CHECK: nvfp4.global_amax_tile <zero> ins(%{{.*}} : memref<2x128x7168xbf16>) outs(%{{.*}} : memref<1xf32>) at %{{.*}} words 4096
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %c4096
// CHECK: nvfp4.global_amax_tile <amax> ins(%{{.*}} : memref<2x128x7168xbf16>) outs(%{{.*}} : memref<1xf32>) at %[[BASE]] words 4096
// CHECK: nvfp4.global_amax_tile <finalize>
// CHECK: nvfp4.quantize_tile ins(%{{.*}} : memref<2x128x7168xbf16>) global_scale(%{{.*}} : memref<1xf32>)
func.func @device_scale(%x: memref<2x128x7168xbf16>, %q: memref<2x128x7168xf4E2M1FN>, %sf: memref<2x128x448xf8E4M3FN>, %g: memref<1xf32>) {
  nvfp4.quantize ins(%x : memref<2x128x7168xbf16>) outs(%q, %sf : memref<2x128x7168xf4E2M1FN>, memref<2x128x448xf8E4M3FN>) returns_global_scale(%g : memref<1xf32>)
  return
}
