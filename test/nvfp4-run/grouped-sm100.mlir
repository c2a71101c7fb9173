// The grouped (MoE) GEMM compiled for the B200 (sm_100a), NVFP4 and
// MXFP4: a gather of A's scales per tile, then tcgen05 block-scaled MMAs
// on each tile's group, assembled by ptxas. Their per-group layout is
// checked on the host model (test/unit/Tcgen05PipelineTest.cpp,
// Tcgen05PipelineGrouped); the chip itself is not lent here.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: nvfp4-run %s --entry grouped --target sm_100a --emit=ptx -o %t/grouped.ptx 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: nvfp4-run: @grouped: wrote {{[0-9]+}} bytes of PTX for sm_100a to '{{.*}}grouped.ptx': 2 kernels: @grouped_kernel_gather_sfa, @grouped_kernel; plan #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128
// RUN: FileCheck %s --check-prefix=PTX < %t/grouped.ptx
// The gather and the GEMM each find their tile's group from the offsets
// (a warp's shuffles); the GEMM's MMAs are NVFP4's .block16, of CTA pairs
// (the planner's: the pair's ring holds 8 slots, a single CTA's 6).
// PTX: .entry grouped_kernel_gather_sfa(
// PTX: shfl.sync
// PTX: .entry grouped_kernel(
// PTX: .reqnctapercluster 2, 1, 1
// PTX: shfl.sync
// PTX: tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block16
// RUN: nvfp4-run %s --entry grouped --target sm_100a --emit=cubin -o %t/grouped.cubin 2>&1 | FileCheck %s --check-prefix=CUBIN
// RUN: nvfp4-run %s --entry grouped_mx --target sm_100a --emit=cubin -o %t/grouped_mx.cubin 2>&1 | FileCheck %s --check-prefix=CUBIN
// CUBIN: bytes of cubin for sm_100a

func.func @grouped(%a: memref<512x4096xf4E2M1FN>, %sfa: memref<512x256xf8E4M3FN>, %b: memref<2x3072x4096xf4E2M1FN>, %sfb: memref<2x24x64x32x4x4xf8E4M3FN>, %offsets: memref<3xi32>, %c: memref<512x3072xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<512x4096xf4E2M1FN>, memref<512x256xf8E4M3FN>, memref<2x3072x4096xf4E2M1FN>, memref<2x24x64x32x4x4xf8E4M3FN>, memref<3xi32>) outs(%c : memref<512x3072xf16>) {size_hint = array<i64: 192, 320>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

func.func @grouped_mx(%a: memref<256x1536xf4E2M1FN>, %sfa: memref<256x48xf8E8M0FNU>, %b: memref<4x512x1536xf4E2M1FN>, %sfb: memref<4x512x48xf8E8M0FNU>, %offsets: memref<5xi32>, %c: memref<256x512xbf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<256x1536xf4E2M1FN>, memref<256x48xf8E8M0FNU>, memref<4x512x1536xf4E2M1FN>, memref<4x512x48xf8E8M0FNU>, memref<5xi32>) outs(%c : memref<256x512xbf16>)
  return
}
