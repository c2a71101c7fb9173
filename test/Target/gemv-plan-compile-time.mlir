// The largest plans the verifier accepts (1024 bytes of A in flight per
// thread, several row groups) still compile quickly: plans beyond that
// bound took 4-25 s in canonicalize and are rejected by the verifier
// (test/Dialect/NVFP4/invalid.mlir). `timeout` fails the test if one
// takes more than 20 s on a slow CI machine (each takes about half a second here).
// RUN: timeout 20 nvfp4-run %s --entry rows --target sm_90a --emit=ptx -o /dev/null
// RUN: timeout 20 nvfp4-run %s --entry bytes --target sm_100a --emit=ptx -o /dev/null
// RUN: timeout 20 nvfp4-run %s --entry distance --target sm_90a --emit=ptx -o /dev/null

func.func @rows(%a: memref<7168x16384xf4E2M1FN>, %sfa: memref<7168x1024xf8E4M3FN>, %b: memref<1x16384xf4E2M1FN>, %sfb: memref<1x1024xf8E4M3FN>, %c: memref<7168x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<7168x16384xf4E2M1FN>, memref<7168x1024xf8E4M3FN>, memref<1x16384xf4E2M1FN>, memref<1x1024xf8E4M3FN>) outs(%c : memref<7168x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 8, bytes_per_thread = 16, unroll = 4, stage_b = true, row_groups = 4>}
  return
}

func.func @bytes(%a: memref<7168x16384xf4E2M1FN>, %sfa: memref<7168x1024xf8E4M3FN>, %b: memref<1x16384xf4E2M1FN>, %sfb: memref<1x1024xf8E4M3FN>, %c: memref<7168x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<7168x16384xf4E2M1FN>, memref<7168x1024xf8E4M3FN>, memref<1x16384xf4E2M1FN>, memref<1x1024xf8E4M3FN>) outs(%c : memref<7168x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 4, bytes_per_thread = 32, unroll = 4, stage_b = false, row_groups = 8>}
  return
}

func.func @distance(%a: memref<7168x16384xf4E2M1FN>, %sfa: memref<7168x1024xf8E4M3FN>, %b: memref<1x16384xf4E2M1FN>, %sfb: memref<1x1024xf8E4M3FN>, %c: memref<7168x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<7168x16384xf4E2M1FN>, memref<7168x1024xf8E4M3FN>, memref<1x16384xf4E2M1FN>, memref<1x1024xf8E4M3FN>) outs(%c : memref<7168x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 32, unroll = 4, stage_b = true, row_groups = 4, prefetch_distance = 3>}
  return
}
