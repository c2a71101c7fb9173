// An MXFP4 C's amax exchange needs room in the ring after the K loop: a
// plan whose split cluster fills the ring from its start (the other
// split's whole tile, larger than the two slots' A tiles) leaves none, and
// nvfp4-software-pipeline says so instead of building a store without it.
// RUN: nvfp4-opt %s -nvfp4-tile=target=sm_90a -nvfp4-software-pipeline -verify-diagnostics -o /dev/null

func.func @no_room(%a: memref<128x1024xf4E2M1FN>, %sfa: memref<128x64xf8E4M3FN>, %b: memref<1024x1024xf4E2M1FN>, %sfb: memref<1024x64xf8E4M3FN>, %c: memref<128x1024xf4E2M1FN>, %sfc: memref<128x32xf8E8M0FNU>) {
  // expected-error @+1 {{has an MXFP4 C, whose warps exchange their blocks' amaxes in the ring after the K loop, but its plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 2, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>> leaves no 4096 bytes free there}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x1024xf4E2M1FN>, memref<128x64xf8E4M3FN>, memref<1024x1024xf4E2M1FN>, memref<1024x64xf8E4M3FN>) outs(%c : memref<128x1024xf4E2M1FN>) c_scales(%sfc : memref<128x32xf8E8M0FNU>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 2, k_groups = 1, b_prefetch = 2, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>>}
  return
}
