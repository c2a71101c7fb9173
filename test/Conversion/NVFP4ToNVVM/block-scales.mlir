// nvfp4.block_scales_tile: each thread writes 4 words of the blocked scales
// (strided by the 256 threads, so a warp's stores are contiguous), each
// bounds-checked against the destination's words. Word w is atom w / 128
// (batch, block of 128 rows, chunk of 4 columns: chunk-minor) and row
// 32 * (w % 4) + (w % 128) / 4 of the block; it is loaded from the source
// only where the source has it (plain: chunk < K / 64 and row < rows;
// blocked: chunk < its chunks), else zero.
// RUN: nvfp4-opt %s -split-input-file -convert-nvfp4-to-nvvm | FileCheck %s

// Plain [2, 200, 40] scales (K = 640: 10 chunks) into 2 batches x 2 blocks
// x 12 chunks: 6144 words.
// CHECK-LABEL: gpu.func @plain
// CHECK-NOT: nvfp4.block_scales_tile
// CHECK: gpu.thread_id x
// CHECK: arith.cmpi ult, %[[W:.*]], %c6144_i64
// CHECK: scf.if
// CHECK: %[[ATOM:.*]] = arith.divui %[[W]], %c128_i64
// CHECK: %[[WORD:.*]] = arith.remui %[[W]], %c128_i64
// CHECK: %[[CHUNK:.*]] = arith.remui %[[ATOM]], %c12_i64
// CHECK: arith.divui %[[ATOM]], %c12_i64
// CHECK: arith.divui %[[ATOM]], %c24_i64
// CHECK: %[[Q:.*]] = arith.remui %[[WORD]], %c4_i64
// CHECK: %[[LANE:.*]] = arith.divui %[[WORD]], %c4_i64
// CHECK: %[[Q32:.*]] = arith.muli %[[Q]], %c32_i64
// CHECK: arith.addi %[[Q32]], %[[LANE]]
// CHECK: arith.cmpi ult, %[[CHUNK]], %c10_i64
// CHECK: arith.cmpi ult, %{{.*}}, %c200_i64
// CHECK: scf.if %{{.*}} -> (i32)
// CHECK: llvm.load %{{.*}} invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK: } else {
// CHECK: scf.yield %c0_i32 : i32
// CHECK: llvm.store {{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-COUNT-3: scf.if %{{.*}} -> (i32)
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @plain(%src: memref<2x200x40xf8E4M3FN>, %dst: memref<2x2x12x32x4x4xf8E4M3FN>) kernel {
    %bx = gpu.block_id x
    nvfp4.block_scales_tile ins(%src : memref<2x200x40xf8E4M3FN>) outs(%dst : memref<2x2x12x32x4x4xf8E4M3FN>) at %bx
    gpu.return
  }
}

// -----

// Blocked scales of 11 chunks (K = 704) into 12: only the chunk is checked
// (a blocked source has every row of its blocks).
// CHECK-LABEL: gpu.func @blocked
// CHECK: arith.cmpi ult, %{{.*}}, %c11_i64
// CHECK-NOT: arith.andi
// CHECK: scf.if %{{.*}} -> (i32)
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @blocked(%src: memref<3x11x32x4x4xf8E4M3FN>, %dst: memref<3x12x32x4x4xf8E4M3FN>) kernel {
    %bx = gpu.block_id x
    nvfp4.block_scales_tile ins(%src : memref<3x11x32x4x4xf8E4M3FN>) outs(%dst : memref<3x12x32x4x4xf8E4M3FN>) at %bx
    gpu.return
  }
}

// -----

// Plain rows of whole 16-byte groups (K = 1024: 16 chunks, 4 groups) into
// 6 groups: one unit per thread, a 16-byte load of its row (or zeros past
// the source's groups and rows), then word j of the group's 4 atoms.
// CHECK-LABEL: gpu.func @plain_vector
// CHECK: %[[U:.*]] = arith.addi
// CHECK: arith.cmpi ult, %[[U]], %c3072_i64
// CHECK: %[[WORD:.*]] = arith.remui %[[U]], %c128_i64
// CHECK: %[[UG:.*]] = arith.divui %[[U]], %c128_i64
// CHECK: %[[G:.*]] = arith.remui %[[UG]], %c6_i64
// CHECK: arith.cmpi ult, %[[G]], %c4_i64
// CHECK: arith.cmpi ult, %{{.*}}, %c200_i64
// CHECK: scf.if %{{.*}} -> (vector<4xi32>)
// CHECK: llvm.load %{{.*}} invariant {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK: } else {
// CHECK: arith.constant dense<0> : vector<4xi32>
// CHECK-COUNT-4: llvm.store %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: gpu.return
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @plain_vector(%src: memref<2x200x64xf8E4M3FN>, %dst: memref<2x2x24x32x4x4xf8E4M3FN>) kernel {
    %bx = gpu.block_id x
    nvfp4.block_scales_tile ins(%src : memref<2x200x64xf8E4M3FN>) outs(%dst : memref<2x2x24x32x4x4xf8E4M3FN>) at %bx
    gpu.return
  }
}
