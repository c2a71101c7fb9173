// A hand-written plan the verifier's register estimate accepts (tile_m 192,
// three K groups of 128 threads, no producer, three ring rounds: about 166
// of the 168 registers per thread) but that ptxas compiles with spills: nvfp4-run warns, names
// the plan and what needs fewer registers, and still runs it (spilling is
// slower, not wrong). The planner's plan for the same shape does not spill.
// REQUIRES: ptxas
// RUN: nvfp4-run %s --target sm_90a --entry gemm 2>&1 | FileCheck %s
// CHECK: nvfp4-run: kernel @gemm_kernel: grid (8, 1, 1), block (384, 1, 1)
// CHECK-SAME: ptxas: 168 registers, 0 bytes smem, {{[0-9]+}} bytes stack, [[SPILL:[1-9][0-9]*]] bytes spill stores
// CHECK-NEXT: nvfp4-run: warning: kernel @gemm_kernel spills [[SPILL]] bytes to local memory under ptxas (168 registers per thread): correct, but slower (plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 192, stages = 9, k_groups = 3>>); a smaller b_prefetch, tile_m or k_groups, or more ring rounds (stages / k_groups), needs fewer registers
// CHECK: nvfp4-run: @gemm nvfp4.scaled_matmul on
// RUN: nvfp4-run %s --target sm_90a --entry planned 2>&1 | FileCheck %s --check-prefix=PLANNED
// PLANNED-NOT: warning
func.func @gemm(%a: memref<192x1024xf4E2M1FN>, %sfa: memref<192x64xf8E4M3FN>, %b: memref<512x1024xf4E2M1FN>, %sfb: memref<512x64xf8E4M3FN>, %c: memref<192x512xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<192x1024xf4E2M1FN>, memref<192x64xf8E4M3FN>, memref<512x1024xf4E2M1FN>, memref<512x64xf8E4M3FN>) outs(%c : memref<192x512xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 192, stages = 9, k_groups = 3>>}
  return
}
func.func @planned(%a: memref<192x1024xf4E2M1FN>, %sfa: memref<192x64xf8E4M3FN>, %b: memref<512x1024xf4E2M1FN>, %sfb: memref<512x64xf8E4M3FN>, %c: memref<192x512xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<192x1024xf4E2M1FN>, memref<192x64xf8E4M3FN>, memref<512x1024xf4E2M1FN>, memref<512x64xf8E4M3FN>) outs(%c : memref<192x512xf16>)
  return
}
