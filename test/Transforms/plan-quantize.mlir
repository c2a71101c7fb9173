// nvfp4-plan for nvfp4.quantize: 8 warps a CTA, each thread 64 bytes of
// input where its row allows (one block of 16 f32 values, two of f16 or
// bf16; one where a row has an odd number of blocks). A plan written in
// the IR is kept, and refused when its blocks_per_thread does not divide
// the rows' blocks.
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics -nvfp4-plan=target=sm_90a | FileCheck %s
// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics -nvfp4-plan=target=sm_100a | FileCheck %s

// CHECK-LABEL: func.func @f32
// CHECK: nvfp4.plan = #nvfp4.quantize_plan<warps_per_cta = 8, blocks_per_thread = 1>
func.func @f32(%x: memref<128x256xf32>, %q: memref<128x256xf4E2M1FN>, %sf: memref<128x16xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<128x256xf32>) outs(%q, %sf : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>)
  return
}

// -----

// CHECK-LABEL: func.func @bf16
// CHECK: nvfp4.plan = #nvfp4.quantize_plan<warps_per_cta = 8, blocks_per_thread = 2>
func.func @bf16(%x: memref<2x128x7168xbf16>, %g: memref<1xf32>, %q: memref<2x128x7168xf4E2M1FN>, %sf: memref<2x1x112x32x4x4xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<2x128x7168xbf16>) global_scale(%g : memref<1xf32>) outs(%q, %sf : memref<2x128x7168xf4E2M1FN>, memref<2x1x112x32x4x4xf8E4M3FN>) {sf_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// Rows of 13 blocks: one block a thread.
// CHECK-LABEL: func.func @odd_blocks
// CHECK: nvfp4.plan = #nvfp4.quantize_plan<warps_per_cta = 8, blocks_per_thread = 1>
func.func @odd_blocks(%x: memref<7x208xf16>, %q: memref<7x208xf4E2M1FN>, %sf: memref<7x13xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<7x208xf16>) outs(%q, %sf : memref<7x208xf4E2M1FN>, memref<7x13xf8E4M3FN>)
  return
}

// -----

// CHECK-LABEL: func.func @kept
// CHECK: nvfp4.plan = #nvfp4.quantize_plan<warps_per_cta = 2, blocks_per_thread = 4>
func.func @kept(%x: memref<8x256xf32>, %q: memref<8x256xf4E2M1FN>, %sf: memref<8x16xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<8x256xf32>) outs(%q, %sf : memref<8x256xf4E2M1FN>, memref<8x16xf8E4M3FN>) {nvfp4.plan = #nvfp4.quantize_plan<warps_per_cta = 2, blocks_per_thread = 4>}
  return
}

// -----

func.func @indivisible(%x: memref<8x208xf32>, %q: memref<8x208xf4E2M1FN>, %sf: memref<8x13xf8E4M3FN>) {
  // expected-error @+1 {{has a plan of 2 blocks per thread, which do not divide the rows' 13 blocks of 16 values}}
  nvfp4.quantize ins(%x : memref<8x208xf32>) outs(%q, %sf : memref<8x208xf4E2M1FN>, memref<8x13xf8E4M3FN>) {nvfp4.plan = #nvfp4.quantize_plan<warps_per_cta = 8, blocks_per_thread = 2>}
  return
}

// -----

func.func @gemv_plan(%x: memref<8x256xf32>, %q: memref<8x256xf4E2M1FN>, %sf: memref<8x16xf8E4M3FN>) {
  // expected-error @+1 {{expects a #nvfp4.quantize_plan, but got #nvfp4.gemv_plan}}
  nvfp4.quantize ins(%x : memref<8x256xf32>) outs(%q, %sf : memref<8x256xf4E2M1FN>, memref<8x16xf8E4M3FN>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 4>}
  return
}
