// The sm_90a GEMM to PTX: register-A wgmma (inline PTX, no NVVM op), the
// descriptor of the 128B-swizzled A tiles, the ring's full and empty
// mbarriers, the programmatic dependent launches (the pre-pass lets the
// GEMM start early, and waits for its own predecessor before it touches
// memory), and (with ptxas) a cubin without spills or serialized
// wgmmas (C7513 is an info line, hence the check on it) for every plan.
// The default ring plan has a producer warpgroup: 512 threads that start
// with 128 registers; the producer keeps 40 (setmaxnreg.dec), waits for
// the pre-pass and fills the slots with TMA copies through the tensor map
// (a 128-byte by-value grid-constant parameter read in place through
// cvta.param), each after the slot's previous use was released; the
// consumers take 152 (setmaxnreg.inc), load B, wait for a slot, keep one
// round of MMAs in flight (wait_group 1), release the previous slot, and
// meet for the K groups' reduction at a named barrier of their 384
// threads.
// RUN: nvfp4-run %s --entry ring --target sm_90a --emit=ptx | FileCheck %s --check-prefix=RING
// RUN: nvfp4-run %s --entry in_cta --target sm_90a --emit=ptx | FileCheck %s --check-prefix=CTA
// RING: .extern .shared .align 16 .b8 __nvfp4_dynamic_smem[];
// RING-LABEL: .entry ring_kernel_decode_a(
// RING-NOT: {{ld|st}}.global
// RING: griddepcontrol.wait;
// RING-NOT: {{ld|st}}.global
// RING: griddepcontrol.launch_dependents;
// The pre-pass's thread decodes one word (8 values) of a row: its 4 bytes
// of values and its block's scale byte, 4 f16x2 pairs stored 16 bytes
// apart.
// RING-DAG: ld.global.nc.b32
// RING-DAG: ld.global.nc.b8
// RING: cvt.rn.f16x2.e4m3x2
// RING-COUNT-4: st.global.b32
// RING-NOT: st.global
// RING-LABEL: .entry ring_kernel(
// RING: .param .align 64 .b8 ring_kernel_param_5[128]
// RING: .maxntid 512, 1, 1
// RING-NEXT: .maxnreg 128
// RING: mov.b64 [[PARAM:%rd[0-9]+]], ring_kernel_param_5;
// RING-NEXT: cvta.param.u64 [[MAP:%rd[0-9]+]], [[PARAM]];
// RING: mbarrier.init.shared.b64
// RING: fence.mbarrier_init
// RING: bar.sync 0;
// RING: setmaxnreg.dec.sync.aligned.u32 40;
// RING: griddepcontrol.wait;
// RING: mbarrier.arrive.expect_tx.shared.b64
// RING: createpolicy.fractional.L2::evict_last.b64 [[POLICY:%rd[0-9]+]], 1.0;
// RING: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [{{%rd[0-9]+}}], [[[MAP]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [{{%rd[0-9]+}}], [[POLICY]];
// RING: mbarrier.try_wait.parity
// RING: setmaxnreg.inc.sync.aligned.u32 152;
// RING: ld.global.nc.b64
// RING: mbarrier.try_wait.parity
// RING: wgmma.fence.sync.aligned;
// RING: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// RING: wgmma.commit_group.sync.aligned;
// RING: wgmma.wait_group.sync.aligned 1;
// RING: mbarrier.arrive.shared.b64
// RING: wgmma.wait_group.sync.aligned 0;
// RING: bar.sync 1, 384;
// CTA-LABEL: .entry in_cta_kernel(
// CTA: .shared .align 1024 .b8 __nvfp4_gemm_a[16384];
// CTA: fence.proxy.async.shared::cta;
// CTA: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16

// b_tma (the planner's plan for this shape): B's chunks and plain scales
// come through the ring with A's tiles. The kernel takes the maps of A's
// tiles, of B's bytes and of its scales; 256 threads start with 248
// registers (ptxas's limit is 255), one consumer warpgroup takes 256. The
// producer arms each of the 8 slots and copies B's chunk and scales into
// it before the pre-pass has finished (16 3-D copies), then A's tiles; the consumer reads
// its B from shared memory after the slot's full barrier, and loads
// nothing of B from global memory.
// RUN: nvfp4-run %s --entry b_tma --target sm_90a --emit=ptx | FileCheck %s --check-prefix=BTMA
// BTMA-LABEL: .entry b_tma_kernel(
// BTMA: .param .align 64 .b8 b_tma_kernel_param_5[128],
// BTMA-NEXT: .param .align 64 .b8 b_tma_kernel_param_6[128],
// BTMA-NEXT: .param .align 64 .b8 b_tma_kernel_param_7[128]
// BTMA: .maxntid 256, 1, 1
// BTMA-NEXT: .maxnreg 248
// BTMA: setmaxnreg.dec.sync.aligned.u32 40;
// BTMA-NOT: griddepcontrol.wait
// BTMA-COUNT-16: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [{{%rd[0-9]+}}];
// BTMA-NOT: cp.async.bulk.tensor.2d
// BTMA: griddepcontrol.wait;
// BTMA-COUNT-8: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint
// BTMA: setmaxnreg.inc.sync.aligned.u32 256;
// BTMA-NOT: ld.global
// BTMA: mbarrier.try_wait.parity
// BTMA-DAG: ld.shared.b64
// BTMA-DAG: ld.shared.b8
// BTMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// BTMA-NOT: ld.global

// b_tma with a split cluster (the planner's plan for 128x4096x7168): the
// consumers read B's bytes in the slots with plain loads, so the exchange
// lies in the last slot's A tile (ring bytes 5 x 19456 = 97280 .. + 16384,
// only TMA-written and MMA-read), and the first cluster arrive stays
// relaxed; the second one releases the puts.
// RUN: nvfp4-run %s --entry b_tma_splits --target sm_90a --emit=ptx | FileCheck %s --check-prefix=BTMASPLITS
// BTMASPLITS-LABEL: .entry b_tma_splits_kernel(
// BTMASPLITS: .reqnctapercluster 1, 1, 2
// BTMASPLITS: bar.warp.sync
// BTMASPLITS: wgmma.wait_group.sync.aligned 0;
// The sums restored from the operands' 2^-14 (ATileWorkspace.h): x 2^28.
// BTMASPLITS: mul.rn.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0f4D800000;
// BTMASPLITS: add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 97280;
// BTMASPLITS-NEXT: barrier.cluster.arrive.relaxed;
// BTMASPLITS-NEXT: barrier.cluster.wait;
// BTMASPLITS-COUNT-7: st.shared::cluster.v4.b32 [%rd{{[0-9]+}}{{(\+[0-9]+)?}}]
// BTMASPLITS: st.shared::cluster.v4.b32 [%rd{{[0-9]+}}+14336]
// BTMASPLITS-NEXT: barrier.cluster.arrive;
// BTMASPLITS-NEXT: barrier.cluster.wait;

// Two consumer warpgroups with b_tma and a split cluster (the long shape's
// plan, on a shorter K): the exchange (2 x 128 threads x 32 floats) takes
// the A tiles of the last two of 10 slots of 22528 bytes, from 8 x 22528 =
// 180224; a thread's fifth 16-byte put is in the second tile, one slot on.
// RUN: nvfp4-run %s --entry b_tma_splits_wg2 --target sm_90a --emit=ptx | FileCheck %s --check-prefix=BTMAWG2
// BTMAWG2-LABEL: .entry b_tma_splits_wg2_kernel(
// BTMAWG2: wgmma.wait_group.sync.aligned 0;
// BTMAWG2-NEXT: mul.rn.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0f4D800000;
// BTMAWG2: add.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 180224;
// BTMAWG2-NEXT: barrier.cluster.arrive.relaxed;
// BTMAWG2-NEXT: barrier.cluster.wait;
// BTMAWG2: st.shared::cluster.v4.b32 [%rd{{[0-9]+}}+12288]
// BTMAWG2-NEXT: st.shared::cluster.v4.b32 [%rd{{[0-9]+}}+22528]

// Split-K on chip: the two splits of a tile are a cluster along z. The K
// groups' sum (named barrier 1) is followed by two cluster barrier phases
// (the first arrives relaxed): each split stores the half of its 64 sums
// that the other one owns (a tile's rows of A 64 .. 127 go to split 1, 0 ..
// 63 to split 0) with 8 16-byte shared::cluster stores into the other's
// ring, arrives (release) and waits; then it adds the 8 16-byte shared
// loads it received and stores its half of C, 16 bytes a thread through its
// ring (the fragment's 2-byte stores where C's base is not 16-byte
// aligned). No sum kernel, no fp32 partials in global memory.
// RUN: nvfp4-run %s --entry split_cluster --target sm_90a --emit=ptx | FileCheck %s --check-prefix=SPLITS
// SPLITS-NOT: .entry split_cluster_kernel_sum_splits
// SPLITS-LABEL: .entry split_cluster_kernel(
// SPLITS: .explicitcluster
// SPLITS-NEXT: .reqnctapercluster 1, 1, 2
// SPLITS-NOT: griddepcontrol.launch_dependents
// SPLITS: bar.sync 1, 384;
// SPLITS: barrier.cluster.arrive.relaxed;
// SPLITS-NEXT: barrier.cluster.wait;
// SPLITS-NEXT: mov.u32 {{%r[0-9]+}}, %cluster_ctarank;
// SPLITS-DAG: mapa.shared::cluster.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 0;
// SPLITS-DAG: mapa.shared::cluster.u64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 1;
// SPLITS-COUNT-8: st.shared::cluster.v4.b32
// SPLITS-NEXT: barrier.cluster.arrive;
// SPLITS-NEXT: barrier.cluster.wait;
// SPLITS-COUNT-8: ld.shared.v4.b32
// SPLITS-NOT: st.global.f32
// SPLITS-DAG: st.global.v4.b32
// SPLITS-DAG: st.global.b16
// SPLITS-NOT: .entry
// RUN: %if ptxas %{ nvfp4-run %s --entry split_cluster --target sm_90a --emit=ptx -o %t.splits.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.splits.ptx -o %t.splits.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// RUN: %if ptxas %{ nvfp4-run %s --entry ring --target sm_90a --emit=ptx -o %t.ring.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.ring.ptx -o %t.ring.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ nvfp4-run %s --entry b_tma --target sm_90a --emit=ptx -o %t.btma.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.btma.ptx -o %t.btma.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ nvfp4-run %s --entry in_cta --target sm_90a --emit=ptx -o %t.cta.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.cta.ptx -o %t.cta.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS-NOT: {{warning|C7513}}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{warning|C7513}}

func.func @ring(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<128x128xf8E4M3FN>, %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<7168x128xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<128x128xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<7168x128xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true>>}
  return
}

func.func @b_tma(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<128x128xf8E4M3FN>, %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<7168x128xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<128x128xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<7168x128xf8E4M3FN>) outs(%c : memref<128x7168xf16>)
  return
}

func.func @in_cta(%a: memref<64x512xf4E2M1FN>, %sfa: memref<64x32xf8E4M3FN>, %b: memref<64x512xf4E2M1FN>, %sfb: memref<64x32xf8E4M3FN>, %c: memref<64x64xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>, memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) outs(%c : memref<64x64xbf16>)
  return
}

func.func @b_tma_splits(%a: memref<128x7168xf4E2M1FN>, %sfa: memref<128x448xf8E4M3FN>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<4096x448xf8E4M3FN>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7168xf4E2M1FN>, memref<128x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<128x4096xf16>)
  return
}

func.func @split_cluster(%a: memref<128x7168xf4E2M1FN>, %sfa: memref<128x448xf8E4M3FN>, %b: memref<4096x7168xf4E2M1FN>, %sfb: memref<4096x448xf8E4M3FN>, %c: memref<128x4096xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x7168xf4E2M1FN>, memref<128x448xf8E4M3FN>, memref<4096x7168xf4E2M1FN>, memref<4096x448xf8E4M3FN>) outs(%c : memref<128x4096xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>}
  return
}

func.func @b_tma_splits_wg2(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<128x128xf8E4M3FN>, %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<7168x128xf8E4M3FN>, %c: memref<128x7168xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<128x128xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<7168x128xf8E4M3FN>) outs(%c : memref<128x7168xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 10, producer = true, b_tma = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>}
  return
}
