// The sm_90a consumer ops of nvfp4-software-pipeline: a thread's raw chunk of
// B, its dequantization into register A fragments, the chunk's 4 register-A
// wgmmas on a ring slot, the K groups' reduction, the weights' warpgroups'
// swap of halves and the store.
// RUN: nvfp4-opt %s -split-input-file -convert-nvfp4-to-nvvm -canonicalize -cse | FileCheck %s

// CHECK-LABEL: gpu.func @wgmma
// load_b: 8 bytes and one scale byte of each of the thread's two rows.
// CHECK: llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK: llvm.load %{{.*}} invariant {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// CHECK: llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK: llvm.load %{{.*}} invariant {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// decode_b: shifts and masks make the f16 bytes, byte permutes place them
// (4 words, 4 prmt each).
// CHECK-COUNT-16: nvvm.prmt
// CHECK-NOT: nvvm.prmt
// mma: fence, 4 x m64n64k16 (32 accumulators: N = 64) on the slot, commit.
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// reduce_k_groups: group 1 stores its 32 sums to the ring, group 0 adds them,
// between named barriers of the two groups' 256 threads (a producer warp
// would not take part).
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: scf.if
// CHECK-COUNT-32: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK-COUNT-32: arith.addf
// store: N = 256 is a multiple of 64 and M = 64 one whole tile: 32 f16
// stores without masks.
// CHECK-NOT: scf.if
// CHECK-COUNT-32: llvm.store %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
// CHECK-NOT: nvfp4.
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @wgmma(%b: memref<256x512xf4E2M1FN>, %sfb: memref<256x32xf8E4M3FN>, %c: memref<64x256xf16>, %row: i32, %chunk: i32, %m: i32, %l: index) kernel {
    %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1, scratch_bytes = 16384>
    %b0, %b1, %s0, %s1 = nvfp4.wgmma.load_b ins(%b, %sfb : memref<256x512xf4E2M1FN>, memref<256x32xf8E4M3FN>) row %row chunk %chunk batch %l
    %f = nvfp4.wgmma.decode_b %b0, %b1, %s0, %s1
    %zero = arith.constant dense<0.0> : vector<32xf32>
    %acc = nvfp4.wgmma.mma %zero, %f, %r[%chunk] : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1, scratch_bytes = 16384>, vector<32xf32>
    nvvm.wgmma.wait.group.sync.aligned 0
    %sum = nvfp4.wgmma.reduce_k_groups %acc in %r groups 2 warpgroups 1 : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1, scratch_bytes = 16384>, vector<32xf32>
    nvfp4.wgmma.store %sum outs(%c : memref<64x256xf16>) at m %m row %row batch %l : vector<32xf32>
    gpu.return
  }
}

// -----

// reduce_splits (split-K on chip, a cluster of 3 splits): a first cluster
// barrier phase, then CTA 0 (`first`) arrives (relaxed), waits and adds 2 x 8
// 16-byte loads of its ring to its 32 sums, in rank order, and stores C
// (the canonicalizer merges the store's scf.if on `first` into the
// exchange's); CTAs 1 and 2 store their sums into CTA 0's ring (mapa to
// rank 0, 8 16-byte shared::cluster stores) and arrive without waiting.
// The exchange's 2 x 16 KiB are the top of the ring's 64 KiB of data.
// RUN: nvfp4-opt %s -split-input-file -convert-nvfp4-to-nvvm -canonicalize -cse | FileCheck %s --check-prefix=SPLITS
// SPLITS-LABEL: gpu.func @reduce_splits
// SPLITS: %[[BASE:.*]] = arith.andi %{{.*}}, %c-1024_i32 : i32
// SPLITS: %[[AREA:.*]] = arith.addi %[[BASE]], %c32768_i32 : i32
// SPLITS-NEXT: nvvm.cluster.arrive.relaxed{{$}}
// SPLITS-NEXT: nvvm.cluster.wait
// SPLITS-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// SPLITS-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32
// SPLITS-NEXT: scf.if %[[FIRST]] {
// SPLITS-NEXT: nvvm.cluster.arrive.relaxed{{$}}
// SPLITS-NEXT: nvvm.cluster.wait
// SPLITS: %[[GET:.*]] = arith.addi %[[AREA]], %{{.*}} : i32
// SPLITS-NEXT: %[[GETP:.*]] = llvm.inttoptr %[[GET]] : i32 to !llvm.ptr<3>
// SPLITS-NEXT: llvm.load %[[GETP]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// SPLITS-COUNT-15: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// SPLITS-NOT: llvm.load
// SPLITS-COUNT-32: llvm.store %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
// SPLITS: } else {
// SPLITS: %[[AREAP:.*]] = llvm.inttoptr %[[AREA]] : i32 to !llvm.ptr<3>
// SPLITS-NEXT: nvvm.mapa %[[AREAP]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// SPLITS-COUNT-8: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<7>
// SPLITS-NEXT: nvvm.cluster.arrive{{$}}
// SPLITS-NEXT: }
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @reduce_splits(%acc: vector<32xf32>, %c: memref<64x256xf16>, %row: i32, %m: i32, %l: index) kernel attributes {known_cluster_size = array<i32: 1, 1, 3>} {
    %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 16384, consumers = 1, scratch_bytes = 32768>
    %first, %sum = nvfp4.wgmma.reduce_splits %acc in %r splits 3 warpgroups 1 : !nvfp4.ring<stages = 4, slot_bytes = 16384, consumers = 1, scratch_bytes = 32768>, vector<32xf32>
    scf.if %first {
      nvfp4.wgmma.store %sum outs(%c : memref<64x256xf16>) at m %m row %row batch %l : vector<32xf32>
    }
    gpu.return
  }
}

// -----

// swap_halves (split_weights): between named barriers of the two
// warpgroups' 256 threads, each stores the half of its 32 sums it hands
// over (warpgroup 0 its second, warpgroup 1 its first: 16 selects) and
// loads the other's 16.
// RUN: nvfp4-opt %s -split-input-file -convert-nvfp4-to-nvvm -canonicalize -cse | FileCheck %s --check-prefix=SWAP
// Warpgroup w = tid / 128 hands over float i of thread t = tid % 128 at
// ((w x 16 + i) x 128 + t) x 4: the first its upper half (element 16 + i),
// the second its lower (element i); each then reads the other's (w ^ 1).
// SWAP-LABEL: gpu.func @swap_halves
// SWAP: %[[E0:.*]] = vector.extract %arg0[0] : f32
// SWAP: %[[E16:.*]] = vector.extract %arg0[16] : f32
// SWAP: %[[W:.*]] = arith.shrui %[[TID:.*]], %c7_i32
// SWAP-NEXT: %[[T:.*]] = arith.andi %[[TID]], %c127_i32
// SWAP-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[W]], %c0_i32
// SWAP-NEXT: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// SWAP-NEXT: %[[G:.*]] = arith.muli %[[W]], %c2048_i32
// SWAP-NEXT: %[[I:.*]] = arith.addi %[[G]], %[[T]]
// SWAP-NEXT: %[[B:.*]] = arith.muli %[[I]], %c4_i32
// SWAP-NEXT: %[[A:.*]] = arith.addi %[[RING:.*]], %[[B]]
// SWAP-NEXT: %[[P:.*]] = llvm.inttoptr %[[A]]
// SWAP-NEXT: %[[V:.*]] = arith.select %[[FIRST]], %[[E16]], %[[E0]] : f32
// SWAP-NEXT: llvm.store %[[V]], %[[P]]
// SWAP-COUNT-15: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// SWAP: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// SWAP-NEXT: %[[O:.*]] = arith.xori %[[W]], %c1_i32
// SWAP-NEXT: %[[OG:.*]] = arith.muli %[[O]], %c2048_i32
// SWAP-NEXT: %[[OI:.*]] = arith.addi %[[OG]], %[[T]]
// SWAP-NEXT: %[[OB:.*]] = arith.muli %[[OI]], %c4_i32
// SWAP-NEXT: %[[OA:.*]] = arith.addi %[[RING]], %[[OB]]
// SWAP-NEXT: %[[OP:.*]] = llvm.inttoptr %[[OA]]
// SWAP-NEXT: llvm.load %[[OP]]
// SWAP-COUNT-15: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// SWAP-NOT: nvfp4.
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @swap_halves(%acc: vector<32xf32>, %out: memref<16xf32>) kernel {
    %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 2>
    %theirs = nvfp4.wgmma.swap_halves %acc in %r : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 2>, vector<32xf32> -> vector<16xf32>
    %c0 = arith.constant 0 : index
    vector.store %theirs, %out[%c0] : memref<16xf32>, vector<16xf32>
    gpu.return
  }
}

// -----

// A ragged N (100) masks every row; a ragged M (40 of a 64-wide tile) masks
// the columns.
// RUN: nvfp4-opt %s -split-input-file -convert-nvfp4-to-nvvm -canonicalize -cse | FileCheck %s --check-prefix=RAGGED
// RAGGED-LABEL: gpu.func @ragged
// RAGGED-COUNT-32: scf.if
// RAGGED-NOT: scf.if
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @ragged(%c: memref<40x100xf32>, %acc: vector<32xf32>, %row: i32, %m: i32, %l: index) kernel {
    nvfp4.wgmma.store %acc outs(%c : memref<40x100xf32>) at m %m row %row batch %l : vector<32xf32>
    gpu.return
  }
}

