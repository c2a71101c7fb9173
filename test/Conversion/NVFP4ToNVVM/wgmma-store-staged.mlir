// nvfp4.wgmma.store `staged`: a warpgroup's tile of C through the ring's
// shared memory, so that C is written in whole 128-byte lines; the
// fragment's own 2-byte stores remain for a C whose base is not 16-byte
// aligned.
// RUN: nvfp4-opt %s -convert-nvfp4-to-nvvm | FileCheck %s

// CHECK-LABEL: gpu.func @staged
// C's base plus `row` elements 16-byte aligned?
// CHECK: %[[COL:.*]] = arith.muli %arg3, %c2_i32
// CHECK: %[[COL64:.*]] = arith.extui %[[COL]] : i32 to i64
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[COL64]]
// CHECK: %[[LOW:.*]] = arith.andi %[[ADDR]], %c15_i64
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %c0_i64
// CHECK: scf.if %[[ALIGNED]] {
// The warpgroup's tile at 4096 + (tid / 128 mod 2) x 18432 (2 x 64 rows
// of 64 x 2 + 16 bytes): accumulator 0 at row 2q, column 16w + g.
// CHECK: %[[SH:.*]] = arith.shrui %{{.*}}, %c7_i32
// CHECK: %[[WG:.*]] = arith.remui %[[SH]], %c2_i32
// CHECK: arith.muli %[[WG]], %c18432_i32
// CHECK: arith.addi %c4096_i32, %{{.*}}
// CHECK: arith.muli %{{.*}}, %c144_i32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK-COUNT-63: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
// Named barrier 2 + warpgroup, the warpgroup's 128 threads.
// CHECK: %[[BAR:.*]] = arith.addi %[[WG]], %c2_i32
// CHECK: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// Then 16 rows of 8 x 16 bytes per pass: 8 passes for 128 rows.
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: } else {
// CHECK-NOT: vector<4xi32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
// CHECK: }

// The 8 global stores of the staged branch, each 16 bytes of a row of C
// (row stride 7168 x 2 bytes), 16 rows a pass; whole tiles inside C: no
// row compared.
// CHECK-LABEL: gpu.func @staged_stores
// CHECK: arith.muli %{{.*}}, %c14336_i64
// CHECK-NOT: arith.cmpi ult
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT: {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: } else {

// f32: rows of 64 x 4 + 16 bytes, 16 threads a row, 8 rows a pass: 8 passes
// for a tile of 64 rows (one warpgroup: its tile at the offset).
// CHECK-LABEL: gpu.func @staged_f32
// CHECK-NOT: arith.remui
// CHECK: arith.muli %{{.*}}, %c272_i32
// CHECK-NOT: arith.truncf
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT: {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: } else {

// A tile that reaches past M (C of 100 rows, tiles of 64): each of the 4
// passes' 16-byte stores only for a row before M (M - m of them, at least
// 0), one compare a store.
// CHECK-LABEL: gpu.func @staged_past_m
// CHECK: nvvm.barrier
// CHECK: %[[END:.*]] = arith.maxui %c100_i32, %arg2
// CHECK: %[[LEFT:.*]] = arith.subi %[[END]], %arg2
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %{{.*}}, %[[LEFT]]
// CHECK-NEXT: scf.if %[[IN0]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: arith.cmpi ult, %{{.*}}, %[[LEFT]]
// CHECK: arith.cmpi ult, %{{.*}}, %[[LEFT]]
// CHECK: %[[IN3:.*]] = arith.cmpi ult, %{{.*}}, %[[LEFT]]
// CHECK-NEXT: scf.if %[[IN3]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT: vector<4xi32>, !llvm.ptr<1>
// CHECK: } else {

// A grouped GEMM's tile, which ends at a run-time row (`to`, clamped to
// M): the same guard from min(end, M).
// CHECK-LABEL: gpu.func @staged_ends_at
// CHECK: nvvm.barrier
// CHECK: %[[CLAMP:.*]] = arith.minui %arg3, %c512_i32
// CHECK: %[[END:.*]] = arith.maxui %[[CLAMP]], %arg2
// CHECK: %[[LEFT:.*]] = arith.subi %[[END]], %arg2
// CHECK-COUNT-4: arith.cmpi ult, %{{.*}}, %[[LEFT]]
// CHECK: } else {

// A tile of 72 rows in f16: 4 whole passes of 16 rows, then a fifth whose
// rows 72 .. 79 do not exist: guarded.
// CHECK-LABEL: gpu.func @staged_partial_pass
// CHECK: nvvm.barrier
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: %[[LAST:.*]] = arith.addi %{{.*}}, %c64_i32
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[LAST]], %c72_i32
// CHECK: scf.if %[[IN]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT: {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: } else {
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @staged(%acc: vector<64xf32>, %c: memref<128x7168xf16>, %m: i32, %row: i32, %l: index) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    nvfp4.wgmma.store %acc outs(%c : memref<128x7168xf16>) at m %m row %row batch %l staged in %ring at 4096 warpgroups 2 : vector<64xf32>, !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    gpu.return
  }
  gpu.func @staged_stores(%acc: vector<64xf32>, %c: memref<128x7168xf16>, %m: i32, %row: i32, %l: index) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    nvfp4.wgmma.store %acc outs(%c : memref<128x7168xf16>) at m %m row %row batch %l staged in %ring at 0 warpgroups 1 : vector<64xf32>, !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    gpu.return
  }
  gpu.func @staged_f32(%acc: vector<32xf32>, %c: memref<64x256xf32>, %m: i32, %row: i32, %l: index) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    nvfp4.wgmma.store %acc outs(%c : memref<64x256xf32>) at m %m row %row batch %l staged in %ring at 16 warpgroups 1 : vector<32xf32>, !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    gpu.return
  }
  gpu.func @staged_past_m(%acc: vector<32xf32>, %c: memref<100x2048xf16>, %m: i32, %row: i32, %l: index) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    nvfp4.wgmma.store %acc outs(%c : memref<100x2048xf16>) at m %m row %row batch %l staged in %ring at 0 warpgroups 1 : vector<32xf32>, !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    gpu.return
  }
  gpu.func @staged_ends_at(%acc: vector<32xf32>, %c: memref<512x4096xf16>, %m: i32, %end: i32, %row: i32, %l: index) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    nvfp4.wgmma.store %acc outs(%c : memref<512x4096xf16>) at m %m to %end row %row batch %l staged in %ring at 0 warpgroups 1 : vector<32xf32>, !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    gpu.return
  }
  gpu.func @staged_partial_pass(%acc: vector<36xf32>, %c: memref<72x2048xf16>, %m: i32, %row: i32, %l: index) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    nvfp4.wgmma.store %acc outs(%c : memref<72x2048xf16>) at m %m row %row batch %l staged in %ring at 0 warpgroups 1 : vector<36xf32>, !nvfp4.ring<stages = 8, slot_bytes = 19456, consumers = 4>
    gpu.return
  }
}
