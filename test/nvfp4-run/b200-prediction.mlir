// For sm_100a, nvfp4-run prints each GEMM's predicted B200 time (we have no
// B200 to measure on): the contest's speed-of-light model applied to the
// plan (lib/Runner/Predict.h), next to the problem's speed of light and,
// for a contest shape, the contest's best result. The plan's waste shows:
// the MMA padding of ragged shapes, the scale pre-passes of plain scales,
// split-K's sum. Not printed for sm_90a (measured there instead).
// RUN: nvfp4-run %s --entry contest3 --target sm_100a | FileCheck %s --check-prefix=CONTEST
// CONTEST: nvfp4-run: B200 prediction @contest3 128x7168x2048: 1.33 us = max(memory 1.33 us: 10.2 MB at 7.68 TB/s, MMA 0.72 us: 112 CTAs in 1 wave(s) of 148 SMs, 0.0% padding, at 6.9 PFLOP/s); speed of light 1.33 us; contest best 6.54 us; plan #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 8>>
// RUN: nvfp4-run %s --entry ragged --target sm_100a | FileCheck %s --check-prefix=RAGGED
// RAGGED: nvfp4-run: B200 prediction @ragged 200x300x640 L2: 0.28 us = max(memory 0.08 us: 0.6 MB at 7.68 TB/s, MMA 0.27 us: 24 CTAs in 1 wave(s) of 148 SMs, 49.1% padding, at 6.9 PFLOP/s) + scale pre-passes 0.01 us (0.1 MB); speed of light 0.08 us; plan
// A grouped GEMM is predicted for its size hint's rows (the A scales'
// gather per tile a pre-pass; B's scales already blocked need none).
// RUN: nvfp4-run %s --entry grouped4 --target sm_100a | FileCheck %s --check-prefix=GROUPED
// GROUPED: nvfp4-run: B200 prediction @grouped4 512x4096x1536 (grouped: 2 groups, the size hint's rows): {{.*}} us = max(memory {{.*}}, MMA {{.*}}: 128 CTAs in 1 wave(s) of 148 SMs, 0.0% padding, at 6.9 PFLOP/s) + scale pre-passes {{.*}}; speed of light 1.53 us; contest best 6.43 us; plan #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128
// Without a size hint the groups are planned and predicted as Mmax / G
// rows each, and the line says so.
// RUN: nvfp4-run %s --entry grouped_nohint --target sm_100a | FileCheck %s --check-prefix=NOHINT
// NOHINT: nvfp4-run: B200 prediction @grouped_nohint 512x4096x1536 (grouped: 2 groups, Mmax / G rows each (no size hint)):
// The contest's own form of that shape (grouped_problems: each group its
// tensors) and problems of their own N and K: the CTAs of every problem
// handed to the SMs in grid order.
// RUN: nvfp4-run %s --entry problems4 --target sm_100a | FileCheck %s --check-prefix=PROBLEMS
// PROBLEMS: nvfp4-run: B200 prediction @problems4 512x4096x1536 (grouped: 2 independent problems): {{.*}} us = max(memory {{.*}}, MMA {{.*}}: 128 CTAs in 1 wave(s) of 148 SMs, 0.0% padding, at 6.9 PFLOP/s) + scale pre-passes {{.*}}; speed of light 1.53 us; contest best 6.43 us; plan #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128
// RUN: nvfp4-run %s --entry problems_mixed --target sm_100a | FileCheck %s --check-prefix=MIXED
// MIXED: nvfp4-run: B200 prediction @problems_mixed 224 rows (grouped: 2 independent problems of their own N and K): {{.*}}; speed of light {{.*}} us; plan
// MIXED-NOT: contest best
// RUN: nvfp4-run %s --entry ragged --target sm_90a | FileCheck %s --check-prefix=SM90
// SM90-NOT: B200 prediction

func.func @contest3(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<1x32x32x4x4xf8E4M3FN>, %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<56x32x32x4x4xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<1x32x32x4x4xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<56x32x32x4x4xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

func.func @ragged(%a: memref<2x200x640xf4E2M1FN>, %sfa: memref<2x200x40xf8E4M3FN>, %b: memref<2x300x640xf4E2M1FN>, %sfb: memref<2x300x40xf8E4M3FN>, %c: memref<2x200x300xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x200x640xf4E2M1FN>, memref<2x200x40xf8E4M3FN>, memref<2x300x640xf4E2M1FN>, memref<2x300x40xf8E4M3FN>) outs(%c : memref<2x200x300xbf16>)
  return
}

func.func @grouped4(%a: memref<512x1536xf4E2M1FN>, %sfa: memref<512x96xf8E4M3FN>, %b: memref<2x4096x1536xf4E2M1FN>, %sfb: memref<2x32x24x32x4x4xf8E4M3FN>, %offsets: memref<3xi32>, %c: memref<512x4096xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<512x1536xf4E2M1FN>, memref<512x96xf8E4M3FN>, memref<2x4096x1536xf4E2M1FN>, memref<2x32x24x32x4x4xf8E4M3FN>, memref<3xi32>) outs(%c : memref<512x4096xf16>) {size_hint = array<i64: 128, 384>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

func.func @problems4(%a0: memref<128x1536xf4E2M1FN>, %a1: memref<384x1536xf4E2M1FN>, %sa0: memref<128x96xf8E4M3FN>, %sa1: memref<384x96xf8E4M3FN>, %b0: memref<4096x1536xf4E2M1FN>, %b1: memref<4096x1536xf4E2M1FN>, %sb0: memref<4096x96xf8E4M3FN>, %sb1: memref<4096x96xf8E4M3FN>, %c0: memref<128x4096xf16>, %c1: memref<384x4096xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<128x1536xf4E2M1FN>, memref<384x1536xf4E2M1FN>) sfa(%sa0, %sa1 : memref<128x96xf8E4M3FN>, memref<384x96xf8E4M3FN>) b(%b0, %b1 : memref<4096x1536xf4E2M1FN>, memref<4096x1536xf4E2M1FN>) sfb(%sb0, %sb1 : memref<4096x96xf8E4M3FN>, memref<4096x96xf8E4M3FN>) outs(%c0, %c1 : memref<128x4096xf16>, memref<384x4096xf16>)
  return
}

func.func @problems_mixed(%a0: memref<96x128xf4E2M1FN>, %a1: memref<128x512xf4E2M1FN>, %sa0: memref<96x8xf8E4M3FN>, %sa1: memref<128x32xf8E4M3FN>, %b0: memref<128x128xf4E2M1FN>, %b1: memref<256x512xf4E2M1FN>, %sb0: memref<128x8xf8E4M3FN>, %sb1: memref<256x32xf8E4M3FN>, %c0: memref<96x128xf16>, %c1: memref<128x256xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<96x128xf4E2M1FN>, memref<128x512xf4E2M1FN>) sfa(%sa0, %sa1 : memref<96x8xf8E4M3FN>, memref<128x32xf8E4M3FN>) b(%b0, %b1 : memref<128x128xf4E2M1FN>, memref<256x512xf4E2M1FN>) sfb(%sb0, %sb1 : memref<128x8xf8E4M3FN>, memref<256x32xf8E4M3FN>) outs(%c0, %c1 : memref<96x128xf16>, memref<128x256xf16>)
  return
}

func.func @grouped_nohint(%a: memref<512x1536xf4E2M1FN>, %sfa: memref<512x96xf8E4M3FN>, %b: memref<2x4096x1536xf4E2M1FN>, %sfb: memref<2x32x24x32x4x4xf8E4M3FN>, %offsets: memref<3xi32>, %c: memref<512x4096xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<512x1536xf4E2M1FN>, memref<512x96xf8E4M3FN>, memref<2x4096x1536xf4E2M1FN>, memref<2x32x24x32x4x4xf8E4M3FN>, memref<3xi32>) outs(%c : memref<512x4096xf16>) {sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}
