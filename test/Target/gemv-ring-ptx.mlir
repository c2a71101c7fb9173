// The shared-memory A ring (stages = 3) through the whole pipeline to PTX for
// both targets: mbarrier waits become inline PTX (convert-nvvm-to-llvm),
// bulk copies complete on the slot's mbarrier, and ptxas assembles both.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | FileCheck %s
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | FileCheck %s

// CHECK: gpu.binary @nvfp4_kernels
// CHECK-SAME: mbarrier.init.shared.b64
// CHECK-SAME: fence.mbarrier_init.release.cluster
// CHECK-SAME: mbarrier.arrive.expect_tx.shared.b64
// CHECK-SAME: cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes
// CHECK-SAME: bar.warp.sync
// CHECK-SAME: mbarrier.try_wait.parity.shared.b64
// CHECK-SAME: ld.shared.v4.b32

// RUN: %if ptxas %{ nvfp4-run %s --emit=ptx --target sm_100a -o %t.sm100.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.sm100.ptx -o %t.sm100.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ nvfp4-run %s --emit=ptx --target sm_90a -o %t.sm90.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @gemv(%a: memref<1x4096x8192xf4E2M1FN>, %sfa: memref<1x4096x512xf8E4M3FN>, %b: memref<1x1x8192xf4E2M1FN>, %sfb: memref<1x1x512xf8E4M3FN>, %c: memref<1x4096x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x4096x8192xf4E2M1FN>, memref<1x4096x512xf8E4M3FN>, memref<1x1x8192xf4E2M1FN>, memref<1x1x512xf8E4M3FN>) outs(%c : memref<1x4096x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 2, stage_b = true, stages = 3>}
  return
}
