// The grouped GEMM of independent problems in CTA pairs (the contest's
// third benchmark case: both problems' 24 tiles of B pair up, so the
// planner pairs them, 8 slots instead of 6) through the whole sm_100a
// pipeline: one kernel in 2 x 1 x 1 clusters whose two cases each
// allocate TMEM for a pair and issue M = 256 MMAs; no tcgen05 instruction
// of one CTA anywhere. ptxas assembles every kernel without spills.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.ptx
// RUN: FileCheck %s --implicit-check-not=cta_group::1 < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// CHECK: .visible .entry problems_kernel(
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK-COUNT-2: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// CHECK-NOT: tcgen05.alloc
// CHECK: tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block16
// CHECK: mbarrier.arrive.release.cluster.shared::cluster.b64
// PTXAS-COUNT-5: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @problems(%a0: memref<192x4096xf4E2M1FN>, %a1: memref<320x4096xf4E2M1FN>, %sfa0: memref<192x256xf8E4M3FN>, %sfa1: memref<320x256xf8E4M3FN>, %b0: memref<3072x4096xf4E2M1FN>, %b1: memref<3072x4096xf4E2M1FN>, %sfb0: memref<3072x256xf8E4M3FN>, %sfb1: memref<3072x256xf8E4M3FN>, %c0: memref<192x3072xf16>, %c1: memref<320x3072xf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<192x4096xf4E2M1FN>, memref<320x4096xf4E2M1FN>)
      sfa(%sfa0, %sfa1 : memref<192x256xf8E4M3FN>, memref<320x256xf8E4M3FN>)
      b(%b0, %b1 : memref<3072x4096xf4E2M1FN>, memref<3072x4096xf4E2M1FN>)
      sfb(%sfb0, %sfb1 : memref<3072x256xf8E4M3FN>, memref<3072x256xf8E4M3FN>)
      outs(%c0, %c1 : memref<192x3072xf16>, memref<320x3072xf16>)
  return
}
