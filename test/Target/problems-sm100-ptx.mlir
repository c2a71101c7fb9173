// The grouped GEMM of independent problems (the contest's fourth test case:
// N and K vary between its three problems) through the whole sm_100a
// pipeline: a scale pre-pass kernel per plain operand, and one kernel whose
// three cases each hold a tcgen05 GEMM tile of their problem (its own
// tcgen05.alloc, MMAs and dealloc); ptxas assembles every kernel without
// spills.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// CHECK-COUNT-6: .visible .entry problems_kernel_block_sf{{[ab][0-2]}}(
// CHECK: .visible .entry problems_kernel(
// CHECK-COUNT-3: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// CHECK-NOT: tcgen05.alloc
// PTXAS-COUNT-7: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
func.func @problems(%a0: memref<80x256xf4E2M1FN>, %a1: memref<128x512xf4E2M1FN>, %a2: memref<256x128xf4E2M1FN>, %sfa0: memref<80x16xf8E4M3FN>, %sfa1: memref<128x32xf8E4M3FN>, %sfa2: memref<256x8xf8E4M3FN>, %b0: memref<384x256xf4E2M1FN>, %b1: memref<256x512xf4E2M1FN>, %b2: memref<128x128xf4E2M1FN>, %sfb0: memref<384x16xf8E4M3FN>, %sfb1: memref<256x32xf8E4M3FN>, %sfb2: memref<128x8xf8E4M3FN>, %c0: memref<80x384xf16>, %c1: memref<128x256xf16>, %c2: memref<256x128xf16>) {
  nvfp4.grouped_problems a(%a0, %a1, %a2 : memref<80x256xf4E2M1FN>, memref<128x512xf4E2M1FN>, memref<256x128xf4E2M1FN>)
      sfa(%sfa0, %sfa1, %sfa2 : memref<80x16xf8E4M3FN>, memref<128x32xf8E4M3FN>, memref<256x8xf8E4M3FN>)
      b(%b0, %b1, %b2 : memref<384x256xf4E2M1FN>, memref<256x512xf4E2M1FN>, memref<128x128xf4E2M1FN>)
      sfb(%sfb0, %sfb1, %sfb2 : memref<384x16xf8E4M3FN>, memref<256x32xf8E4M3FN>, memref<128x8xf8E4M3FN>)
      outs(%c0, %c1, %c2 : memref<80x384xf16>, memref<128x256xf16>, memref<256x128xf16>)
  return
}
