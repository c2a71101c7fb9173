// The grouped (MoE) GEMM through the whole sm_90a pipeline. Both kernels
// start with the device scheduler (nvfp4.group_tile): each lane loads one
// run-time offset, the warp takes a running maximum and an inclusive sum
// of tiles with five shfl.sync.up steps each, a ballot finds the group of
// this CTA's tile and three shfl.sync.idx broadcast its rows; no shared
// memory and no barrier. The GEMM's K loop is written for every multiple
// of 8 rows of A up to its tile of 128, each with MMAs of that N (16 K
// loops), and ptxas assembles both kernels without spills.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=MMA < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK-LABEL: .entry grouped_kernel_decode_a(
// CHECK: ld.global.b32
// CHECK-COUNT-5: shfl.sync.up.b32
// CHECK: shfl.sync.up.b32 {{.*}}, 1, 0, -1;
// CHECK-COUNT-5: shfl.sync.up.b32
// CHECK: vote.sync.ballot.b32
// CHECK-COUNT-3: shfl.sync.idx.b32
// CHECK-NOT: bar.sync
// CHECK: cvt.rn.f16x2.e4m3x2
// CHECK-LABEL: .entry grouped_kernel(
// CHECK: ld.global.b32
// CHECK: vote.sync.ballot.b32
// CHECK: setmaxnreg
// CHECK: cp.async.bulk.tensor.3d
// CHECK: wgmma.mma_async

// MMA-DAG: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
// MMA-DAG: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
// MMA-DAG: wgmma.mma_async.sync.aligned.m64n72k16.f32.f16.f16
// MMA-DAG: wgmma.mma_async.sync.aligned.m64n120k16.f32.f16.f16
// MMA-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// MMA-NOT: m64n{{(1[3-9][0-9]|2[0-9][0-9])}}k16

// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS: Compiling entry function 'grouped_kernel'
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill

func.func @grouped(%a: memref<1024x7168xf4E2M1FN>, %sfa: memref<1024x448xf8E4M3FN>, %b: memref<8x4096x7168xf4E2M1FN>, %sfb: memref<8x4096x448xf8E4M3FN>, %offsets: memref<9xi32>, %c: memref<1024x4096xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<1024x7168xf4E2M1FN>, memref<1024x448xf8E4M3FN>, memref<8x4096x7168xf4E2M1FN>, memref<8x4096x448xf8E4M3FN>, memref<9xi32>) outs(%c : memref<1024x4096xf16>) {size_hint = array<i64: 80, 176, 128, 72, 64, 248, 96, 160>}
  return
}
