// Input of target.mlir: the same GEMV tile in modules for two chips.
gpu.module @hopper [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>
    gpu.return
  }
}

gpu.module @blackwell [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) kernel {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) rows %bx batch %by plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>
    gpu.return
  }
}
