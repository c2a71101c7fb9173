// The sm_100a GEMM (#nvfp4.tcgen05_mainloop) to PTX and, with ptxas, to an
// sm_100a cubin without spills, for the three contest shapes (the
// planner's plans) and plans of every tile_m, split-K and a batch. The
// kernel: 128 threads; TMEM allocated by warp 0 (tcgen05.alloc, then the
// permit relinquished); thread 0 arms each slot (expect_tx) and copies B's
// and A's packed tiles with TMA (3-D maps, 128B-swizzled) and their
// blocked scales with 1-D bulk copies; thread 32 waits for the slot,
// copies the scale atoms to TMEM (tcgen05.cp 32x128b.warpx4), issues the
// block-scaled e2m1 MMAs (kind::mxf4nvf4, block16 scales from TMEM) and
// commits to the slot's empty barrier, then to the accumulator's; all
// warps then read the accumulator (tcgen05.ld 32x32b.x32), store C and
// free TMEM.
// The contest shapes take the planner's plans (their tcgen05_mainloop lines
// are checked in test/Transforms/plan-gemm-sm100.mlir): the first two CTA
// pairs (cta_group::2, test/Target/pair-sm100-ptx.mlir), the others
// single CTAs (cta_group::1).
// RUN: nvfp4-run %s --entry contest1 --target sm_100a --emit=ptx -o %t.contest1.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.contest1.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.contest1.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.contest1.ptx -o %t.contest1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: nvfp4-run %s --entry contest2 --target sm_100a --emit=ptx -o %t.contest2.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.contest2.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.contest2.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.contest2.ptx -o %t.contest2.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: nvfp4-run %s --entry contest3 --target sm_100a --emit=ptx -o %t.contest3.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.contest3.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.contest3.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.contest3.ptx -o %t.contest3.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: nvfp4-run %s --entry tile32 --target sm_100a --emit=ptx -o %t.tile32.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.tile32.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.tile32.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.tile32.ptx -o %t.tile32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: nvfp4-run %s --entry tile128 --target sm_100a --emit=ptx -o %t.tile128.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.tile128.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.tile128.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.tile128.ptx -o %t.tile128.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: nvfp4-run %s --entry tile256 --target sm_100a --emit=ptx -o %t.tile256.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.tile256.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.tile256.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.tile256.ptx -o %t.tile256.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: nvfp4-run %s --entry batch_split --target sm_100a --emit=ptx -o %t.batch_split.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.batch_split.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.batch_split.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.batch_split.ptx -o %t.batch_split.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// Split-K on chip (mode cluster) on the middle contest shape: the two
// splits are a 1 x 1 x 2 cluster. After the accumulator is complete, split 1 copies its 64
// columns from TMEM (4 loads of 16) into split 0's ring with 16 16-byte
// shared::cluster stores and arrives; split 0 waits and adds them into its
// TMEM (4 x: load, 4 16-byte shared loads, store), then stores C: no sum
// kernel, no fp32 partials.
// RUN: nvfp4-run %s --entry split_cluster --target sm_100a --emit=ptx -o %t.split_cluster.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.split_cluster.ptx
// RUN: FileCheck %s --check-prefix=SPLITS --input-file=%t.split_cluster.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.split_cluster.ptx -o %t.split_cluster.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// SPLITS-NOT: sum_splits
// SPLITS-LABEL: .entry split_cluster_kernel(
// SPLITS: .reqnctapercluster 1, 1, 2
// SPLITS: tcgen05.fence::after_thread_sync;
// SPLITS: barrier.cluster.arrive.relaxed;
// SPLITS-NEXT: barrier.cluster.wait;
// SPLITS-NEXT: mov.u32 {{%r[0-9]+}}, %cluster_ctarank;
// SPLITS: tcgen05.ld.sync.aligned.32x32b.x16.b32
// SPLITS: mapa.shared::cluster.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 0;
// SPLITS-COUNT-4: st.shared::cluster.v2.b64
// SPLITS-COUNT-3: tcgen05.ld.sync.aligned.32x32b.x16.b32
// SPLITS-COUNT-4: st.shared::cluster.v2.b64
// SPLITS: barrier.cluster.arrive;
// SPLITS: barrier.cluster.arrive.relaxed;
// SPLITS-NEXT: barrier.cluster.wait;
// SPLITS: tcgen05.ld.sync.aligned.32x32b.x16.b32
// SPLITS-COUNT-4: ld.shared.v2.b64
// SPLITS: tcgen05.st.sync.aligned.32x32b.x16.b32
// SPLITS-NEXT: tcgen05.wait::st.sync.aligned;
// SPLITS-COUNT-3: tcgen05.st.sync.aligned.32x32b.x16.b32
// SPLITS-NOT: st.global.f32
// SPLITS: st.global.b16
// SPLITS: tcgen05.dealloc.cta_group::1.sync.aligned.b32
// Plain scales and K = 640 (2.5 slots): the scale pre-pass kernels (one
// 32-bit word per thread and trip, 256 threads) before the GEMM.
// RUN: nvfp4-run %s --entry plain_ragged --target sm_100a --emit=ptx -o %t.plain_ragged.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,PROD --input-file=%t.plain_ragged.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.plain_ragged.ptx
// RUN: FileCheck %s --check-prefix=PRE --input-file=%t.plain_ragged.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.plain_ragged.ptx -o %t.plain_ragged.cubin 2>&1 | FileCheck %s --check-prefixes=PTXAS,PTXAS-PRE %}

// CHECK: .target sm_100a
// CHECK-LABEL: .entry {{.*}}_kernel(
// CHECK: .maxntid 128, 1, 1
// CHECK: tcgen05.alloc.cta_group::{{[12]}}.sync.aligned.shared::cta.b32
// CHECK: tcgen05.relinquish_alloc_permit.cta_group::{{[12]}}.sync.aligned;
// The producer thread (blocks may come in any order: its own prefix).
// PROD: mbarrier.arrive.expect_tx.shared.b64
// B's tile streams through L2; A's, which every CTA of its column reads,
// is kept longer (an evict_last policy).
// PROD: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// PROD: createpolicy.fractional.L2::evict_last.b64 [[POLICY:%rd[0-9]+]], 1.0;
// PROD: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint {{.*}}, [[POLICY]];
// PROD: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// PROD: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// The MMA thread, then the epilogue.
// MMA: mbarrier.try_wait.parity
// MMA: tcgen05.cp.cta_group::{{[12]}}.32x128b.warpx4
// MMA: tcgen05.mma.cta_group::{{[12]}}.kind::mxf4nvf4.block_scale.block16
// MMA: tcgen05.mma.cta_group::{{[12]}}.kind::mxf4nvf4.block_scale.block16
// MMA: tcgen05.mma.cta_group::{{[12]}}.kind::mxf4nvf4.block_scale.block16
// MMA: tcgen05.mma.cta_group::{{[12]}}.kind::mxf4nvf4.block_scale.block16
// MMA-NOT: tcgen05.mma
// MMA: tcgen05.commit.cta_group::{{[12]}}.mbarrier::arrive::one.shared::cluster{{(.multicast::cluster)?}}.b64
// MMA: tcgen05.commit.cta_group::{{[12]}}.mbarrier::arrive::one.shared::cluster{{(.multicast::cluster)?}}.b64 {{.*}}_kernel_tmem]
// MMA: tcgen05.fence::after_thread_sync;
// MMA: bar.warp.sync -1;
// MMA: tcgen05.ld.sync.aligned.32x32b.x32.b32
// MMA: tcgen05.wait::ld.sync.aligned;
// MMA: tcgen05.dealloc.cta_group::{{[12]}}.sync.aligned.b32
// PTXAS: Compiling entry function '{{.*}}_kernel' for 'sm_100a'
// PTXAS-NOT: error
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-PRE: Compiling entry function '{{.*}}_kernel_block_sfb' for 'sm_100a'
// PTXAS-PRE: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-PRE: Compiling entry function '{{.*}}_kernel_block_sfa' for 'sm_100a'
// PTXAS-PRE: 0 bytes spill stores, 0 bytes spill loads
// PRE-LABEL: .entry plain_ragged_kernel_block_sfa(
// PRE: .maxntid 256, 1, 1
// PRE: ld.global.nc.b32
// PRE: st.global.b32 [%rd{{[0-9]+}}]
// PRE: ld.global.nc.b32
// PRE: st.global.b32 [%rd{{[0-9]+}}+1024]
// PRE: st.global.b32 [%rd{{[0-9]+}}+2048]
// PRE: st.global.b32 [%rd{{[0-9]+}}+3072]
// PRE-LABEL: .entry plain_ragged_kernel_block_sfb(
// PRE-LABEL: .entry plain_ragged_kernel(

func.func @contest1(%a: memref<128x16384xf4E2M1FN>, %sfa: memref<1x256x32x4x4xf8E4M3FN>, %b: memref<7168x16384xf4E2M1FN>, %sfb: memref<56x256x32x4x4xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x16384xf4E2M1FN>, memref<1x256x32x4x4xf8E4M3FN>, memref<7168x16384xf4E2M1FN>, memref<56x256x32x4x4xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

func.func @contest2(%a: memref<128x7168xf4E2M1FN>, %sfa: memref<1x112x32x4x4xf8E4M3FN>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<32x112x32x4x4xf8E4M3FN>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7168xf4E2M1FN>, memref<1x112x32x4x4xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<32x112x32x4x4xf8E4M3FN>) outs(%c : memref<128x4096xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

func.func @contest3(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<1x32x32x4x4xf8E4M3FN>, %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<56x32x32x4x4xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<1x32x32x4x4xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<56x32x32x4x4xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

func.func @tile32(%a: memref<32x512xf4E2M1FN>, %sfa: memref<1x8x32x4x4xf8E4M3FN>, %b: memref<256x512xf4E2M1FN>, %sfb: memref<2x8x32x4x4xf8E4M3FN>, %c: memref<32x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<32x512xf4E2M1FN>, memref<1x8x32x4x4xf8E4M3FN>, memref<256x512xf4E2M1FN>, memref<2x8x32x4x4xf8E4M3FN>) outs(%c : memref<32x256xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

func.func @tile128(%a: memref<100x1024xf4E2M1FN>, %sfa: memref<1x16x32x4x4xf8E4M3FN>, %b: memref<300x1024xf4E2M1FN>, %sfb: memref<3x16x32x4x4xf8E4M3FN>, %c: memref<100x300xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<100x1024xf4E2M1FN>, memref<1x16x32x4x4xf8E4M3FN>, memref<300x1024xf4E2M1FN>, memref<3x16x32x4x4xf8E4M3FN>) outs(%c : memref<100x300xbf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 4>>}
  return
}

func.func @tile256(%a: memref<256x512xf4E2M1FN>, %sfa: memref<2x8x32x4x4xf8E4M3FN>, %b: memref<128x512xf4E2M1FN>, %sfb: memref<1x8x32x4x4xf8E4M3FN>, %c: memref<256x128xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<256x512xf4E2M1FN>, memref<2x8x32x4x4xf8E4M3FN>, memref<128x512xf4E2M1FN>, memref<1x8x32x4x4xf8E4M3FN>) outs(%c : memref<256x128xf32>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 256, stages = 4>>}
  return
}

func.func @batch_split(%a: memref<3x200x1024xf4E2M1FN>, %sfa: memref<3x2x16x32x4x4xf8E4M3FN>, %b: memref<3x384x1024xf4E2M1FN>, %sfb: memref<3x3x16x32x4x4xf8E4M3FN>, %c: memref<3x200x384xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<3x200x1024xf4E2M1FN>, memref<3x2x16x32x4x4xf8E4M3FN>, memref<3x384x1024xf4E2M1FN>, memref<3x3x16x32x4x4xf8E4M3FN>) outs(%c : memref<3x200x384xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 4>, reduction = #nvfp4.split_k<splits = 2>>}
  return
}

func.func @plain_ragged(%a: memref<200x640xf4E2M1FN>, %sfa: memref<200x40xf8E4M3FN>, %b: memref<300x640xf4E2M1FN>, %sfb: memref<300x40xf8E4M3FN>, %c: memref<200x300xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<200x640xf4E2M1FN>, memref<200x40xf8E4M3FN>, memref<300x640xf4E2M1FN>, memref<300x40xf8E4M3FN>) outs(%c : memref<200x300xbf16>)
  return
}

func.func @split_cluster(%a: memref<128x7168xf4E2M1FN>, %sfa: memref<1x112x32x4x4xf8E4M3FN>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<32x112x32x4x4xf8E4M3FN>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7168xf4E2M1FN>, memref<1x112x32x4x4xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<32x112x32x4x4xf8E4M3FN>) outs(%c : memref<128x4096xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>, nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 8>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>>}
  return
}
