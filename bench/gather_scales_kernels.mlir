// Kernels of nvfp4.gather_scales_tile alone (the sm_100a grouped GEMM's
// pre-pass for A's scales), for bench/gather_scales_gpu.py to run on any
// GPU: the op's lowering is plain loads and stores, the same for every
// target. @gather128: NVFP4, K = 320 (5 source chunks padded to 8), tiles
// of 128 rows; @gather64: MXFP4, K = 1024, tiles of 64 rows (two tiles per
// 128-row block). Both: 3 groups of at most 300 rows.
// nvfp4-opt bench/gather_scales_kernels.mlir --nvfp4-pipeline="target=sm_90a format=isa" | bench/ptx_of.py
module attributes {gpu.container_module} {
  gpu.module @nvfp4_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
    gpu.func @gather128(%src: memref<300x20xf8E4M3FN>, %dst: memref<5x8x32x4x4xf8E4M3FN>, %offsets: memref<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.block_id y
      %g, %b, %e = nvfp4.group_tile %offsets[%t] tile_m 128 rows 300 : memref<4xi32>
      %has = arith.cmpi ult, %b, %e : index
      scf.if %has {
        %c128 = arith.constant 128 : index
        %row = arith.muli %t, %c128 : index
        nvfp4.gather_scales_tile ins(%src : memref<300x20xf8E4M3FN>) outs(%dst : memref<5x8x32x4x4xf8E4M3FN>) rows %b to %e at %row tile_m 128
      }
      gpu.return
    }
    gpu.func @gather64(%src: memref<300x32xf8E8M0FNU>, %dst: memref<4x8x32x4x4xf8E8M0FNU>, %offsets: memref<4xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %t = gpu.block_id y
      %g, %b, %e = nvfp4.group_tile %offsets[%t] tile_m 64 rows 300 : memref<4xi32>
      %has = arith.cmpi ult, %b, %e : index
      scf.if %has {
        %c64 = arith.constant 64 : index
        %row = arith.muli %t, %c64 : index
        nvfp4.gather_scales_tile ins(%src : memref<300x32xf8E8M0FNU>) outs(%dst : memref<4x8x32x4x4xf8E8M0FNU>) rows %b to %e at %row tile_m 64
      }
      gpu.return
    }
  }
}
