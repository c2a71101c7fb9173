// nvfp4.wgmma.read_b (b_tma plans): a thread's two rows of B's chunk and
// their scale codes from a ring slot in shared memory, and the full
// barrier of a slot its copies fill only in part (ring.expect's `bytes`).
// RUN: nvfp4-opt %s -convert-nvfp4-to-nvvm | FileCheck %s

// CHECK-LABEL: gpu.func @read_b
// ring.expect arms full[slot] (38912 + 8 slot) for 18944 bytes.
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c18944_i32{{(_[0-9]+)?}}
// The thread's quad lane q = t % 4.
// CHECK: %[[Q:.*]] = arith.andi %{{.*}}, %c3_i32
// Plain scales: thread (w, g, q) reads row r = row + 16w + g at slot +
// 16384 + 32 r + 8 q (8 bytes), and its code at slot + 18432 + 16 r +
// 4 sfb_chunk + q; then row r + 8 the same way.
// CHECK: %[[SLOT:.*]] = arith.muli %arg0, %c19456_i32{{(_[0-9]+)?}}
// CHECK: %[[BASE:.*]] = arith.addi %{{.*}}, %[[SLOT]]
// CHECK: %[[B:.*]] = arith.addi %[[BASE]], %c16384_i32{{(_[0-9]+)?}}
// CHECK: %[[SF:.*]] = arith.addi %[[BASE]], %c18432_i32{{(_[0-9]+)?}}
// CHECK: %[[R0:.*]] = arith.addi %{{.*}}, %c0_i32{{(_[0-9]+)?}}
// CHECK: arith.muli %[[R0]], %c32_i32{{(_[0-9]+)?}}
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> i64
// CHECK: %[[RS:.*]] = arith.muli %[[R0]], %c16_i32{{(_[0-9]+)?}}
// CHECK: %[[W:.*]] = arith.muli %arg3, %c4_i32{{(_[0-9]+)?}}
// CHECK: %[[AT:.*]] = arith.addi %[[RS]], %[[W]]
// CHECK: arith.addi %[[AT]], %[[Q]]
// CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i64
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// Blocked scales: row i = atom_row + r of the 128 x 4 atom at
// (i % 32) x 16 + (i / 32) x 4 + q.
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i64
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %arg2
// CHECK-DAG: %[[LO:.*]] = arith.andi %[[I]], %c31_i32{{(_[0-9]+)?}}
// CHECK-DAG: arith.muli %[[LO]], %c16_i32{{(_[0-9]+)?}}
// CHECK-DAG: %[[HI:.*]] = arith.shrui %[[I]], %c5_i32{{(_[0-9]+)?}}
// CHECK-DAG: arith.muli %[[HI]], %c4_i32{{(_[0-9]+)?}}
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// MXFP4: a block is 32 values, so thread q reads code q / 2 of the
// chunk's 2 from byte 2 sfb_chunk.
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i64
// CHECK: %[[W2:.*]] = arith.muli %arg3, %c2_i32{{(_[0-9]+)?}}
// CHECK: %[[MXAT:.*]] = arith.addi %{{.*}}, %[[W2]]
// CHECK: %[[HALF:.*]] = arith.shrui %{{.*}}, %c1_i32
// CHECK: arith.addi %[[MXAT]], %[[HALF]]
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  gpu.func @read_b(%slot: i32, %row: i32, %arow: i32, %word: i32) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 19456, consumers = 1>
    nvfp4.ring.expect %ring[%slot] bytes 18944 : !nvfp4.ring<stages = 2, slot_bytes = 19456, consumers = 1>
    %b0, %b1, %s0, %s1 = nvfp4.wgmma.read_b %ring[%slot] row %row atom_row %arow sfb_chunk %word b_offset 16384 sfb_offset 18432 : !nvfp4.ring<stages = 2, slot_bytes = 19456, consumers = 1>
    %c0, %c1, %t0, %t1 = nvfp4.wgmma.read_b %ring[%slot] row %row atom_row %arow sfb_chunk %word b_offset 16384 sfb_offset 18432 {sfb_layout = #nvfp4.scale_layout<blocked>} : !nvfp4.ring<stages = 2, slot_bytes = 19456, consumers = 1>
    %d0, %d1, %u0, %u1 = nvfp4.wgmma.read_b %ring[%slot] row %row atom_row %arow sfb_chunk %word b_offset 16384 sfb_offset 18432 {format = #nvfp4.scale_format<mxfp4>} : !nvfp4.ring<stages = 2, slot_bytes = 19456, consumers = 1>
    gpu.return
  }
}
