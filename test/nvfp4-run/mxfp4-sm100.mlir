// MXFP4 GEMMs compiled for the B200 (sm_100a): tcgen05 MMAs of
// kind::mxf4nvf4 with .block32 (ue8m0 scales, two a row per MMA), one scale
// copy into TMEM per atom of 128 K values, assembled by ptxas. Their
// layout is checked on the host model (test/unit/Tcgen05PipelineTest.cpp,
// Tcgen05PipelineMX); the chip itself is not lent here.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: nvfp4-run %s --entry gemm --target sm_100a --emit=ptx -o %t/gemm.ptx 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: nvfp4-run: @gemm: wrote {{[0-9]+}} bytes of PTX for sm_100a to '{{.*}}gemm.ptx': {{.*}}format = mxfp4
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm.ptx
// A slot's 2 atoms per operand reach TMEM in 2 copies each; its 4 MMAs
// are all .block32 (none .block16).
// PTX: .entry gemm_kernel(
// PTX-COUNT-4: tcgen05.cp.cta_group::1.32x128b.warpx4
// PTX-NOT: tcgen05.cp
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block32
// PTX-NOT: block16
// RUN: nvfp4-run %s --entry gemm --target sm_100a --emit=cubin -o %t/gemm.cubin 2>&1 | FileCheck %s --check-prefix=CUBIN
// RUN: nvfp4-run %s --entry dual --target sm_100a --emit=cubin -o %t/dual.cubin 2>&1 | FileCheck %s --check-prefix=CUBIN
// CUBIN: bytes of cubin for sm_100a

func.func @gemm(%a: memref<200x512xf4E2M1FN>, %sfa: memref<200x16xf8E8M0FNU>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<256x16xf8E8M0FNU>, %c: memref<200x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<200x512xf4E2M1FN>, memref<200x16xf8E8M0FNU>, memref<256x512xf4E2M1FN>, memref<256x16xf8E8M0FNU>) outs(%c : memref<200x256xf16>)
  return
}

func.func @dual(%a: memref<64x640xf4E2M1FN>, %sfa: memref<64x20xf8E8M0FNU>, %b1: memref<384x640xf4E2M1FN>, %sfb1: memref<384x20xf8E8M0FNU>, %b2: memref<384x640xf4E2M1FN>, %sfb2: memref<384x20xf8E8M0FNU>, %c: memref<64x384xbf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<64x640xf4E2M1FN>, memref<64x20xf8E8M0FNU>, memref<384x640xf4E2M1FN>, memref<384x20xf8E8M0FNU>, memref<384x640xf4E2M1FN>, memref<384x20xf8E8M0FNU>) outs(%c : memref<64x384xbf16>)
  return
}
