// nvfp4-plan on a grouped_problems: one plan for every problem (their
// CTAs share one kernel). On sm_90a: every K short (at most 6 chunks of 64): the CTA
// decodes A itself; every problem's B through the ring (K % 256 == 0 or
// blocked scales of B): the grouped GEMM's b_tma plan, tiles by the grid's
// makespan; else three K groups and a producer. No split-K.
// On sm_100a: tiles of 32 to 256 rows of A by the grid's makespan (each
// problem with its own tiles of B and K slices), as many slots as fit and
// the shortest K has slices; CTA pairs where every problem's tiles of B
// pair up and the pair's ring is deeper (the contest's third case: 8 slots
// against a single CTA's 6).
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_90a -verify-diagnostics | FileCheck %s
// RUN: not nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a 2>/dev/null | FileCheck %s --check-prefix=SM100
// RUN: not nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a 2>&1 >/dev/null | FileCheck %s --check-prefix=SM100-ERR
// 65 problems: more cases than a kernel holds.
// RUN: %python %nvfp4_src_root/bench/gen_problems.py 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 16 64 | not nvfp4-opt -nvfp4-plan=target=sm_90a 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: error: 'nvfp4.grouped_problems' op has 65 problems, and its kernel holds at most 64 (a GEMM tile's code each); split them over several ops, or use nvfp4.grouped_matmul where they share N and K

// SM100-LABEL: func.func @short_k
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 32, stages = 2>>
// SM100-LABEL: func.func @b_tma
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 8, cta_group = 2>>
// SM100-LABEL: func.func @odd_tiles
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 6>>
// SM100-LABEL: func.func @k_groups
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 32, stages = 3>>
// SM100-LABEL: func.func @mx_short_k
// SM100: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 32, stages = 2, format = mxfp4>>
// SM100-ERR: error: 'nvfp4.grouped_problems' op has plain MXFP4 scales, which the sm_100a kernel's pre-pass blocks in words of 4 scales, and expects every K to be a multiple of 128, but problem 1 has K = 192; use blocked scales

// CHECK-LABEL: func.func @short_k
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 112>>
func.func @short_k(%a0: memref<96x128xf4E2M1FN>, %a1: memref<128x256xf4E2M1FN>, %sa0: memref<96x8xf8E4M3FN>, %sa1: memref<128x16xf8E4M3FN>, %b0: memref<128x128xf4E2M1FN>, %b1: memref<256x256xf4E2M1FN>, %sb0: memref<128x8xf8E4M3FN>, %sb1: memref<256x16xf8E4M3FN>, %c0: memref<96x128xf16>, %c1: memref<128x256xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<96x128xf4E2M1FN>, memref<128x256xf4E2M1FN>) sfa(%sa0, %sa1 : memref<96x8xf8E4M3FN>, memref<128x16xf8E4M3FN>) b(%b0, %b1 : memref<128x128xf4E2M1FN>, memref<256x256xf4E2M1FN>) sfb(%sb0, %sb1 : memref<128x8xf8E4M3FN>, memref<256x16xf8E4M3FN>) outs(%c0, %c1 : memref<96x128xf16>, memref<128x256xf16>)
  return
}

// -----

// The contest's third benchmark case: 2 x 24 tiles of 128 rows of B, 5
// tiles of A's rows (192 and 320 rows): of 112 rows, not 128, the same
// one wave of 120 CTAs with shorter CTAs (grouped v8); every problem's
// K / 64 a multiple of 4: two K chunks a slot, 4 slots (slots v2).
// CHECK-LABEL: func.func @b_tma
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 112, stages = 4, producer = true, b_tma = true, slot_chunks = 2>>
func.func @b_tma(%a0: memref<192x4096xf4E2M1FN>, %a1: memref<320x4096xf4E2M1FN>, %sa0: memref<192x256xf8E4M3FN>, %sa1: memref<320x256xf8E4M3FN>, %b0: memref<3072x4096xf4E2M1FN>, %b1: memref<3072x4096xf4E2M1FN>, %sb0: memref<3072x256xf8E4M3FN>, %sb1: memref<3072x256xf8E4M3FN>, %c0: memref<192x3072xf16>, %c1: memref<320x3072xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<192x4096xf4E2M1FN>, memref<320x4096xf4E2M1FN>) sfa(%sa0, %sa1 : memref<192x256xf8E4M3FN>, memref<320x256xf8E4M3FN>) b(%b0, %b1 : memref<3072x4096xf4E2M1FN>, memref<3072x4096xf4E2M1FN>) sfb(%sb0, %sb1 : memref<3072x256xf8E4M3FN>, memref<3072x256xf8E4M3FN>) outs(%c0, %c1 : memref<192x3072xf16>, memref<320x3072xf16>)
  return
}

// -----

// The third case with its second problem 25 tiles of B wide: its last pair
// would hold an idle CTA, so sm_100a keeps single CTAs.
func.func @odd_tiles(%a0: memref<192x4096xf4E2M1FN>, %a1: memref<320x4096xf4E2M1FN>, %sa0: memref<192x256xf8E4M3FN>, %sa1: memref<320x256xf8E4M3FN>, %b0: memref<3072x4096xf4E2M1FN>, %b1: memref<3200x4096xf4E2M1FN>, %sb0: memref<3072x256xf8E4M3FN>, %sb1: memref<3200x256xf8E4M3FN>, %c0: memref<192x3072xf16>, %c1: memref<320x3200xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<192x4096xf4E2M1FN>, memref<320x4096xf4E2M1FN>) sfa(%sa0, %sa1 : memref<192x256xf8E4M3FN>, memref<320x256xf8E4M3FN>) b(%b0, %b1 : memref<3072x4096xf4E2M1FN>, memref<3200x4096xf4E2M1FN>) sfb(%sb0, %sb1 : memref<3072x256xf8E4M3FN>, memref<3200x256xf8E4M3FN>) outs(%c0, %c1 : memref<192x3072xf16>, memref<320x3200xf16>)
  return
}

// -----

// K = 640 (plain scales: 40 bytes a row, no tensor map) keeps B out of the
// ring.
// CHECK-LABEL: func.func @k_groups
// CHECK: nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true>>
func.func @k_groups(%a0: memref<200x640xf4E2M1FN>, %sa0: memref<200x40xf8E4M3FN>, %b0: memref<512x640xf4E2M1FN>, %sb0: memref<512x40xf8E4M3FN>, %c0: memref<200x512xf16>) {
  nvfp4.grouped_problems a(%a0 : memref<200x640xf4E2M1FN>) sfa(%sa0 : memref<200x40xf8E4M3FN>) b(%b0 : memref<512x640xf4E2M1FN>) sfb(%sb0 : memref<512x40xf8E4M3FN>) outs(%c0 : memref<200x512xf16>)
  return
}

// -----

// MXFP4's operands are decoded by the ring's ops only: a ring at any K.
// CHECK-LABEL: func.func @mx_short_k
// CHECK: stages = 9, k_groups = 3, producer = true
func.func @mx_short_k(%a0: memref<64x128xf4E2M1FN>, %sa0: memref<64x4xf8E8M0FNU>, %b0: memref<128x128xf4E2M1FN>, %sb0: memref<128x4xf8E8M0FNU>, %c0: memref<64x128xbf16>) {
  nvfp4.grouped_problems a(%a0 : memref<64x128xf4E2M1FN>) sfa(%sa0 : memref<64x4xf8E8M0FNU>) b(%b0 : memref<128x128xf4E2M1FN>) sfb(%sb0 : memref<128x4xf8E8M0FNU>) outs(%c0 : memref<64x128xbf16>)
  return
}

// -----

func.func @split_k(%a0: memref<64x4096xf4E2M1FN>, %sa0: memref<64x256xf8E4M3FN>, %b0: memref<128x4096xf4E2M1FN>, %sb0: memref<128x256xf8E4M3FN>, %c0: memref<64x128xf16>) {
  // expected-error @+1 {{expects a plan without split-K (its problems' tiles share one grid), but got #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4>, reduction = #nvfp4.split_k<splits = 2>>}}
  nvfp4.grouped_problems a(%a0 : memref<64x4096xf4E2M1FN>) sfa(%sa0 : memref<64x256xf8E4M3FN>) b(%b0 : memref<128x4096xf4E2M1FN>) sfb(%sb0 : memref<128x256xf8E4M3FN>) outs(%c0 : memref<64x128xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4>, reduction = #nvfp4.split_k<splits = 2, mode = global>>}
  return
}

// -----

func.func @b_tma_k(%a0: memref<64x4096xf4E2M1FN>, %a1: memref<64x640xf4E2M1FN>, %sa0: memref<64x256xf8E4M3FN>, %sa1: memref<64x40xf8E4M3FN>, %b0: memref<128x4096xf4E2M1FN>, %b1: memref<128x640xf4E2M1FN>, %sb0: memref<128x256xf8E4M3FN>, %sb1: memref<128x40xf8E4M3FN>, %c0: memref<64x128xf16>, %c1: memref<64x128xf16>) {
  // expected-error @+1 {{has a plan with b_tma, which copies B's plain scales with a tensor map and needs K to be a multiple of 256, but problem 1 has K = 640; use blocked scales or b_tma = false}}
  nvfp4.grouped_problems a(%a0, %a1 : memref<64x4096xf4E2M1FN>, memref<64x640xf4E2M1FN>) sfa(%sa0, %sa1 : memref<64x256xf8E4M3FN>, memref<64x40xf8E4M3FN>) b(%b0, %b1 : memref<128x4096xf4E2M1FN>, memref<128x640xf4E2M1FN>) sfb(%sb0, %sb1 : memref<128x256xf8E4M3FN>, memref<128x40xf8E4M3FN>) outs(%c0, %c1 : memref<64x128xf16>, memref<64x128xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, producer = true, b_tma = true>>}
  return
}

// -----

// Plain MXFP4 scales with K = 192: planned on sm_90a (three K groups), an
// error on sm_100a (SM100-ERR above).
// CHECK-LABEL: func.func @mx_plain_k
// CHECK: k_groups = 3
func.func @mx_plain_k(%a0: memref<64x128xf4E2M1FN>, %a1: memref<64x192xf4E2M1FN>, %sa0: memref<64x4xf8E8M0FNU>, %sa1: memref<64x6xf8E8M0FNU>, %b0: memref<128x128xf4E2M1FN>, %b1: memref<128x192xf4E2M1FN>, %sb0: memref<128x4xf8E8M0FNU>, %sb1: memref<128x6xf8E8M0FNU>, %c0: memref<64x128xbf16>, %c1: memref<64x128xbf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<64x128xf4E2M1FN>, memref<64x192xf4E2M1FN>) sfa(%sa0, %sa1 : memref<64x4xf8E8M0FNU>, memref<64x6xf8E8M0FNU>) b(%b0, %b1 : memref<128x128xf4E2M1FN>, memref<128x192xf4E2M1FN>) sfb(%sb0, %sb1 : memref<128x4xf8E8M0FNU>, memref<128x6xf8E8M0FNU>) outs(%c0, %c1 : memref<64x128xbf16>, memref<64x128xbf16>)
  return
}

// -----

func.func @wrong_plan_kind(%a0: memref<64x4096xf4E2M1FN>, %sa0: memref<64x256xf8E4M3FN>, %b0: memref<128x4096xf4E2M1FN>, %sb0: memref<128x256xf8E4M3FN>, %c0: memref<64x128xf16>) {
  // expected-error @+1 {{is planned for sm_90a and expects 'nvfp4.plan' to be a #nvfp4.kernel with a #nvfp4.wgmma_mainloop, but got #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>>}}
  nvfp4.grouped_problems a(%a0 : memref<64x4096xf4E2M1FN>) sfa(%sa0 : memref<64x256xf8E4M3FN>) b(%b0 : memref<128x4096xf4E2M1FN>) sfb(%sb0 : memref<128x256xf8E4M3FN>) outs(%c0 : memref<64x128xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>>}
  return
}
