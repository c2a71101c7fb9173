// The gated dual GEMM for sm_100a with CTA pairs (cta_group = 2) on the
// first contest shape, through the whole pipeline: a 2 x 1 x 1 cluster per
// pair; every tcgen05 instruction is cta_group::2 (alloc, the scale copies
// into both CTAs' TMEM, the M = 256 MMAs: two per K step and 8 per slice,
// commits that arrive on both CTAs' barriers, dealloc); the second CTA
// forwards its slots to the first (mapa to rank 0, then a release arrive
// at cluster scope), which waits for them with an acquire at cluster
// scope; the CTAs meet at the allocation and before freeing TMEM; no
// cta_group::1 anywhere. ptxas assembles it without spills.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py | FileCheck %s --implicit-check-not=cta_group::1
// RUN: %if ptxas %{ nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.ptx && %ptxas -arch=sm_100a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: .entry dual_kernel(
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// CHECK: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned
// CHECK: barrier.cluster.arrive
// CHECK-NEXT: barrier.cluster.wait
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK-COUNT-12: tcgen05.cp.cta_group::2.32x128b.warpx4
// CHECK-COUNT-8: tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block16
// CHECK: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// CHECK: mapa.shared::cluster
// CHECK: mbarrier.arrive.release.cluster.shared::cluster.b64
// CHECK: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 {{.*}}[dual_kernel_tmem]
// CHECK: barrier.cluster.arrive
// CHECK-NEXT: barrier.cluster.wait
// CHECK: tcgen05.dealloc.cta_group::2.sync.aligned.b32
// PTXAS: Function properties for dual_kernel
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @dual(%a: memref<256x7168xf4E2M1FN>, %sfa: memref<256x448xf8E4M3FN>,
                %b1: memref<4096x7168xf4E2M1FN>, %sfb1: memref<4096x448xf8E4M3FN>,
                %b2: memref<4096x7168xf4E2M1FN>, %sfb2: memref<4096x448xf8E4M3FN>,
                %c: memref<256x4096xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x7168xf4E2M1FN>, memref<256x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<256x4096xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 4, weights = 2, cta_group = 2>>}
  return
}
