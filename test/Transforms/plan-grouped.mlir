// nvfp4-plan's tile of A for sm_90a grouped GEMMs (B through the ring):
// the size hint's grid simulated on the SMs (PlanGemm.cpp, tilesMakespan,
// with the cost per K chunk fit to 32 timed plans on an H200: performance.md,
// grouped v8). Each case is a timed one, and the tile is the fastest timed.
// Where K / 64 is a multiple of 4 and 8 ring slots of one K chunk fit (tiles
// up to 128 rows), two chunks a slot in 4 slots (performance.md, slots v1
// and v2: 3-5 % faster on the contest's first, third and fourth shapes).
//
// The contest's first shape: tiles of 128 rows (256: 6 % slower, 112: 16 %).
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 4096 7168 80,176,128,72,64,248,96,160 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=FIRST
// FIRST: wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 4, producer = true, b_tma = true, slot_chunks = 2>
//
// The second: one tile a group, 256 rows (its largest group has 196; 192:
// 1 % slower, 128: 12 %, 88: 9 %), 5 slots of one chunk (2 of two: 46 %
// slower; 128 rows with two chunks a slot: 2 %).
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 7168 2048 40,76,168,72,164,148,196,160 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=SECOND
// SECOND: wgmma_mainloop<warpgroups = 2, tile_m = 256, stages = 5, producer = true, b_tma = true>
//
// The third: 112 rows, one wave of 120 CTAs each shorter than 128 rows'
// (5 % faster); 104 rows add a second wave of 8-row tiles, each of which
// decodes all of its B (35 % slower).
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 3072 4096 192,320 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=THIRD
// THIRD: wgmma_mainloop<warpgroups = 2, tile_m = 112, stages = 4, producer = true, b_tma = true, slot_chunks = 2>
//
// The fourth: 128 rows (112: 53 % slower, a second wave).
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 4096 1536 128,384 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=FOURTH
// FOURTH: wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 4, producer = true, b_tma = true, slot_chunks = 2>
//
// Two random shapes of the GPU tests: 64 rows (21 % faster than 128) and
// 88 (8 % faster).
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 1024 4096 17,300,64 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=RANDOM1
// RANDOM1: wgmma_mainloop<warpgroups = 2, tile_m = 64, stages = 4, producer = true, b_tma = true, slot_chunks = 2>
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 2304 4096 100,0,37,250,3 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=RANDOM2
// RANDOM2: wgmma_mainloop<warpgroups = 2, tile_m = 88, stages = 4, producer = true, b_tma = true, slot_chunks = 2>
//
// MoE decode: tiles of 8 rows, the largest group's, four K chunks a slot
// in 4 slots (7 % faster than two chunks a slot: performance.md, slots
// v3), also with blocked B scales and MXFP4 (the GPU suite's decode
// inputs) and with tiles of 16 rows; K / 64 a multiple of 4 but not of 8
// keeps two chunks a slot; not a multiple of 4 (blocked scales: plain ones
// need K % 256 == 0), one.
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 4096 7168 1,3,8,2,5,7,4,6 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=DECODE
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 2048 1024 1,3,8,2,5,7,4,6 --blocked=b | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=DECODE
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 2048 1024 1,3,8,2,5,7,4,6 --mx | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=DECODE
// DECODE: wgmma_mainloop<warpgroups = 2, tile_m = 8, stages = 4, producer = true, b_tma = true, slot_chunks = 4>
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 4096 7424 1,3,8,2,5,7,4,6 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=DECODE-PAIRS
// DECODE-PAIRS: wgmma_mainloop<warpgroups = 2, tile_m = 8, stages = 4, producer = true, b_tma = true, slot_chunks = 2>
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 4096 7296 1,3,8,2,5,7,4,6 --blocked=b | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=DECODE-ODD
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 4096 7168 1,3,16,2,5,7,4,6 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=DECODE-16
// DECODE-16: wgmma_mainloop<warpgroups = 2, tile_m = 16, stages = 4, producer = true, b_tma = true, slot_chunks = 4>
// DECODE-ODD: wgmma_mainloop<warpgroups = 2, tile_m = 8, stages = 8, producer = true, b_tma = true>
//
// One consumer warpgroup (N <= 64): never run on a GPU with two chunks a
// slot, so it keeps one, on tiles of 64 rows as on the 192-row tile that
// 80 groups of 190 rows take (where 8 one-chunk slots also fit).
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 64 1024 190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=ONE-WG
// ONE-WG: wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 8, producer = true, b_tma = true>
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 64 1024 190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190,190 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=WIDE
// WIDE: wgmma_mainloop<warpgroups = 1, tile_m = 192, stages = 8, producer = true, b_tma = true>
//
// Mmax = 8000000 rows in tiles of at most 120 rows would need more than
// CUDA's 65535 tiles in y (the hint alone would take 64 rows):
// tiles of 128 rows.
// RUN: %python %nvfp4_src_root/bench/gen_grouped.py 256 256 17,300,64 --mmax=8000000 | nvfp4-opt -nvfp4-plan=target=sm_90a | FileCheck %s --check-prefix=GRID
// GRID: wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 4, producer = true, b_tma = true, slot_chunks = 2>
