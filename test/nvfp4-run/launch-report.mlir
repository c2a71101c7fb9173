// nvfp4-run's line per kernel shows a GEMM's launch ABI: the cluster shape,
// the ring's dynamic shared memory, and each parameter passed as a
// by-value tensor map with the buffer it describes (here the pre-pass's
// workspace: 4 tiles of 64 rows x 64 f16, one tile per copy; the two
// splits of K of a tile form a cluster that adds them on chip).
// REQUIRES: ptxas
// RUN: nvfp4-run %s --target sm_90a 2>&1 | FileCheck %s
// CHECK: nvfp4-run: kernel @gemm_kernel_decode_a: grid (4, 1, 1), block (512, 1, 1);
// CHECK-NOT: tensor map
// CHECK: nvfp4-run: kernel @gemm_kernel: grid (4, 1, 2), block (256, 1, 1), cluster (1, 1, 2), 33856 bytes dynamic smem; param 5: tensor map of workspace #0 (256x64, box 64x64, swizzle 128B); ptxas:
func.func @gemm(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<256x256xf4E2M1FN>, %sfb: memref<256x16xf8E4M3FN>, %c: memref<64x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>, memref<256x256xf4E2M1FN>, memref<256x16xf8E4M3FN>) outs(%c : memref<64x256xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, producer = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>}
  return
}
