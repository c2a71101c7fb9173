// RUN: nvfp4-opt %s | FileCheck %s
// Custom form -> generic form -> custom form prints the same IR.
// RUN: nvfp4-opt %s --mlir-print-op-generic | nvfp4-opt | FileCheck %s
// The generic form itself carries the properties.
// RUN: nvfp4-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @gemv
// CHECK: nvfp4.scaled_matmul ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<4x7168x2048xf4E2M1FN>, memref<4x7168x128xf8E4M3FN>, memref<4x1x2048xf4E2M1FN>, memref<4x1x128xf8E4M3FN>) outs(%{{.*}} : memref<4x7168x1xf16>)
// CHECK-NOT: scale_layout
// GENERIC-LABEL: sym_name = "gemv"
// GENERIC: "nvfp4.scaled_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{c_scales_layout = #nvfp4.scale_layout<plain>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>, sfa_layout = #nvfp4.scale_layout<plain>, sfb_layout = #nvfp4.scale_layout<plain>}>
func.func @gemv(%a: memref<4x7168x2048xf4E2M1FN>, %sfa: memref<4x7168x128xf8E4M3FN>,
                %b: memref<4x1x2048xf4E2M1FN>, %sfb: memref<4x1x128xf8E4M3FN>,
                %c: memref<4x7168x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<4x7168x2048xf4E2M1FN>, memref<4x7168x128xf8E4M3FN>, memref<4x1x2048xf4E2M1FN>, memref<4x1x128xf8E4M3FN>) outs(%c : memref<4x7168x1xf16>)
  return
}

// CHECK-LABEL: func.func @gemm_blocked
// CHECK: nvfp4.scaled_matmul
// CHECK-SAME: outs(%{{.*}} : memref<128x7168xbf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
func.func @gemm_blocked(%a: memref<128x2048xf4E2M1FN>, %sfa: memref<1x32x32x4x4xf8E4M3FN>,
                        %b: memref<7168x2048xf4E2M1FN>, %sfb: memref<56x32x32x4x4xf8E4M3FN>,
                        %c: memref<128x7168xbf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x2048xf4E2M1FN>, memref<1x32x32x4x4xf8E4M3FN>, memref<7168x2048xf4E2M1FN>, memref<56x32x32x4x4xf8E4M3FN>) outs(%c : memref<128x7168xbf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// Rows that are not a multiple of 128 pad to whole 128-row atoms; K/16 = 5
// scale columns pad to two 4-column atoms.
// CHECK-LABEL: func.func @gemm_padded_atoms
// CHECK: nvfp4.scaled_matmul {{.*}} memref<1x2x32x4x4xf8E4M3FN>{{.*}} outs(%{{.*}} : memref<100x8xf32>) {sfa_layout = #nvfp4.scale_layout<blocked>}
func.func @gemm_padded_atoms(%a: memref<100x80xf4E2M1FN>, %sfa: memref<1x2x32x4x4xf8E4M3FN>,
                             %b: memref<8x80xf4E2M1FN>, %sfb: memref<8x5xf8E4M3FN>,
                             %c: memref<100x8xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<100x80xf4E2M1FN>, memref<1x2x32x4x4xf8E4M3FN>, memref<8x80xf4E2M1FN>, memref<8x5xf8E4M3FN>) outs(%c : memref<100x8xf32>) {sfa_layout = #nvfp4.scale_layout<blocked>}
  return
}

// CHECK-LABEL: func.func @dual
// CHECK: nvfp4.scaled_dual_matmul ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<256x4096xf4E2M1FN>, memref<256x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>) outs(%{{.*}} : memref<256x3072xf16>)
// GENERIC-LABEL: sym_name = "dual"
// GENERIC: "nvfp4.scaled_dual_matmul"
func.func @dual(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x256xf8E4M3FN>,
                %b1: memref<3072x4096xf4E2M1FN>, %sfb1: memref<3072x256xf8E4M3FN>,
                %b2: memref<3072x4096xf4E2M1FN>, %sfb2: memref<3072x256xf8E4M3FN>,
                %c: memref<256x3072xf16>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x4096xf4E2M1FN>, memref<256x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>) outs(%c : memref<256x3072xf16>)
  return
}

// CHECK-LABEL: func.func @grouped
// CHECK: nvfp4.grouped_matmul ins({{.*}}, %{{.*}} : {{.*}}, memref<3xi32>)
// CHECK-SAME: {sfb_layout = #nvfp4.scale_layout<blocked>, size_hint = array<i64: 128, 384>}
// GENERIC-LABEL: sym_name = "grouped"
// GENERIC: "nvfp4.grouped_matmul"{{.*}}<{sfa_layout = #nvfp4.scale_layout<plain>, sfb_layout = #nvfp4.scale_layout<blocked>, size_hint = array<i64: 128, 384>}>
func.func @grouped(%a: memref<512x1536xf4E2M1FN>, %sfa: memref<512x96xf8E4M3FN>,
                   %b: memref<2x4096x1536xf4E2M1FN>, %sfb: memref<2x32x24x32x4x4xf8E4M3FN>,
                   %offsets: memref<3xi32>, %c: memref<512x4096xf16>) {
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : memref<512x1536xf4E2M1FN>, memref<512x96xf8E4M3FN>, memref<2x4096x1536xf4E2M1FN>, memref<2x32x24x32x4x4xf8E4M3FN>, memref<3xi32>) outs(%c : memref<512x4096xf16>) {size_hint = array<i64: 128, 384>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// CHECK-LABEL: func.func @problems
// CHECK: nvfp4.grouped_problems a(%{{.*}}, %{{.*}} : memref<96x128xf4E2M1FN>, memref<128x512xf4E2M1FN>) sfa({{.*}}) b({{.*}}) sfb({{.*}} : memref<1x2x32x4x4xf8E4M3FN>, memref<2x8x32x4x4xf8E4M3FN>) outs(%{{.*}}, %{{.*}} : memref<96x128xf16>, memref<128x256xbf16>) {sfb_layout = #nvfp4.scale_layout<blocked>}
// GENERIC-LABEL: sym_name = "problems"
// GENERIC: "nvfp4.grouped_problems"{{.*}}<{operandSegmentSizes = array<i32: 2, 2, 2, 2, 2>, sfa_layout = #nvfp4.scale_layout<plain>, sfb_layout = #nvfp4.scale_layout<blocked>}>
func.func @problems(%a0: memref<96x128xf4E2M1FN>, %a1: memref<128x512xf4E2M1FN>,
                    %sa0: memref<96x8xf8E4M3FN>, %sa1: memref<128x32xf8E4M3FN>,
                    %b0: memref<128x128xf4E2M1FN>, %b1: memref<256x512xf4E2M1FN>,
                    %sb0: memref<1x2x32x4x4xf8E4M3FN>, %sb1: memref<2x8x32x4x4xf8E4M3FN>,
                    %c0: memref<96x128xf16>, %c1: memref<128x256xbf16>) {
  nvfp4.grouped_problems a(%a0, %a1 : memref<96x128xf4E2M1FN>, memref<128x512xf4E2M1FN>)
      sfa(%sa0, %sa1 : memref<96x8xf8E4M3FN>, memref<128x32xf8E4M3FN>)
      b(%b0, %b1 : memref<128x128xf4E2M1FN>, memref<256x512xf4E2M1FN>)
      sfb(%sb0, %sb1 : memref<1x2x32x4x4xf8E4M3FN>, memref<2x8x32x4x4xf8E4M3FN>)
      outs(%c0, %c1 : memref<96x128xf16>, memref<128x256xbf16>) {sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// CHECK-LABEL: func.func @quantize
// CHECK: nvfp4.quantize ins(%{{.*}} : memref<2x128x256xbf16>) outs(%{{.*}}, %{{.*}} : memref<2x128x256xf4E2M1FN>, memref<2x1x4x32x4x4xf8E4M3FN>) {sf_layout = #nvfp4.scale_layout<blocked>}
// GENERIC-LABEL: sym_name = "quantize"
// GENERIC: "nvfp4.quantize"
func.func @quantize(%x: memref<2x128x256xbf16>, %q: memref<2x128x256xf4E2M1FN>,
                    %sf: memref<2x1x4x32x4x4xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<2x128x256xbf16>) outs(%q, %sf : memref<2x128x256xf4E2M1FN>, memref<2x1x4x32x4x4xf8E4M3FN>) {sf_layout = #nvfp4.scale_layout<blocked>}
  return
}

// CHECK-LABEL: func.func private @plan
// CHECK-SAME: #nvfp4.gemv_plan<warps_per_cta = 8, rows_per_warp = 2, bytes_per_thread = 32, unroll = 2>
func.func private @plan() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 8, rows_per_warp = 2, bytes_per_thread = 32, unroll = 2>}

// The split-K GEMM's CTA-level ops, with blocked scales.
// CHECK-LABEL: func.func @split_k_ops
// CHECK: nvfp4.gemm_tile ins(%{{.*}}, %{{.*}} : {{.*}}) weight(%{{.*}}, %{{.*}} : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%{{.*}} : {{.*}}) outs({{.*}}) partials(%{{.*}} : memref<131072xi8>) at m %{{.*}} n %{{.*}} batch %{{.*}} split %{{.*}} plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 2>> epilogue {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT: nvfp4.yield %[[ACC]] : f32
// CHECK-NEXT: } {sfa_layout = #nvfp4.scale_layout<blocked>}
// CHECK: nvfp4.sum_splits ins(%{{.*}} : memref<131072xi8>) outs(%{{.*}} : memref<128x128xf16>) at %{{.*}} splits 2
func.func @split_k_ops(%a: memref<128x256xf4E2M1FN>, %sfa: memref<1x4x32x4x4xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %p: memref<131072xi8>, %i: index) {
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) partials(%p : memref<131072xi8>) at m %i n %i batch %i split %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 } {sfa_layout = #nvfp4.scale_layout<blocked>}
  nvfp4.sum_splits ins(%p : memref<131072xi8>) outs(%c : memref<128x128xf16>) at %i splits 2
  return
}

// The sm_100a GEMM's scale pre-pass: plain scales blocked, K padded.
// CHECK-LABEL: func.func @block_scales
// CHECK: nvfp4.block_scales_tile ins(%{{.*}} : memref<200x40xf8E4M3FN>) outs(%{{.*}} : memref<2x12x32x4x4xf8E4M3FN>) at %{{.*}}
func.func @block_scales(%s: memref<200x40xf8E4M3FN>, %d: memref<2x12x32x4x4xf8E4M3FN>, %i: index) {
  nvfp4.block_scales_tile ins(%s : memref<200x40xf8E4M3FN>) outs(%d : memref<2x12x32x4x4xf8E4M3FN>) at %i
  return
}

// The host side of a tensor map: the buffer it describes, reinterpreted.
// CHECK-LABEL: func.func @tensor_map
// CHECK: nvfp4.tensor_map %{{.*}} : memref<4096xi8> -> !nvfp4.tensor_map<32x64xf16, box = [16, 64], swizzle = swizzle_128b>
// CHECK: nvfp4.tensor_map %{{.*}} : memref<64x256xf4E2M1FN> -> !nvfp4.tensor_map<64x128xi8, box = [64, 128], swizzle = swizzle_128b>
// CHECK: nvfp4.tensor_map %{{.*}} : memref<2x8x8xf32> -> !nvfp4.tensor_map<2x8x8xf32, box = [1, 8, 4], swizzle = none>
func.func @tensor_map(%w: memref<4096xi8>, %a: memref<64x256xf4E2M1FN>, %x: memref<2x8x8xf32>) -> (!nvfp4.tensor_map<32x64xf16, box = [16, 64], swizzle = swizzle_128b>, !nvfp4.tensor_map<64x128xi8, box = [64, 128], swizzle = swizzle_128b>, !nvfp4.tensor_map<2x8x8xf32, box = [1, 8, 4], swizzle = none>) {
  %0 = nvfp4.tensor_map %w : memref<4096xi8> -> !nvfp4.tensor_map<32x64xf16, box = [16, 64], swizzle = swizzle_128b>
  %1 = nvfp4.tensor_map %a : memref<64x256xf4E2M1FN> -> !nvfp4.tensor_map<64x128xi8, box = [64, 128], swizzle = swizzle_128b>
  %2 = nvfp4.tensor_map %x : memref<2x8x8xf32> -> !nvfp4.tensor_map<2x8x8xf32, box = [1, 8, 4], swizzle = none>
  return %0, %1, %2 : !nvfp4.tensor_map<32x64xf16, box = [16, 64], swizzle = swizzle_128b>, !nvfp4.tensor_map<64x128xi8, box = [64, 128], swizzle = swizzle_128b>, !nvfp4.tensor_map<2x8x8xf32, box = [1, 8, 4], swizzle = none>
}

// The pipeline-level ops of nvfp4-software-pipeline.
// CHECK-LABEL: func.func @pipeline_ops
// CHECK: %[[R:.*]] = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>
// CHECK: nvfp4.ring.fill %[[R]][%{{.*}}] from %{{.*}}[%{{.*}}, %{{.*}}] : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>, !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>
// CHECK: nvfp4.ring.acquire %[[R]][%{{.*}}] phase %{{.*}}
// CHECK: nvfp4.ring.wait %[[R]][%{{.*}}] phase %{{.*}}
// CHECK: nvfp4.ring.release %[[R]][%{{.*}}]
// CHECK: %[[B0:.*]], %[[B1:.*]], %[[S0:.*]], %[[S1:.*]] = nvfp4.wgmma.load_b ins({{.*}}) row %{{.*}} chunk %{{.*}} batch %{{.*}} {sfb_layout = #nvfp4.scale_layout<blocked>}
// CHECK: nvfp4.wgmma.decode_b %[[B0]], %[[B1]], %[[S0]], %[[S1]]
// CHECK: nvfp4.wgmma.mma
// CHECK: nvfp4.wgmma.decode_b %[[B0]], %[[B1]], %[[S0]], %[[S1]] {format = #nvfp4.scale_format<mxfp4>}
// CHECK: nvfp4.wgmma.mma {{.*}} {format = #nvfp4.scale_format<mxfp4>}
// CHECK: nvfp4.wgmma.reduce_k_groups %{{.*}} in %[[R]] groups 2 warpgroups 2
// CHECK: %{{.*}}, %{{.*}} = nvfp4.wgmma.reduce_splits %{{.*}} in %[[R]] splits 2 warpgroups 2
// CHECK: nvfp4.wgmma.store %{{.*}} outs(%{{.*}} : memref<64x256xf16>) partials(%{{.*}} : memref<131072xi8>) at m %{{.*}} row %{{.*}} batch %{{.*}} split %{{.*}} : vector<32xf32>
// GENERIC-LABEL: sym_name = "pipeline_ops"
// CHECK: nvfp4.wgmma.store %{{.*}} outs(%{{.*}} : memref<64x256xf16>) at m %{{.*}} row %{{.*}} batch %{{.*}} staged in %[[R]] at 0 warpgroups 2 : vector<32xf32>, !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>
// GENERIC: "nvfp4.wgmma.store"({{.*}}) <{c_scales_layout = #nvfp4.scale_layout<plain>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 0>}>
// GENERIC: "nvfp4.wgmma.store"({{.*}}) <{c_scales_layout = #nvfp4.scale_layout<plain>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1>, staging_offset = 0 : i64, warpgroups = 2 : i64}>
func.func @pipeline_ops(%b: memref<256x512xf4E2M1FN>, %sfb: memref<2x8x32x4x4xf8E4M3FN>, %c: memref<64x256xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>, %p: memref<131072xi8>, %i: i32, %o: i64, %l: index) {
  %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>
  nvfp4.ring.fill %r[%i] from %t[%i, %i] : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>, !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>
  nvfp4.ring.acquire %r[%i] phase %i : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>
  nvfp4.ring.wait %r[%i] phase %i : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>
  nvfp4.ring.release %r[%i] : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>
  %b0, %b1, %s0, %s1 = nvfp4.wgmma.load_b ins(%b, %sfb : memref<256x512xf4E2M1FN>, memref<2x8x32x4x4xf8E4M3FN>) row %i chunk %i batch %l {sfb_layout = #nvfp4.scale_layout<blocked>}
  %f = nvfp4.wgmma.decode_b %b0, %b1, %s0, %s1
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %acc = nvfp4.wgmma.mma %zero, %f, %r[%i] : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>, vector<32xf32>
  %fmx = nvfp4.wgmma.decode_b %b0, %b1, %s0, %s1 {format = #nvfp4.scale_format<mxfp4>}
  %accmx = nvfp4.wgmma.mma %zero, %fmx, %r[%i] {format = #nvfp4.scale_format<mxfp4>} : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>, vector<32xf32>
  %sum = nvfp4.wgmma.reduce_k_groups %acc in %r groups 2 warpgroups 2 : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>, vector<32xf32>
  %first, %splits = nvfp4.wgmma.reduce_splits %sum in %r splits 2 warpgroups 2 : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>, vector<32xf32>
  nvfp4.wgmma.store %splits outs(%c : memref<64x256xf16>) partials(%p : memref<131072xi8>) at m %i row %i batch %l split %l : vector<32xf32>
  nvfp4.wgmma.store %splits outs(%c : memref<64x256xf16>) at m %i row %i batch %l staged in %r at 0 warpgroups 2 : vector<32xf32>, !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 2, scratch_bytes = 65536>
  return
}

// A TMA copy into part of a slot, kept in L2 longer than other lines.
// CHECK-LABEL: func.func @ring_copy
// CHECK: nvfp4.ring.copy %{{.*}}[%{{.*}}] at 1024 from %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] keep_in_l2 : !nvfp4.ring<stages = 4, slot_bytes = 36864, consumers = 1>
// CHECK: nvfp4.ring.copy %{{.*}}[%{{.*}}] at 0 from %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !nvfp4.ring
func.func @ring_copy(%slot: i32, %map: !nvfp4.tensor_map<1x128x256xi8, box = [1, 128, 128], swizzle = swizzle_128b>, %c0: i32) {
  %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 36864, consumers = 1>
  nvfp4.ring.copy %ring[%slot] at 1024 from %map[%c0, %c0, %c0] keep_in_l2 : !nvfp4.ring<stages = 4, slot_bytes = 36864, consumers = 1>, !nvfp4.tensor_map<1x128x256xi8, box = [1, 128, 128], swizzle = swizzle_128b>
  nvfp4.ring.copy %ring[%slot] at 0 from %map[%c0, %c0, %c0] : !nvfp4.ring<stages = 4, slot_bytes = 36864, consumers = 1>, !nvfp4.tensor_map<1x128x256xi8, box = [1, 128, 128], swizzle = swizzle_128b>
  return
}

// A split exchange in the A tiles of the ring's last slots (b_tma).
// CHECK-LABEL: func.func @exchange_in_a_tiles
// CHECK: nvfp4.wgmma.reduce_scatter_splits %{{.*}} in %{{.*}} splits 2 warpgroups 1 a_tiles 16384 : !nvfp4.ring<stages = 6, slot_bytes = 19456, consumers = 4>, vector<64xf32> -> vector<32xf32>
// GENERIC-LABEL: sym_name = "exchange_in_a_tiles"
// GENERIC: "nvfp4.wgmma.reduce_scatter_splits"({{.*}}) <{a_tiles = 16384 : i64, splits = 2 : i64, warpgroups = 1 : i64}>
func.func @exchange_in_a_tiles(%acc: vector<64xf32>, %r: !nvfp4.ring<stages = 6, slot_bytes = 19456, consumers = 4>) {
  %m, %p = nvfp4.wgmma.reduce_scatter_splits %acc in %r splits 2 warpgroups 1 a_tiles 16384 : !nvfp4.ring<stages = 6, slot_bytes = 19456, consumers = 4>, vector<64xf32> -> vector<32xf32>
  return
}

// An NVFP4 C: its scales (blocked here) and per-tensor scale.
// CHECK-LABEL: func.func @dual_nvfp4_out
// CHECK: nvfp4.scaled_dual_matmul ins({{.*}}) outs(%{{.*}} : memref<256x3072xf4E2M1FN>) c_scales(%{{.*}} : memref<2x48x32x4x4xf8E4M3FN>) c_global_scale(%{{.*}} : memref<1xf32>) {c_scales_layout = #nvfp4.scale_layout<blocked>}
// GENERIC-LABEL: sym_name = "dual_nvfp4_out"
// GENERIC: "nvfp4.scaled_dual_matmul"({{.*}}) <{c_scales_layout = #nvfp4.scale_layout<blocked>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1>
func.func @dual_nvfp4_out(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x256xf8E4M3FN>,
                %b1: memref<3072x4096xf4E2M1FN>, %sfb1: memref<3072x256xf8E4M3FN>,
                %b2: memref<3072x4096xf4E2M1FN>, %sfb2: memref<3072x256xf8E4M3FN>,
                %c: memref<256x3072xf4E2M1FN>, %sfc: memref<2x48x32x4x4xf8E4M3FN>,
                %g: memref<1xf32>) {
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<256x4096xf4E2M1FN>, memref<256x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>) outs(%c : memref<256x3072xf4E2M1FN>) c_scales(%sfc : memref<2x48x32x4x4xf8E4M3FN>) c_global_scale(%g : memref<1xf32>) {c_scales_layout = #nvfp4.scale_layout<blocked>}
  return
}

// An MXFP4 C: e8m0 scales (blocked here) rounded up, no per-tensor
// scale; the operands NVFP4 (C's format is its own).
// CHECK-LABEL: func.func @gemm_mxfp4_out
// CHECK: nvfp4.scaled_matmul ins({{.*}}) outs(%{{.*}} : memref<256x3072xf4E2M1FN>) c_scales(%{{.*}} : memref<2x24x32x4x4xf8E8M0FNU>) {c_scale_rounding = #nvfp4.scale_rounding<rceil>, c_scales_layout = #nvfp4.scale_layout<blocked>}
// GENERIC-LABEL: sym_name = "gemm_mxfp4_out"
// GENERIC: "nvfp4.scaled_matmul"({{.*}}) <{c_scale_rounding = #nvfp4.scale_rounding<rceil>, c_scales_layout = #nvfp4.scale_layout<blocked>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0>
func.func @gemm_mxfp4_out(%a: memref<256x4096xf4E2M1FN>, %sfa: memref<256x256xf8E4M3FN>,
                %b: memref<3072x4096xf4E2M1FN>, %sfb: memref<3072x256xf8E4M3FN>,
                %c: memref<256x3072xf4E2M1FN>, %sfc: memref<2x24x32x4x4xf8E8M0FNU>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<256x4096xf4E2M1FN>, memref<256x256xf8E4M3FN>, memref<3072x4096xf4E2M1FN>, memref<3072x256xf8E4M3FN>) outs(%c : memref<256x3072xf4E2M1FN>) c_scales(%sfc : memref<2x24x32x4x4xf8E8M0FNU>) {c_scale_rounding = #nvfp4.scale_rounding<rceil>, c_scales_layout = #nvfp4.scale_layout<blocked>}
  return
}

// An epilogue other than the identity: elementwise f32 ops on the
// accumulator's element (the pipeline applies them to whole fragments).
// CHECK-LABEL: func.func @epilogue_ops
// CHECK: epilogue {
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[MUL:.*]] = arith.mulf %[[ACC]], %[[TWO]] : f32
// CHECK-NEXT: nvfp4.yield %[[MUL]] : f32
func.func @epilogue_ops(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue {
  ^bb0(%acc: f32):
    %two = arith.constant 2.0 : f32
    %x = arith.mulf %acc, %two : f32
    nvfp4.yield %x : f32
  }
  return
}
