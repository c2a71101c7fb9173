// nvfp4-plan on GEMMs (scaled_matmul with N > 1): the plan it chooses, a
// user plan kept, and the shapes and plans it rejects with the constraint
// named.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_90a -verify-diagnostics | FileCheck %s
// RUN: not nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a 2>/dev/null | FileCheck %s --check-prefix=SM100
// RUN: not nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a 2>&1 >/dev/null | FileCheck %s --check-prefix=SM100-ERR

// The SM count the grids are sized for is an option (default: the chip's):
// on 264 SMs the contest shape's 112 CTAs cover less than half of them.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan="target=sm_90a sm-count=264" -verify-diagnostics | FileCheck %s --check-prefix=SMS
// SMS-LABEL: func.func @contest
// SMS: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
// RUN: not nvfp4-opt %s -split-input-file -nvfp4-plan="target=sm_90a sm-count=-1" 2>&1 | FileCheck %s --check-prefix=BADSMS
// BADSMS: nvfp4-plan: sm-count must be >= 0 (0: the chip's), but got -1

// The same shapes for sm_100a get tcgen05 plans (plan-gemm-sm100.mlir), in
// either scale layout, and a wgmma plan is refused there.
// SM100-LABEL: func.func @contest
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 8>>
// SM100-LABEL: func.func @blocked
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>>
// SM100-ERR: error: 'nvfp4.scaled_matmul' op is a GEMM (N = 128) for sm_100a and expects 'nvfp4.plan' to be a #nvfp4.kernel with a #nvfp4.tcgen05_mainloop, but got #nvfp4.gemv_plan

// Contest shape: one warpgroup per 64 rows of B, all 128 rows of A in one
// tile, A decoded once by the pre-pass and streamed by a producer
// warpgroup through 8 slots, with B's chunks (b_tma: K % 256 == 0).
// CHECK-LABEL: func.func @contest
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 8, producer = true, b_tma = true>>
func.func @contest(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<128x128xf8E4M3FN>, %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<7168x128xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<128x128xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<7168x128xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
  return
}

// -----

// Short K: up to 6 chunks (K <= 384) each CTA decodes A itself (one launch,
// no pre-pass); from 7 chunks on, the ring and its pre-pass.
// CHECK-LABEL: func.func @short_k
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128>>
// CHECK-LABEL: func.func @short_k_ring
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true>>
func.func @short_k(%a: memref<128x384xf4E2M1FN>, %sfa: memref<128x24xf8E4M3FN>, %b: memref<7168x384xf4E2M1FN>, %sfb: memref<7168x24xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x384xf4E2M1FN>, memref<128x24xf8E4M3FN>, memref<7168x384xf4E2M1FN>, memref<7168x24xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
  return
}
func.func @short_k_ring(%a: memref<128x448xf4E2M1FN>, %sfa: memref<128x28xf8E4M3FN>, %b: memref<7168x448xf4E2M1FN>, %sfb: memref<7168x28xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x448xf4E2M1FN>, memref<128x28xf8E4M3FN>, memref<7168x448xf4E2M1FN>, memref<7168x28xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
  return
}

// -----

// One tile of B: no pre-pass (the CTA decodes A); M rounds up to 8.
// CHECK-LABEL: func.func @one_tile
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 40>>
func.func @one_tile(%a: memref<2x37x256xf4E2M1FN>, %sfa: memref<2x37x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %c: memref<2x37x64xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x37x256xf4E2M1FN>, memref<2x37x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>) outs(%c : memref<2x37x64xbf16>)
  return
}

// -----

// A plan written in the IR is kept.
// CHECK-LABEL: func.func @user_plan
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 64, stages = 3>>
func.func @user_plan(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<512x256xf4E2M1FN>, %sfb: memref<512x16xf8E4M3FN>, %c: memref<128x512xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<512x256xf4E2M1FN>, memref<512x16xf8E4M3FN>) outs(%c : memref<128x512xf32>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 64, stages = 3>>}
  return
}

// -----

func.func @k_not_64(%a: memref<128x96xf4E2M1FN>, %sfa: memref<128x6xf8E4M3FN>, %b: memref<256x96xf4E2M1FN>, %sfb: memref<256x6xf8E4M3FN>, %c: memref<128x256xf16>) {
  // expected-error @+1 {{cannot be planned as a GEMM: the GEMM kernels step K by 64 (4 MMAs of K = 16), so K % 64 == 0 is needed, but K = 96}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x96xf4E2M1FN>, memref<128x6xf8E4M3FN>, memref<256x96xf4E2M1FN>, memref<256x6xf8E4M3FN>) outs(%c : memref<128x256xf16>)
  return
}

// -----

// Blocked scales (the 128x4 atoms) are read by the GEMM kernels as they are.
// CHECK-LABEL: func.func @blocked
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop
// CHECK-SAME: sfa_layout = #nvfp4.scale_layout<blocked>
func.func @blocked(%a: memref<128x256xf4E2M1FN>, %sfa: memref<1x4x32x4x4xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>, memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) outs(%c : memref<128x128xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

func.func @gemv_plan_on_gemm(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>) {
  // expected-error @+1 {{is a GEMM (N = 128) for sm_90a and expects 'nvfp4.plan' to be a #nvfp4.kernel with a #nvfp4.wgmma_mainloop, but got #nvfp4.gemv_plan}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) outs(%c : memref<128x128xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>}
  return
}

// -----

// Tiles of A's rows are the grid's y dimension (at most 65535).
func.func @too_many_rows(%a: memref<8388608x64xf4E2M1FN>, %sfa: memref<8388608x4xf8E4M3FN>, %b: memref<128x64xf4E2M1FN>, %sfb: memref<128x4xf8E4M3FN>, %c: memref<8388608x128xf16>) {
  // expected-error @+1 {{cannot be launched as one GEMM: its grid needs 65536 tiles of A's rows in y and 1 (batches x split_k) in z, and CUDA limits both to 65535}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<8388608x64xf4E2M1FN>, memref<8388608x4xf8E4M3FN>, memref<128x64xf4E2M1FN>, memref<128x4xf8E4M3FN>) outs(%c : memref<8388608x128xf16>)
  return
}

// -----

// A grid that would cover at most half the SMs (64 tiles of B): two CTAs
// split K (112 chunks), a cluster adding their tiles on chip, B's chunks
// through the 6-slot ring.
// CHECK-LABEL: func.func @half_the_sms
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 6, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
func.func @half_the_sms(%a: memref<128x7168xf4E2M1FN>, %sfa: memref<128x448xf8E4M3FN>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<4096x448xf8E4M3FN>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7168xf4E2M1FN>, memref<128x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<128x4096xf16>)
  return
}

// -----

// The same grid with an odd number of K chunks (K = 7232: 113): 64-row
// tiles of A and four warpgroups splitting K instead.
// CHECK-LABEL: func.func @half_the_sms_odd_k
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 8, k_groups = 4>>
func.func @half_the_sms_odd_k(%a: memref<128x7232xf4E2M1FN>, %sfa: memref<128x452xf8E4M3FN>, %b: memref<4096x7232xf4E2M1FN>, %sfb: memref<4096x452xf8E4M3FN>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7232xf4E2M1FN>, memref<128x452xf8E4M3FN>, memref<4096x7232xf4E2M1FN>, memref<4096x452xf8E4M3FN>) outs(%c : memref<128x4096xf16>)
  return
}

// -----

// A long K (256 chunks) on a full grid: two warpgroups share each tile of
// A, and two CTAs split K as a cluster (112 CTAs, as with one: N / 64 is
// even); each split's 128 chunks two a slot, in 5 slots (7 % faster:
// performance.md, slots v1).
// CHECK-LABEL: func.func @long_k
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 5, producer = true, b_tma = true, slot_chunks = 2>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
func.func @long_k(%a: memref<128x16384xf4E2M1FN>, %sfa: memref<128x1024xf8E4M3FN>, %b: memref<7168x16384xf4E2M1FN>, %sfb: memref<7168x1024xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x16384xf4E2M1FN>, memref<128x1024xf8E4M3FN>, memref<7168x16384xf4E2M1FN>, memref<7168x1024xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
  return
}

// -----

// The same with 260 chunks: each split's 130 would end in an odd slot, a
// case never timed, so one chunk a slot.
// CHECK-LABEL: func.func @long_k_odd_slots
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 10, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
func.func @long_k_odd_slots(%a: memref<128x16640xf4E2M1FN>, %sfa: memref<128x1040xf8E4M3FN>, %b: memref<7168x16640xf4E2M1FN>, %sfb: memref<7168x1040xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x16640xf4E2M1FN>, memref<128x1040xf8E4M3FN>, memref<7168x16640xf4E2M1FN>, memref<7168x1040xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
  return
}

// -----

// The same with an odd number of K chunks (K = 16448: 257), which two CTAs
// cannot split: three K groups in one CTA, B loaded 3 rounds ahead.
// CHECK-LABEL: func.func @long_odd_k
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, b_prefetch = 3, producer = true>>
func.func @long_odd_k(%a: memref<128x16448xf4E2M1FN>, %sfa: memref<128x1028xf8E4M3FN>, %b: memref<7168x16448xf4E2M1FN>, %sfb: memref<7168x1028xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x16448xf4E2M1FN>, memref<128x1028xf8E4M3FN>, memref<7168x16448xf4E2M1FN>, memref<7168x1028xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
  return
}

// -----

// Long K with 64 rows of A: a tile of A would be half empty for two
// warpgroups (64x7168x8192: 30.3 us with three K groups, 37.9 with them).
// CHECK-LABEL: func.func @long_k_64_rows
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 9, k_groups = 3, b_prefetch = 3, producer = true>>
func.func @long_k_64_rows(%a: memref<64x8192xf4E2M1FN>, %sfa: memref<64x512xf8E4M3FN>, %b: memref<7168x8192xf4E2M1FN>, %sfb: memref<7168x512xf8E4M3FN>, %c: memref<64x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x8192xf4E2M1FN>, memref<64x512xf8E4M3FN>, memref<7168x8192xf4E2M1FN>, memref<7168x512xf8E4M3FN>) outs(%c : memref<64x7168xf16>)
  return
}

// -----

// split_k must divide K's chunks of 64 (K = 448: 7 chunks).
func.func @split_k_chunks(%a: memref<128x448xf4E2M1FN>, %sfa: memref<128x28xf8E4M3FN>, %b: memref<256x448xf4E2M1FN>, %sfb: memref<256x28xf8E4M3FN>, %c: memref<128x256xf16>) {
  // expected-error @+1 {{has a plan with split_k = 2, which must divide the 7 K chunks of 64 values (K = 448)}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x448xf4E2M1FN>, memref<128x28xf8E4M3FN>, memref<256x448xf4E2M1FN>, memref<256x28xf8E4M3FN>) outs(%c : memref<128x256xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4, k_groups = 2>, reduction = #nvfp4.split_k<splits = 2>>}
  return
}

// -----

// K % 256 != 0 (K = 2112, 33 chunks): plain scales of B cannot come through
// a tensor map (rows of 132 bytes), so B is loaded into registers by three
// K groups; with blocked scales of B, b_tma.
// CHECK-LABEL: func.func @plain_scales_k
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true>>
func.func @plain_scales_k(%a: memref<128x2112xf4E2M1FN>, %sfa: memref<128x132xf8E4M3FN>, %b: memref<7168x2112xf4E2M1FN>, %sfb: memref<7168x132xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2112xf4E2M1FN>, memref<128x132xf8E4M3FN>, memref<7168x2112xf4E2M1FN>, memref<7168x132xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
  return
}
// CHECK-LABEL: func.func @blocked_scales_k
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 8, producer = true, b_tma = true>>
func.func @blocked_scales_k(%a: memref<128x2112xf4E2M1FN>, %sfa: memref<128x132xf8E4M3FN>, %b: memref<7168x2112xf4E2M1FN>, %sfb: memref<56x33x32x4x4xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2112xf4E2M1FN>, memref<128x132xf8E4M3FN>, memref<7168x2112xf4E2M1FN>, memref<56x33x32x4x4xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// A user's b_tma plan with plain scales of B needs K % 256 == 0.
func.func @b_tma_plain_k(%a: memref<128x2112xf4E2M1FN>, %sfa: memref<128x132xf8E4M3FN>, %b: memref<7168x2112xf4E2M1FN>, %sfb: memref<7168x132xf8E4M3FN>, %c: memref<128x7168xf16>) {
  // expected-error @+1 {{has a plan with b_tma, which copies B's plain scales with a tensor map and needs K to be a multiple of 256 (a row of scales a multiple of 16 bytes), but K = 2112; use blocked scales or b_tma = false}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2112xf4E2M1FN>, memref<128x132xf8E4M3FN>, memref<7168x2112xf4E2M1FN>, memref<7168x132xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 8, producer = true, b_tma = true>>}
  return
}

// -----

// A user's split_weights plan reads B's plain scale codes as rows.
func.func @split_weights_blocked(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x256xf8E4M3FN>, %b1: memref<3072x4096xf4E2M1FN>, %sfb1: memref<24x64x32x4x4xf8E4M3FN>, %b2: memref<3072x4096xf4E2M1FN>, %sfb2: memref<24x64x32x4x4xf8E4M3FN>, %c: memref<256x3072xf16>) {
  // expected-error @+1 {{has a plan with split_weights, whose warpgroups read B's scale codes as rows of 16 bytes, but B's scales are blocked; use plain scales or split_weights = false}}
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x4096xf4E2M1FN>, memref<256x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<24x64x32x4x4xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<24x64x32x4x4xf8E4M3FN>) outs(%c : memref<256x3072xf16>) {sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 8, producer = true, b_tma = true, weights = 2, split_weights = true>>}
  return
}

// -----

// A half grid with 64 rows of A: the split cluster with B through the
// ring (without b_tma the planner had no split-K for tiles of 64 rows).
// CHECK-LABEL: func.func @half_grid_64_rows
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 6, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>
func.func @half_grid_64_rows(%a: memref<64x7168xf4E2M1FN>, %sfa: memref<64x448xf8E4M3FN>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<4096x448xf8E4M3FN>, %c: memref<64x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x7168xf4E2M1FN>, memref<64x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<64x4096xf16>)
  return
}

// -----

// Two waves of one warpgroup's CTAs (48 x 4 = 192 on 132 SMs) against one
// of two warpgroups sharing each tile of A (96 CTAs), B through the ring.
// CHECK-LABEL: func.func @more_than_a_wave
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 8, producer = true, b_tma = true>>
func.func @more_than_a_wave(%a: memref<512x4096xf4E2M1FN>, %sfa: memref<512x256xf8E4M3FN>, %b: memref<3072x4096xf4E2M1FN>, %sfb: memref<3072x256xf8E4M3FN>, %c: memref<512x3072xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<512x4096xf4E2M1FN>, memref<512x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>) outs(%c : memref<512x3072xf16>)
  return
}

// -----

// At most a wave (64 x 2 = 128 CTAs): two warpgroups would leave half the
// SMs idle, so one warpgroup a tile.
// CHECK-LABEL: func.func @one_wave
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 8, producer = true, b_tma = true>>
func.func @one_wave(%a: memref<256x7168xf4E2M1FN>, %sfa: memref<256x448xf8E4M3FN>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<4096x448xf8E4M3FN>, %c: memref<256x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<256x7168xf4E2M1FN>, memref<256x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<256x4096xf16>)
  return
}

// -----

// 112 x 3 = 336 CTAs of one warpgroup are 3 waves; two warpgroups' 168
// CTAs would be 2 waves of twice as long CTAs (GEMM v35: 35.37 against
// 32.28 us): one warpgroup a tile.
// CHECK-LABEL: func.func @partial_wave
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 8, producer = true, b_tma = true>>
func.func @partial_wave(%a: memref<384x2048xf4E2M1FN>, %sfa: memref<384x128xf8E4M3FN>, %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<7168x128xf8E4M3FN>, %c: memref<384x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<384x2048xf4E2M1FN>, memref<384x128xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<7168x128xf8E4M3FN>) outs(%c : memref<384x7168xf16>)
  return
}
