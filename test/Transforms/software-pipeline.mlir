// nvfp4-software-pipeline on CTA-level GEMM tiles: a plan with a ring becomes
// its K loop (ring, producer fills, consumer rounds unrolled by two, the
// weights' register pipeline, tail, store); a plan without one is left to the
// conversion; a ring for a chip with no consumer yet is an error.
// RUN: nvfp4-opt %s -split-input-file -nvfp4-software-pipeline -canonicalize -verify-diagnostics | FileCheck %s

// K = 256: 4 chunks, 6 stages -> 4 fills up front; b_prefetch = 3: round 0's
// fragments decoded and rounds 1, 2 loaded before the loop.
// CHECK-LABEL: gpu.func @ring_kernel
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>
// CHECK: %[[B0:.*]], %[[B1:.*]], %[[S0:.*]], %[[S1:.*]] = nvfp4.wgmma.load_b ins(%arg2, %arg3 : {{.*}}) row %{{.*}} chunk %{{.*}} batch %{{.*}}
// CHECK: %[[F0:.*]] = nvfp4.wgmma.decode_b %[[B0]], %[[B1]], %[[S0]], %[[S1]]
// CHECK: nvfp4.wgmma.load_b
// CHECK: nvfp4.wgmma.load_b
// CHECK-NOT: nvfp4.wgmma.load_b
// CHECK: nvvm.griddepcontrol wait
// CHECK: scf.if
// CHECK-COUNT-4: nvfp4.ring.fill %[[RING]][%{{.*}}] from %arg5[%{{.*}}, %c0_i32] : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>, !nvfp4.tensor_map<1024x64xf16, box = [128, 64], swizzle = swizzle_128b>
// CHECK-NOT: nvfp4.ring.fill
// CHECK: }
// The loop steps two rounds; it carries the accumulator, the next fragments,
// two raw chunks in flight and the ring position.
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c2_i32 iter_args(%[[ACC:.*]] = %{{.*}}, %[[FR:.*]] = %[[F0]], {{.*}}) -> (vector<64xf32>, vector<16xi32>, i64, i64, i8, i8, i64, i64, i8, i8, i32, i32)
// Round 2i.
// CHECK: nvfp4.wgmma.load_b
// CHECK: nvfp4.ring.wait %[[RING]][%[[SLOT:.*]]] phase
// CHECK: %[[ACC1:.*]] = nvfp4.wgmma.mma %[[ACC]], %[[FR]], %[[RING]][%[[SLOT]]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: scf.if
// CHECK: nvfp4.ring.release %[[RING]]
// CHECK: scf.if
// CHECK: nvfp4.ring.acquire %[[RING]][%{{.*}}] phase
// CHECK: nvfp4.ring.fill %[[RING]]
// CHECK: %[[FR1:.*]] = nvfp4.wgmma.decode_b
// Round 2i + 1 issues the fragments decoded during round 2i.
// CHECK: nvfp4.wgmma.load_b
// CHECK: nvfp4.ring.wait
// CHECK: nvfp4.wgmma.mma %[[ACC1]], %[[FR1]], %[[RING]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvfp4.ring.release
// CHECK: nvfp4.ring.acquire
// CHECK: nvfp4.ring.fill
// CHECK: nvfp4.wgmma.decode_b
// CHECK: scf.yield
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// An odd round count leaves one round.
// CHECK: scf.if %{{.*}} -> (vector<64xf32>)
// CHECK: nvfp4.ring.wait
// CHECK: nvfp4.wgmma.mma
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// Ragged M and N: C's tile is not staged.
// CHECK: nvfp4.wgmma.store %{{.*}} outs(%arg4 : memref<200x300xf16>) at m %{{.*}} row %{{.*}} batch %{{[^ ]+}} : vector<64xf32>
// CHECK-NOT: nvfp4.gemm_tile
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @ring_kernel(%a: memref<200x256xf4E2M1FN>, %sfa: memref<200x16xf8E4M3FN>, %b: memref<300x256xf4E2M1FN>, %sfb: memref<300x16xf8E4M3FN>, %c: memref<200x300xf16>, %tiles: !nvfp4.tensor_map<1024x64xf16, box = [128, 64], swizzle = swizzle_128b>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c64 : index
    %m = arith.muli %by, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<200x256xf4E2M1FN>, memref<200x16xf8E4M3FN>) weight(%b, %sfb : memref<300x256xf4E2M1FN>, memref<300x16xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<1024x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<200x300xf16>) at m %m n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 6, b_prefetch = 3>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// Two K groups (k_groups = 2): the ring reserves the groups' scratch, the
// empty barriers wait for one warpgroup, the group's chunks are 2 apart, and
// group 0 stores the sum.
// CHECK-LABEL: gpu.func @k_groups
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1, scratch_bytes = 16384>
// CHECK: scf.for
// CHECK: %[[SUM:.*]] = nvfp4.wgmma.reduce_k_groups %{{.*}} in %[[RING]] groups 2 warpgroups 1
// CHECK: scf.if
// Its f32 tile (17408 bytes) does not fit above the K groups' sums (16384 of
// the ring's 32768 bytes): not staged.
// CHECK: nvfp4.wgmma.store %[[SUM]] outs(%arg4 : memref<64x128xf32>) at m %{{.*}} row %{{.*}} batch %{{[^ ]+}} : vector<32xf32>
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k_groups(%a: memref<64x512xf4E2M1FN>, %sfa: memref<64x32xf8E4M3FN>, %b: memref<128x512xf4E2M1FN>, %sfb: memref<128x32xf8E4M3FN>, %c: memref<64x128xf32>, %tiles: !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel {
    %bx = gpu.block_id x
    %bz = gpu.block_id z
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = arith.muli %bx, %c64 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) weight(%b, %sfb : memref<128x512xf4E2M1FN>, memref<128x32xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x128xf32>) at m %c0 n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, k_groups = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// Split-K: the CTA's chunks start at split x chunks / split_k, and the sums
// go to its split's partial copy of C; after its MMAs the CTA lets the sum
// kernel (its programmatic dependent) be scheduled.
// CHECK-LABEL: gpu.func @split
// CHECK: scf.for
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK: nvfp4.wgmma.store %{{.*}} outs(%arg4 : memref<64x128xbf16>) partials(%arg6 : memref<65536xi8>) at m %{{.*}} row %{{.*}} batch %{{.*}} split %{{.*}} : vector<32xf32>
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @split(%a: memref<64x512xf4E2M1FN>, %sfa: memref<64x32xf8E4M3FN>, %b: memref<128x512xf4E2M1FN>, %sfb: memref<128x32xf8E4M3FN>, %c: memref<64x128xbf16>, %tiles: !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>, %partials: memref<65536xi8>) kernel {
    %bx = gpu.block_id x
    %bz = gpu.block_id z
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = arith.muli %bx, %c64 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) weight(%b, %sfb : memref<128x512xf4E2M1FN>, memref<128x32xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x128xbf16>) partials(%partials : memref<65536xi8>) at m %c0 n %n batch %c0 split %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4>, reduction = #nvfp4.split_k<splits = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// Split-K on chip: the splits of a tile are a cluster (1 x 1 x 2) that adds
// them on chip. The ring's scratch holds the K groups' sums and, above
// them, the other split's part of the tile (128 threads x 16 floats; side
// by side: group 0 may still be loading its sums when the other split
// writes); after
// the K groups'
// reduction group 0 of each split adds its part of the splits' tiles and
// stores it, to C: no partials and no sum kernel to let in early.
// CHECK-LABEL: gpu.func @split_cluster
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1, scratch_bytes = 24576>
// CHECK: scf.for
// CHECK-NOT: griddepcontrol launch_dependents
// CHECK: %[[GROUPS:.*]] = nvfp4.wgmma.reduce_k_groups %{{.*}} in %[[RING]] groups 2 warpgroups 1
// CHECK: scf.if
// Each split adds and stores 32 of the tile's 64 rows of A, from row
// offset rank x 32.
// CHECK-NEXT: %[[OFF:.*]], %[[PART:.*]] = nvfp4.wgmma.reduce_scatter_splits %[[GROUPS]] in %[[RING]] splits 2 warpgroups 1 : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1, scratch_bytes = 24576>, vector<32xf32> -> vector<16xf32>
// The part is staged above the K groups' sums (16384 bytes) and below the
// exchange area (the other split's part, 8192 bytes at the ring's top).
// CHECK-NEXT: nvfp4.wgmma.store %[[PART]] outs(%arg4 : memref<64x128xbf16>) at m %[[OFF]] row %{{.*}} batch %{{[^ ]+}} staged in %[[RING]] at 16384 warpgroups 1 : vector<16xf32>
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @split_cluster(%a: memref<64x512xf4E2M1FN>, %sfa: memref<64x32xf8E4M3FN>, %b: memref<128x512xf4E2M1FN>, %sfb: memref<128x32xf8E4M3FN>, %c: memref<64x128xbf16>, %tiles: !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel attributes {known_cluster_size = array<i32: 1, 1, 2>} {
    %bx = gpu.block_id x
    %bz = gpu.block_id z
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = arith.muli %bx, %c64 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) weight(%b, %sfb : memref<128x512xf4E2M1FN>, memref<128x32xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x128xbf16>) at m %c0 n %n batch %c0 split %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, k_groups = 2>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// The same plan in a kernel whose clusters are not the splits of a tile
// would have its CTAs store into peers that are not its splits: an error,
// not a wrong result.
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @split_cluster_unclustered(%a: memref<64x512xf4E2M1FN>, %sfa: memref<64x32xf8E4M3FN>, %b: memref<128x512xf4E2M1FN>, %sfb: memref<128x32xf8E4M3FN>, %c: memref<64x128xbf16>, %tiles: !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>} {
    %bz = gpu.block_id z
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{has a plan for clusters of 1 x 1 x 2 CTAs, but its kernel's known_cluster_size says otherwise (it must be 1 x 1 x 2)}}
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) weight(%b, %sfb : memref<128x512xf4E2M1FN>, memref<128x32xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x128xbf16>) at m %c0 n %c0 batch %c0 split %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, k_groups = 2>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// And in a kernel that declares no clusters at all.
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @split_cluster_no_clusters(%a: memref<64x512xf4E2M1FN>, %sfa: memref<64x32xf8E4M3FN>, %b: memref<128x512xf4E2M1FN>, %sfb: memref<128x32xf8E4M3FN>, %c: memref<64x128xbf16>, %tiles: !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel {
    %bz = gpu.block_id z
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{has a plan for clusters of 1 x 1 x 2 CTAs, but its kernel's known_cluster_size says otherwise (it must be 1 x 1 x 2)}}
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) weight(%b, %sfb : memref<128x512xf4E2M1FN>, memref<128x32xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x128xbf16>) at m %c0 n %c0 batch %c0 split %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, k_groups = 2>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// No ring (stages = 0): the CTA decodes A itself; left to the conversion.
// CHECK-LABEL: gpu.func @no_ring
// CHECK-NOT: nvfp4.ring
// CHECK: nvfp4.gemm_tile
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @no_ring(%a: memref<40x512xf4E2M1FN>, %sfa: memref<40x32xf8E4M3FN>, %b: memref<128x512xf4E2M1FN>, %sfb: memref<128x32xf8E4M3FN>, %c: memref<40x128xf32>) kernel {
    %c0 = arith.constant 0 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<40x512xf4E2M1FN>, memref<40x32xf8E4M3FN>) weight(%b, %sfb : memref<128x512xf4E2M1FN>, memref<128x32xf8E4M3FN>) outs(%c : memref<40x128xf32>) at m %c0 n %c0 batch %c0 plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 40>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// producer = true: the warpgroup after the consumers (threads 128..255)
// keeps 40 registers and its first thread fills the CTA's 4 chunks in
// order, acquiring a slot before its reuse (chunk c of 1 K group: slot
// c % 2, use c / 2); the consumers take the rest of the registers and
// only wait, compute and release (one consumer warpgroup: the most
// setmaxnreg allows, 256).
// CHECK-LABEL: gpu.func @producer
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[ISPROD:.*]] = arith.cmpi uge, %[[TID]], %c128_i32
// CHECK: scf.if %[[ISPROD]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK: scf.if
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: scf.for %{{.*}} = %c0_i32 to %c4_i32 step %c1_i32 : i32 {
// CHECK: scf.if
// CHECK: nvfp4.ring.acquire %[[RING]]
// CHECK: nvfp4.ring.fill %[[RING]]
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 256
// CHECK-NOT: nvfp4.ring.fill
// CHECK-NOT: nvfp4.ring.acquire
// CHECK: nvfp4.ring.wait
// CHECK: nvfp4.ring.release
// The ring is free after the K loop: C's tile goes through its start,
// once the warpgroup's 128 threads have met named barrier 4 (no warp
// writes its tile over B's bytes another may still be loading).
// CHECK: nvvm.barrier id = %c4_i32 number_of_threads = %c128_i32
// CHECK-NEXT: nvfp4.wgmma.store %{{.*}} outs(%arg4 : memref<64x64xf16>) at m %{{.*}} row %{{.*}} batch %{{.*}} staged in %[[RING]] at 0 warpgroups 1 : vector<32xf32>, !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>
// CHECK: }
// CHECK-NEXT: gpu.return
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @producer(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<64x64xf16>, %tiles: !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel {
    %c0 = arith.constant 0 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) weight(%b, %sfb : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x64xf16>) at m %c0 n %c0 batch %c0 plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 2, producer = true>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// A producer plan in a kernel launched without the producer warpgroup would
// never fill its ring: an error, not a hang.
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @no_producer_threads(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<64x64xf16>, %tiles: !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{has a plan for CTAs of 256 threads, but its kernel's known_block_size says otherwise}}
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) weight(%b, %sfb : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x64xf16>) at m %c0 n %c0 batch %c0 plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 2, producer = true>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// sm_100a has no wgmma: a wgmma plan there is an error (its plans are
// #nvfp4.tcgen05_mainloop, software-pipeline-tcgen05.mlir).
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_100a">] {
  gpu.func @blackwell(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<64x128xf16>, %tiles: !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{whose consumer (wgmma) target sm_100a does not have}}
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x128xf16>) at m %c0 n %c0 batch %c0 plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// Two warpgroups (tile N = 128) on N = 192: the last CTA's second
// warpgroup's rows all lie past N, so the store is guarded by its first row
// (not staged: 2 stages leave no room for both warpgroups' tiles).
// CHECK-LABEL: gpu.func @guarded
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ROW:.*]], %c192_i32
// CHECK: scf.if %[[IN]] {
// CHECK-NEXT: nvfp4.wgmma.store %{{.*}} outs(%arg4 : memref<64x192xf16>) at m %{{.*}} row %[[ROW]]
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @guarded(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<192x256xf4E2M1FN>, %sfb: memref<192x16xf8E4M3FN>, %c: memref<64x192xf16>, %tiles: !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel {
    %bx = gpu.block_id x
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) weight(%b, %sfb : memref<192x256xf4E2M1FN>, memref<192x16xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x192xf16>) at m %c0 n %n batch %c0 plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 64, stages = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// The same with 4 stages, whose ring holds both warpgroups' staged tiles:
// the two warpgroups, which have met no barrier since their K loops (no K
// groups, no split cluster), meet named barrier 4 before either stages its
// tile over the ring, outside the guard so that the warpgroup that stores
// nothing arrives too.
// CHECK-LABEL: gpu.func @guarded_staged
// CHECK: nvvm.barrier id = %c4_i32 number_of_threads = %c256_i32
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[ROW:.*]], %c192_i32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: nvfp4.wgmma.store %{{.*}} outs(%arg4 : memref<64x192xf16>) at m %{{.*}} row %[[ROW]] batch %{{.*}} staged in %{{.*}} at 0 warpgroups 2
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @guarded_staged(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<192x256xf4E2M1FN>, %sfb: memref<192x16xf8E4M3FN>, %c: memref<64x192xf16>, %tiles: !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) kernel {
    %bx = gpu.block_id x
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) weight(%b, %sfb : memref<192x256xf4E2M1FN>, memref<192x16xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x192xf16>) at m %c0 n %n batch %c0 plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 64, stages = 4>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// Outside a gpu.module with a chip there is no consumer to choose.
func.func @no_module(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<64x128xf16>, %tiles: !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{has a ring (stages = 4) and must be inside a gpu.module with an #nvvm.target (the chip picks its consumer); run nvfp4-tile}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<64x128xf16>) at m %c0 n %c0 batch %c0 plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

// A tcgen05 plan's roles are one CTA of 128 threads (producer, MMA and
// epilogue warps): a kernel launched otherwise is an error, not a hang.
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_100a">] {
  gpu.func @tcgen05_threads(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<1x32x32x4x4xf8E4M3FN>, %b: memref<256x2048xf4E2M1FN>, %sfb: memref<2x32x32x4x4xf8E4M3FN>, %c: memref<128x256xf16>, %ma: !nvfp4.tensor_map<1x128x1024xi8, box = [1, 64, 128], swizzle = swizzle_128b>, %mb: !nvfp4.tensor_map<1x256x1024xi8, box = [1, 128, 128], swizzle = swizzle_128b>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{has a #nvfp4.tcgen05_mainloop, whose CTA is 128 x 1 x 1 threads, but its kernel's known_block_size says otherwise}}
    nvfp4.gemm_tile ins(%a, %sfa : memref<128x2048xf4E2M1FN>, memref<1x32x32x4x4xf8E4M3FN>) weight(%b, %sfb : memref<256x2048xf4E2M1FN>, memref<2x32x32x4x4xf8E4M3FN>) a_bytes(%ma : !nvfp4.tensor_map<1x128x1024xi8, box = [1, 64, 128], swizzle = swizzle_128b>) b_bytes(%mb : !nvfp4.tensor_map<1x256x1024xi8, box = [1, 128, 128], swizzle = swizzle_128b>) outs(%c : memref<128x256xf16>) at m %c0 n %c0 batch %c0 plan #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 } {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
    gpu.return
  }
}

// -----

// b_tma: the producer arms each slot and copies B's chunk (at 16384, after
// A's tile) and the 16-byte aligned window of its plain scale codes (at
// 18432) for the first 6 slots before it waits for the pre-pass, then A's
// tiles; later chunks take all three copies after the slot's release. The
// consumer keeps no loads in flight: it reads round 0's B from its slot
// before the loop, and each round reads the next round's (word c % 4 of
// the scale window), waiting for that slot first. All its threads read the
// slots, so each warp releases them (4 consumers a warpgroup), after a
// warp barrier that orders its lanes' reads before lane 0's arrival.
// CHECK-LABEL: gpu.func @b_tma
// CHECK: %[[RING:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 6, slot_bytes = 19456, consumers = 4>
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: scf.if
// CHECK-NOT: nvfp4.ring.copy {{.*}} at 0 from
// CHECK-NOT: nvvm.griddepcontrol
// CHECK: nvfp4.ring.expect %[[RING]][%c0_i32{{.*}}] : !nvfp4.ring
// CHECK: nvfp4.ring.copy %[[RING]][%c0_i32{{.*}}] at 16384
// CHECK-NEXT: nvfp4.ring.copy %[[RING]][%c0_i32{{.*}}] at 18432
// CHECK-COUNT-5: nvfp4.ring.expect
// CHECK-NOT: nvfp4.ring.copy {{.*}} at 0 from
// CHECK: nvvm.griddepcontrol wait
// CHECK-COUNT-6: nvfp4.ring.copy %[[RING]][%{{.*}}] at 0 from %arg5[%{{.*}}, %c0_i32] keep_in_l2
// CHECK: scf.for
// CHECK: nvfp4.ring.acquire
// CHECK: nvfp4.ring.expect
// CHECK: nvfp4.ring.copy %[[RING]][%{{.*}}] at 16384 from %arg6[%{{.*}}, %{{.*}}, %{{.*}}] : {{.*}}, !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>
// CHECK: nvfp4.ring.copy %[[RING]][%{{.*}}] at 18432 from %arg7[%{{.*}}, %{{.*}}, %{{.*}}] : {{.*}}, !nvfp4.tensor_map<1x300x64xi8, box = [1, 64, 16], swizzle = none>
// CHECK: nvfp4.ring.copy %[[RING]][%{{.*}}] at 0 from %arg5
// CHECK: nvvm.setmaxregister increase 256
// CHECK-NOT: nvfp4.wgmma.load_b
// A K group without rounds reads no slot.
// CHECK: %[[ANY:.*]] = arith.cmpi ugt, %[[COUNT:.*]], %c0_i32
// CHECK: scf.if %[[ANY]] -> (vector<16xi32>)
// CHECK: nvfp4.ring.wait %[[RING]]
// CHECK: nvfp4.wgmma.read_b %[[RING]][%{{.*}}] row %{{.*}} atom_row %{{.*}} sfb_chunk %{{.*}} b_offset 16384 sfb_offset 18432
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : vector<16xi32>
// CHECK: scf.for {{.*}} -> (vector<64xf32>, vector<16xi32>, i32, i32)
// Round 2i: its MMAs, each warp's release, round 2i + 1's B (always).
// CHECK-NOT: nvfp4.ring.wait
// CHECK: nvfp4.wgmma.mma
// CHECK: nvvm.bar.warp.sync
// CHECK: nvfp4.ring.release
// CHECK-NOT: scf.if {{.*}} -> (vector<16xi32>)
// CHECK: nvfp4.ring.wait
// CHECK: nvfp4.wgmma.read_b
// CHECK: nvfp4.wgmma.decode_b
// Round 2i + 1: round 2i + 2's B only if there is one.
// CHECK: nvfp4.wgmma.mma
// CHECK: nvfp4.ring.release
// CHECK: %[[NEXT:.*]] = arith.cmpi ult, %{{.*}}, %[[COUNT]]
// CHECK: scf.if %[[NEXT]] -> (vector<16xi32>)
// CHECK: nvfp4.ring.wait
// CHECK: nvfp4.wgmma.read_b
// CHECK: } else {
// CHECK: scf.yield
// CHECK-NOT: nvfp4.wgmma.load_b
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @b_tma(%a: memref<200x1024xf4E2M1FN>, %sfa: memref<200x64xf8E4M3FN>, %b: memref<300x1024xf4E2M1FN>, %sfb: memref<300x64xf8E4M3FN>, %c: memref<200x300xf16>, %tiles: !nvfp4.tensor_map<4096x64xf16, box = [128, 64], swizzle = swizzle_128b>, %bmap: !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>, %sfbmap: !nvfp4.tensor_map<1x300x64xi8, box = [1, 64, 16], swizzle = none>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c64 : index
    %m = arith.muli %by, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<200x1024xf4E2M1FN>, memref<200x64xf8E4M3FN>) weight(%b, %sfb : memref<300x1024xf4E2M1FN>, memref<300x64xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<4096x64xf16, box = [128, 64], swizzle = swizzle_128b>) b_bytes(%bmap : !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>) b_scales(%sfbmap : !nvfp4.tensor_map<1x300x64xi8, box = [1, 64, 16], swizzle = none>) outs(%c : memref<200x300xf16>) at m %m n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 6, producer = true, b_tma = true>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// b_tma with two K chunks a slot (slot_chunks = 2): a slot of two 19456-byte
// chunk regions under one full barrier, which expects all but the second
// region's scale room (plain scales: the first chunk's 16-byte window holds
// both chunks' codes, copied once); each round reads both chunks' B (the
// second's codes from the first's window), issues both chunks' MMAs (the
// second on the tile of A at 19456) and waits until only those two groups
// are in flight.
// CHECK-LABEL: gpu.func @b_tma_two_chunks
// CHECK: nvfp4.ring.alloc : !nvfp4.ring<stages = 3, slot_bytes = 38912, consumers = 4>
// CHECK: nvfp4.ring.expect %{{.*}}[%c0_i32] bytes 37888
// CHECK-NEXT: nvfp4.ring.copy %{{.*}}[%c0_i32] at 16384 from %arg6[%{{.*}}, %{{.*}}, %c0_i32]
// CHECK-NEXT: nvfp4.ring.copy %{{.*}}[%c0_i32] at 18432 from %arg7
// CHECK-NEXT: nvfp4.ring.copy %{{.*}}[%c0_i32] at 35840 from %arg6[%{{.*}}, %{{.*}}, %c32_i32]
// CHECK: nvvm.griddepcontrol wait
// CHECK: nvfp4.ring.copy %{{.*}}[%c0_i32] at 0 from %arg5
// CHECK: nvfp4.ring.copy %{{.*}}[%c0_i32] at 19456 from %arg5
// CHECK: nvfp4.wgmma.read_b {{.*}} sfb_chunk %c0_i32 b_offset 16384 sfb_offset 18432
// CHECK-NEXT: nvfp4.wgmma.read_b {{.*}} sfb_chunk %c1_i32 b_offset 35840 sfb_offset 18432
// CHECK: scf.for {{.*}} -> (vector<64xf32>, vector<16xi32>, vector<16xi32>, i32, i32)
// CHECK: %[[FIRST:.*]] = nvfp4.wgmma.mma %{{.*}}, %{{.*}}, %{{.*}}[%[[SLOT:.*]]] :
// CHECK-NEXT: nvfp4.wgmma.mma %[[FIRST]], %{{.*}}, %{{.*}}[%[[SLOT]]] {a_offset = 19456 : i64}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 2
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @b_tma_two_chunks(%a: memref<200x1024xf4E2M1FN>, %sfa: memref<200x64xf8E4M3FN>, %b: memref<300x1024xf4E2M1FN>, %sfb: memref<300x64xf8E4M3FN>, %c: memref<200x300xf16>, %tiles: !nvfp4.tensor_map<4096x64xf16, box = [128, 64], swizzle = swizzle_128b>, %bmap: !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>, %sfbmap: !nvfp4.tensor_map<1x300x64xi8, box = [1, 64, 16], swizzle = none>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c64 : index
    %m = arith.muli %by, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<200x1024xf4E2M1FN>, memref<200x64xf8E4M3FN>) weight(%b, %sfb : memref<300x1024xf4E2M1FN>, memref<300x64xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<4096x64xf16, box = [128, 64], swizzle = swizzle_128b>) b_bytes(%bmap : !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>) b_scales(%sfbmap : !nvfp4.tensor_map<1x300x64xi8, box = [1, 64, 16], swizzle = none>) outs(%c : memref<200x300xf16>) at m %m n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 3, producer = true, b_tma = true, slot_chunks = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// Four K chunks a slot (slot_chunks = 4, MoE decode's): four chunk regions
// of 19456 bytes under one full barrier, which expects all but the three
// later regions' scale room (plain scales: the first chunk's 16-byte window
// holds the four chunks' codes, copied once, the next slot's from column
// 16); each round reads four chunks' B from that window, issues four MMAs
// (on the tiles of A at 0, 19456, 38912 and 58368) and waits until only
// those four groups are in flight.
// CHECK-LABEL: gpu.func @b_tma_four_chunks
// CHECK: nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 77824, consumers = 4>
// CHECK: nvfp4.ring.expect %{{.*}}[%c0_i32{{.*}}] bytes 74752
// CHECK-NEXT: nvfp4.ring.copy %{{.*}} at 16384 from %arg6[%{{.*}}, %{{.*}}, %c0_i32{{.*}}]
// CHECK-NEXT: nvfp4.ring.copy %{{.*}} at 18432 from %arg7[%{{.*}}, %{{.*}}, %c0_i32{{.*}}]
// CHECK-NEXT: nvfp4.ring.copy %{{.*}} at 35840 from %arg6
// CHECK-NEXT: nvfp4.ring.copy %{{.*}} at 55296 from %arg6
// CHECK-NEXT: nvfp4.ring.copy %{{.*}} at 74752 from %arg6
// CHECK: nvfp4.ring.copy %{{.*}} at 18432 from %arg7[%{{.*}}, %{{.*}}, %c16_i32{{.*}}]
// CHECK: nvvm.griddepcontrol wait
// CHECK: nvfp4.wgmma.read_b {{.*}} sfb_chunk %c0_i32{{.*}} b_offset 16384 sfb_offset 18432
// CHECK-NEXT: nvfp4.wgmma.read_b {{.*}} sfb_chunk %c1_i32{{.*}} b_offset 35840 sfb_offset 18432
// CHECK-NEXT: nvfp4.wgmma.read_b {{.*}} sfb_chunk %c2_i32{{.*}} b_offset 55296 sfb_offset 18432
// CHECK-NEXT: nvfp4.wgmma.read_b {{.*}} sfb_chunk %c3_i32{{.*}} b_offset 74752 sfb_offset 18432
// CHECK: %[[M1:.*]] = nvfp4.wgmma.mma %{{.*}}, %{{.*}}, %{{.*}}[%[[SLOT4:.*]]] :
// CHECK-NEXT: %[[M2:.*]] = nvfp4.wgmma.mma %[[M1]], %{{.*}}, %{{.*}}[%[[SLOT4]]] {a_offset = 19456 : i64}
// CHECK-NEXT: %[[M3:.*]] = nvfp4.wgmma.mma %[[M2]], %{{.*}}, %{{.*}}[%[[SLOT4]]] {a_offset = 38912 : i64}
// CHECK-NEXT: nvfp4.wgmma.mma %[[M3]], %{{.*}}, %{{.*}}[%[[SLOT4]]] {a_offset = 58368 : i64}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 4
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @b_tma_four_chunks(%a: memref<200x1024xf4E2M1FN>, %sfa: memref<200x64xf8E4M3FN>, %b: memref<300x1024xf4E2M1FN>, %sfb: memref<300x64xf8E4M3FN>, %c: memref<200x300xf16>, %tiles: !nvfp4.tensor_map<4096x64xf16, box = [128, 64], swizzle = swizzle_128b>, %bmap: !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>, %sfbmap: !nvfp4.tensor_map<1x300x64xi8, box = [1, 64, 16], swizzle = none>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c64 : index
    %m = arith.muli %by, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<200x1024xf4E2M1FN>, memref<200x64xf8E4M3FN>) weight(%b, %sfb : memref<300x1024xf4E2M1FN>, memref<300x64xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<4096x64xf16, box = [128, 64], swizzle = swizzle_128b>) b_bytes(%bmap : !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>) b_scales(%sfbmap : !nvfp4.tensor_map<1x300x64xi8, box = [1, 64, 16], swizzle = none>) outs(%c : memref<200x300xf16>) at m %m n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 2, producer = true, b_tma = true, slot_chunks = 4>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
    gpu.return
  }
}

// -----

// Two K chunks a slot need an even number of chunks (a user's plan: the
// planner never writes one that does not fit).
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @b_tma_two_chunks_odd(%a: memref<200x1088xf4E2M1FN>, %sfa: memref<200x68xf8E4M3FN>, %b: memref<300x1088xf4E2M1FN>, %sfb: memref<3x17x32x4x4xf8E4M3FN>, %c: memref<200x300xf16>, %tiles: !nvfp4.tensor_map<4352x64xf16, box = [128, 64], swizzle = swizzle_128b>, %bmap: !nvfp4.tensor_map<1x300x544xi8, box = [1, 64, 32], swizzle = none>, %sfbmap: !nvfp4.tensor_map<51x128xi32, box = [1, 128], swizzle = none>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c64 : index
    %m = arith.muli %by, %c128 : index
    // expected-error @+1 {{has a plan of 2 K chunks a ring slot, but its CTAs' share of K has 17 chunks of 64}}
    nvfp4.gemm_tile ins(%a, %sfa : memref<200x1088xf4E2M1FN>, memref<200x68xf8E4M3FN>) weight(%b, %sfb : memref<300x1088xf4E2M1FN>, memref<3x17x32x4x4xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<4352x64xf16, box = [128, 64], swizzle = swizzle_128b>) b_bytes(%bmap : !nvfp4.tensor_map<1x300x544xi8, box = [1, 64, 32], swizzle = none>) b_scales(%sfbmap : !nvfp4.tensor_map<51x128xi32, box = [1, 128], swizzle = none>) outs(%c : memref<200x300xf16>) at m %m n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 3, producer = true, b_tma = true, slot_chunks = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 } {sfb_layout = #nvfp4.scale_layout<blocked>}
    gpu.return
  }
}

// -----

// b_tma with blocked scales of B: the chunk's 512-byte atom, one row of a
// map of the atoms (its row block's atoms are K / 64 rows apart), and the
// slot's full barrier expects the 18944 bytes the copies bring, not the
// whole slot.
// CHECK-LABEL: gpu.func @b_tma_blocked
// CHECK: nvfp4.ring.expect %{{.*}}[%{{.*}}] bytes 18944
// CHECK: nvfp4.ring.copy %{{.*}}[%{{.*}}] at 18432 from %arg7[%{{.*}}, %c0_i32] : {{.*}}, !nvfp4.tensor_map<48x128xi32, box = [1, 128], swizzle = none>
// CHECK: nvfp4.wgmma.read_b {{.*}} {sfb_layout = #nvfp4.scale_layout<blocked>}
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @b_tma_blocked(%a: memref<200x1024xf4E2M1FN>, %sfa: memref<200x64xf8E4M3FN>, %b: memref<300x1024xf4E2M1FN>, %sfb: memref<3x16x32x4x4xf8E4M3FN>, %c: memref<200x300xf16>, %tiles: !nvfp4.tensor_map<4096x64xf16, box = [128, 64], swizzle = swizzle_128b>, %bmap: !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>, %sfbmap: !nvfp4.tensor_map<48x128xi32, box = [1, 128], swizzle = none>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c64 : index
    %m = arith.muli %by, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<200x1024xf4E2M1FN>, memref<200x64xf8E4M3FN>) weight(%b, %sfb : memref<300x1024xf4E2M1FN>, memref<3x16x32x4x4xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<4096x64xf16, box = [128, 64], swizzle = swizzle_128b>) b_bytes(%bmap : !nvfp4.tensor_map<1x300x512xi8, box = [1, 64, 32], swizzle = none>) b_scales(%sfbmap : !nvfp4.tensor_map<48x128xi32, box = [1, 128], swizzle = none>) outs(%c : memref<200x300xf16>) at m %m n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 6, producer = true, b_tma = true>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 } {sfb_layout = #nvfp4.scale_layout<blocked>}
    gpu.return
  }
}

// -----

// The tile's epilogue applies to whole accumulator fragments after the
// reductions (here the K groups'), just before the store: x / (1 + x^2),
// each op on vector<64xf32>.
// CHECK-LABEL: gpu.func @epilogue_kernel
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<64xf32>
// CHECK: nvfp4.wgmma.reduce_k_groups
// CHECK: %[[SQ:.*]] = arith.mulf %[[ACC:.*]], %[[ACC]] : vector<64xf32>
// CHECK: %[[DEN:.*]] = arith.addf %[[SQ]], %[[ONE]] : vector<64xf32>
// CHECK: %[[Y:.*]] = arith.divf %[[ACC]], %[[DEN]] : vector<64xf32>
// CHECK: nvfp4.wgmma.store %[[Y]] outs(%arg4 : memref<256x256xf16>)
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @epilogue_kernel(%a: memref<256x512xf4E2M1FN>, %sfa: memref<256x32xf8E4M3FN>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<256x32xf8E4M3FN>, %c: memref<256x256xf16>, %tiles: !nvfp4.tensor_map<2048x64xf16, box = [128, 64], swizzle = swizzle_128b>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n = arith.muli %bx, %c64 : index
    %m = arith.muli %by, %c128 : index
    nvfp4.gemm_tile ins(%a, %sfa : memref<256x512xf4E2M1FN>, memref<256x32xf8E4M3FN>) weight(%b, %sfb : memref<256x512xf4E2M1FN>, memref<256x32xf8E4M3FN>) a_tiles(%tiles : !nvfp4.tensor_map<2048x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<256x256xf16>) at m %m n %n batch %bz plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4, k_groups = 2>> epilogue {
    ^bb0(%acc: f32):
      %one = arith.constant 1.0 : f32
      %sq = arith.mulf %acc, %acc : f32
      %den = arith.addf %sq, %one : f32
      %y = arith.divf %acc, %den : f32
      nvfp4.yield %y : f32
    }
    gpu.return
  }
}
