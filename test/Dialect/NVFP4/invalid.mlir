// RUN: nvfp4-opt %s -split-input-file -verify-diagnostics

// One case per verifier message of the nvfp4 ops and attributes.

func.func @dynamic_shape(%a: memref<?x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'a' to have a static shape, but got 'memref<?x256xf4E2M1FN>'}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<?x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @strided(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16, strided<[128, 1]>>) {
  // expected-error @+1 {{expects 'c' to have an identity layout (dense, row-major), but got 'memref<128x64xf16, strided<[128, 1]>>'}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16, strided<[128, 1]>>)
  return
}

// -----

func.func @rank(%a: memref<2x1x128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'a' to have rank 2 ([M, K]) or 3 ([L, M, K]), but got rank 4}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x1x128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @rank_b(%a: memref<1x128x256xf4E2M1FN>, %sfa: memref<1x128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<1x128x64xf16>) {
  // expected-error @+1 {{expects 'b' to have rank 3 like 'a', but got rank 2}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x128x256xf4E2M1FN>, memref<1x128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<1x128x64xf16>)
  return
}

// -----

func.func @batch(%a: memref<2x128x256xf4E2M1FN>, %sfa: memref<2x128x16xf8E4M3FN>, %b: memref<3x1x256xf4E2M1FN>, %sfb: memref<3x1x16xf8E4M3FN>, %c: memref<2x128x1xf16>) {
  // expected-error @+1 {{expects 'b' to have batch size 2 like 'a', but got 3}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x128x256xf4E2M1FN>, memref<2x128x16xf8E4M3FN>, memref<3x1x256xf4E2M1FN>, memref<3x1x16xf8E4M3FN>) outs(%c : memref<2x128x1xf16>)
  return
}

// -----

func.func @k_mismatch(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x512xf4E2M1FN>, %sfb: memref<64x32xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'b' to have K = 256 like 'a', but got 512}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @k_multiple(%a: memref<128x40xf4E2M1FN>, %sfa: memref<128x2xf8E4M3FN>, %b: memref<64x40xf4E2M1FN>, %sfb: memref<64x2xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects K (40) to be a multiple of 16, the NVFP4 scale block size}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x40xf4E2M1FN>, memref<128x2xf8E4M3FN>, memref<64x40xf4E2M1FN>, memref<64x2xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @plain_scales(%a: memref<1x128x256xf4E2M1FN>, %sfa: memref<1x128x8xf8E4M3FN>, %b: memref<1x1x256xf4E2M1FN>, %sfb: memref<1x1x16xf8E4M3FN>, %c: memref<1x128x1xf16>) {
  // expected-error @+1 {{expects 'sfa' in the plain scale layout to have shape [1, 128, 16] ([L, M, K/16]), but got [1, 128, 8]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x128x256xf4E2M1FN>, memref<1x128x8xf8E4M3FN>, memref<1x1x256xf4E2M1FN>, memref<1x1x16xf8E4M3FN>) outs(%c : memref<1x128x1xf16>)
  return
}

// -----

func.func @blocked_scales(%a: memref<200x512xf4E2M1FN>, %sfa: memref<2x8x32x4x4xf8E4M3FN>, %b: memref<64x512xf4E2M1FN>, %sfb: memref<64x32xf8E4M3FN>, %c: memref<200x64xf16>) {
  // expected-error @+1 {{expects 'sfb' in the blocked scale layout to have shape [1, 8, 32, 4, 4] ([ceil(N/128), ceil(K/64), 32, 4, 4]), but got [64, 32]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<200x512xf4E2M1FN>, memref<2x8x32x4x4xf8E4M3FN>, memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) outs(%c : memref<200x64xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

func.func @blocked_sfa(%a: memref<200x512xf4E2M1FN>, %sfa: memref<1x8x32x4x4xf8E4M3FN>, %b: memref<64x512xf4E2M1FN>, %sfb: memref<64x32xf8E4M3FN>, %c: memref<200x64xf16>) {
  // expected-error @+1 {{expects 'sfa' in the blocked scale layout to have shape [2, 8, 32, 4, 4] ([ceil(M/128), ceil(K/64), 32, 4, 4]), but got [1, 8, 32, 4, 4]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<200x512xf4E2M1FN>, memref<1x8x32x4x4xf8E4M3FN>, memref<64x512xf4E2M1FN>, memref<64x32xf8E4M3FN>) outs(%c : memref<200x64xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

func.func @out_shape(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x32xf16>) {
  // expected-error @+1 {{expects 'c' to have shape [128, 64] ([M, N]), but got [128, 32]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x32xf16>)
  return
}

// -----

func.func @out_shape_batched(%a: memref<4x128x256xf4E2M1FN>, %sfa: memref<4x128x16xf8E4M3FN>, %b: memref<4x1x256xf4E2M1FN>, %sfb: memref<4x1x16xf8E4M3FN>, %c: memref<4x128xf16>) {
  // expected-error @+1 {{expects 'c' to have shape [4, 128, 1] ([L, M, N]), but got [4, 128]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<4x128x256xf4E2M1FN>, memref<4x128x16xf8E4M3FN>, memref<4x1x256xf4E2M1FN>, memref<4x1x16xf8E4M3FN>) outs(%c : memref<4x128xf16>)
  return
}

// -----

func.func @data_type(%a: memref<128x256xf8E4M3FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{operand #0 must be memref of f4E2M1FN type values}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf8E4M3FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @scale_type(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E5M2>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{operand #1 must be memref of f8E4M3FN type or f8E8M0FNU type values}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E5M2>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @out_type(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xi32>) {
  // expected-error @+1 {{operand #4 must be memref of 16-bit float or bfloat16 type or 32-bit float or f4E2M1FN type values}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xi32>)
  return
}

// -----

func.func @bad_layout(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+2 {{expected ::mlir::nvfp4::ScaleLayout to be one of: plain, blocked}}
  // expected-error @+1 {{failed to parse NVFP4_ScaleLayoutAttr parameter 'value'}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>) {sfa_layout = #nvfp4.scale_layout<swizzled>}
  return
}

// -----

func.func @dual_b_shapes(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b1: memref<64x256xf4E2M1FN>, %sfb1: memref<64x16xf8E4M3FN>, %b2: memref<32x256xf4E2M1FN>, %sfb2: memref<32x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'b1' and 'b2' to have the same shape, but got [64, 256] and [32, 256]}}
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>, memref<32x256xf4E2M1FN>, memref<32x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @dual_sfb2(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b1: memref<64x256xf4E2M1FN>, %sfb1: memref<64x16xf8E4M3FN>, %b2: memref<64x256xf4E2M1FN>, %sfb2: memref<64x8xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'sfb2' in the plain scale layout to have shape [64, 16] ([N, K/16]), but got [64, 8]}}
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x8xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @problems_none() {
  // expected-error @+1 {{expects at least one problem}}
  "nvfp4.grouped_problems"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0>, sfa_layout = #nvfp4.scale_layout<plain>, sfb_layout = #nvfp4.scale_layout<plain>}> : () -> ()
  return
}

// -----

func.func @problems_list_length(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects one 'b' per problem (2, as many as 'a'), but got 1}}
  nvfp4.grouped_problems a(%a, %a : memref<128x256xf4E2M1FN>, memref<128x256xf4E2M1FN>) sfa(%sfa, %sfa : memref<128x16xf8E4M3FN>, memref<128x16xf8E4M3FN>) b(%b : memref<64x256xf4E2M1FN>) sfb(%sfb, %sfb : memref<64x16xf8E4M3FN>, memref<64x16xf8E4M3FN>) outs(%c, %c : memref<128x64xf16>, memref<128x64xf16>)
  return
}

// -----

func.func @problems_a_rank(%a: memref<1x128x256xf4E2M1FN>, %sfa: memref<1x128x16xf8E4M3FN>, %b: memref<1x64x256xf4E2M1FN>, %sfb: memref<1x64x16xf8E4M3FN>, %c: memref<1x128x64xf16>) {
  // expected-error @+1 {{expects 'a[0]' to have rank 2 ([M, K]: each problem is one product), but got rank 3}}
  nvfp4.grouped_problems a(%a : memref<1x128x256xf4E2M1FN>) sfa(%sfa : memref<1x128x16xf8E4M3FN>) b(%b : memref<1x64x256xf4E2M1FN>) sfb(%sfb : memref<1x64x16xf8E4M3FN>) outs(%c : memref<1x128x64xf16>)
  return
}

// -----

func.func @problems_b_k(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %a1: memref<64x512xf4E2M1FN>, %sfa1: memref<64x32xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>, %c1: memref<64x64xf16>) {
  // expected-error @+1 {{expects 'b[1]' to have K = 512 like 'a[1]', but got 256}}
  nvfp4.grouped_problems a(%a, %a1 : memref<128x256xf4E2M1FN>, memref<64x512xf4E2M1FN>) sfa(%sfa, %sfa1 : memref<128x16xf8E4M3FN>, memref<64x32xf8E4M3FN>) b(%b, %b : memref<64x256xf4E2M1FN>, memref<64x256xf4E2M1FN>) sfb(%sfb, %sfb : memref<64x16xf8E4M3FN>, memref<64x16xf8E4M3FN>) outs(%c, %c1 : memref<128x64xf16>, memref<64x64xf16>)
  return
}

// -----

func.func @problems_sfb_shape(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %b1: memref<32x256xf4E2M1FN>, %c: memref<128x64xf16>, %c1: memref<128x32xf16>) {
  // expected-error @+1 {{expects 'sfb[1]' in the plain scale layout to have shape [32, 16] ([N, K/16]), but got [64, 16]}}
  nvfp4.grouped_problems a(%a, %a : memref<128x256xf4E2M1FN>, memref<128x256xf4E2M1FN>) sfa(%sfa, %sfa : memref<128x16xf8E4M3FN>, memref<128x16xf8E4M3FN>) b(%b, %b1 : memref<64x256xf4E2M1FN>, memref<32x256xf4E2M1FN>) sfb(%sfb, %sfb : memref<64x16xf8E4M3FN>, memref<64x16xf8E4M3FN>) outs(%c, %c1 : memref<128x64xf16>, memref<128x32xf16>)
  return
}

// -----

func.func @problems_c_shape(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x32xf16>) {
  // expected-error @+1 {{expects 'c[0]' to have shape [128, 64] ([M, N]), but got [128, 32]}}
  nvfp4.grouped_problems a(%a : memref<128x256xf4E2M1FN>) sfa(%sfa : memref<128x16xf8E4M3FN>) b(%b : memref<64x256xf4E2M1FN>) sfb(%sfb : memref<64x16xf8E4M3FN>) outs(%c : memref<128x32xf16>)
  return
}

// -----

func.func @problems_mixed_format(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %sfa1: memref<128x8xf8E8M0FNU>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects every block scale in one format, but got NVFP4 scales}}
  nvfp4.grouped_problems a(%a, %a : memref<128x256xf4E2M1FN>, memref<128x256xf4E2M1FN>) sfa(%sfa, %sfa1 : memref<128x16xf8E4M3FN>, memref<128x8xf8E8M0FNU>) b(%b, %b : memref<64x256xf4E2M1FN>, memref<64x256xf4E2M1FN>) sfb(%sfb, %sfb : memref<64x16xf8E4M3FN>, memref<64x16xf8E4M3FN>) outs(%c, %c : memref<128x64xf16>, memref<128x64xf16>)
  return
}

// -----

func.func @problems_shared_c(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'c[0]' to be an operand of its own (the problems run in any order), but it is also operand #9}}
  nvfp4.grouped_problems a(%a, %a : memref<128x256xf4E2M1FN>, memref<128x256xf4E2M1FN>) sfa(%sfa, %sfa : memref<128x16xf8E4M3FN>, memref<128x16xf8E4M3FN>) b(%b, %b : memref<64x256xf4E2M1FN>, memref<64x256xf4E2M1FN>) sfb(%sfb, %sfb : memref<64x16xf8E4M3FN>, memref<64x16xf8E4M3FN>) outs(%c, %c : memref<128x64xf16>, memref<128x64xf16>)
  return
}

// -----

func.func @problems_k(%a: memref<128x40xf4E2M1FN>, %sfa: memref<128x2xf8E4M3FN>, %b: memref<64x40xf4E2M1FN>, %sfb: memref<64x2xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects K of problem 0 (40) to be a multiple of 16, the NVFP4 scale block size}}
  nvfp4.grouped_problems a(%a : memref<128x40xf4E2M1FN>) sfa(%sfa : memref<128x2xf8E4M3FN>) b(%b : memref<64x40xf4E2M1FN>) sfb(%sfb : memref<64x2xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_groups_bound(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<1025x64x256xf4E2M1FN>, %sfb: memref<1025x64x16xf8E4M3FN>, %o: memref<1026xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects at most 1024 groups (the kernel walks every group's offset to find its tile), but 'b' has 1025}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<1025x64x256xf4E2M1FN>, memref<1025x64x16xf8E4M3FN>, memref<1026xi32>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_too_many_groups(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2147483648x64x256xf4E2M1FN>, %sfb: memref<2147483648x64x16xf8E4M3FN>, %o: memref<2147483649xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects at most 1024 groups (the kernel walks every group's offset to find its tile), but 'b' has 2147483648}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2147483648x64x256xf4E2M1FN>, memref<2147483648x64x16xf8E4M3FN>, memref<2147483649xi32>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_offsets_length(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<2xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'offsets' to hold G + 1 = 3 row offsets (one more than 'b' has groups), but it holds 2}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<2xi32>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_offsets_type(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<3xi64>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{operand #4 must be 1D memref of 32-bit signless integer values}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<3xi64>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_a_rank(%a: memref<1x128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'a' to have rank 2 ([Mmax, K], the groups' rows stacked), but got rank 3}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<1x128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_b_rank(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'b' to have rank 3 ([G, N, K]), but got rank 2}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_hint_count(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'size_hint' to give one size per group (2), but it gives 3}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>) {size_hint = array<i64: 40, 40, 40>}
  return
}

// -----

func.func @grouped_hint_negative(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'size_hint' to hold sizes >= 0, but group 1 has -1}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>) {size_hint = array<i64: 40, -1>}
  return
}

// -----

func.func @grouped_hint_bound(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // A bound smaller than the hint.
  // expected-error @+1 {{expects the sizes of 'size_hint' to sum to at most the rows of 'a' (128), but they sum to 140}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>) {size_hint = array<i64: 100, 40>}
  return
}

// -----

func.func @grouped_k(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x512xf4E2M1FN>, %sfb: memref<2x64x32xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'b' to have K = 256 like 'a', but got 512}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x512xf4E2M1FN>, memref<2x64x32xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_sfa_blocked(%a: memref<128x256xf4E2M1FN>, %sfa: memref<1x4x32x4x4xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'sfa' in the plain scale layout: a group starts at any row decided at run time}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

func.func @grouped_sfb(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'sfb' in the plain scale layout to have shape [2, 64, 16] ([G, N, K/16]), but got [64, 16]}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @grouped_hint_size(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %o: memref<3xi32>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects every size of 'size_hint' to be at most the rows of 'a' (128), but group 1 has 9223372036854775807}}
  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %o : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>, memref<3xi32>) outs(%c : memref<128x64xf16>) {size_hint = array<i64: 1, 9223372036854775807>}
  return
}

// -----

// A grouped GEMM's tile needs the ring (its lowering without one knows no
// groups).
func.func @grouped_tile_stages(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<2x64x16xf8E4M3FN>, %c: memref<64x64xf16>, %i: index) {
  // expected-error @+1 {{has a grouped GEMM's tile, which takes a plan with a ring (stages > 0) and without split-K}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) weight(%b, %sfb : memref<2x64x256xf4E2M1FN>, memref<2x64x16xf8E4M3FN>) outs(%c : memref<64x64xf16>) at m %i n %i batch %i group %i rows %i to %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 32>> epilogue {
  ^bb0(%x: f32):
    nvfp4.yield %x : f32
  }
  return
}

// -----

func.func @grouped_tile_scales(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<2x64x256xf4E2M1FN>, %sfb: memref<1x64x16xf8E4M3FN>, %c: memref<64x64xf16>, %t: !nvfp4.tensor_map<384x64xf16, box = [32, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects the weights' scales to lead with the weights' 2 groups}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) weight(%b, %sfb : memref<2x64x256xf4E2M1FN>, memref<1x64x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<384x64xf16, box = [32, 64], swizzle = swizzle_128b>) outs(%c : memref<64x64xf16>) at m %i n %i batch %i group %i rows %i to %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 32, stages = 4, producer = true>> epilogue {
  ^bb0(%x: f32):
    nvfp4.yield %x : f32
  }
  return
}

// -----

func.func @quantize_rank(%x: memref<256xf32>, %q: memref<256xf4E2M1FN>, %sf: memref<16xf8E4M3FN>) {
  // expected-error @+1 {{expects 'x' to have rank 2 ([R, K]) or 3 ([L, R, K]), but got rank 1}}
  nvfp4.quantize ins(%x : memref<256xf32>) outs(%q, %sf : memref<256xf4E2M1FN>, memref<16xf8E4M3FN>)
  return
}

// -----

func.func @quantize_k(%x: memref<4x24xf32>, %q: memref<4x24xf4E2M1FN>, %sf: memref<4x1xf8E4M3FN>) {
  // expected-error @+1 {{expects K (24) to be a multiple of 16, the NVFP4 scale block size}}
  nvfp4.quantize ins(%x : memref<4x24xf32>) outs(%q, %sf : memref<4x24xf4E2M1FN>, memref<4x1xf8E4M3FN>)
  return
}

// -----

func.func @quantize_q(%x: memref<4x32xf16>, %q: memref<4x64xf4E2M1FN>, %sf: memref<4x2xf8E4M3FN>) {
  // expected-error @+1 {{expects 'q' to have the shape of 'x' [4, 32], but got [4, 64]}}
  nvfp4.quantize ins(%x : memref<4x32xf16>) outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x2xf8E4M3FN>)
  return
}

// -----

func.func @quantize_sf(%x: memref<2x4x32xbf16>, %q: memref<2x4x32xf4E2M1FN>, %sf: memref<2x1x1x32x4x4xf8E4M3FN>) {
  // expected-error @+1 {{expects 'sf' in the plain scale layout to have shape [2, 4, 2] ([L, R, K/16]), but got [2, 1, 1, 32, 4, 4]}}
  nvfp4.quantize ins(%x : memref<2x4x32xbf16>) outs(%q, %sf : memref<2x4x32xf4E2M1FN>, memref<2x1x1x32x4x4xf8E4M3FN>)
  return
}

// -----

func.func @quantize_in_type(%x: memref<4x32xi8>, %q: memref<4x32xf4E2M1FN>, %sf: memref<4x2xf8E4M3FN>) {
  // expected-error @+1 {{operand #0 must be memref of 32-bit float or 16-bit float or bfloat16 type values}}
  nvfp4.quantize ins(%x : memref<4x32xi8>) outs(%q, %sf : memref<4x32xf4E2M1FN>, memref<4x2xf8E4M3FN>)
  return
}

// -----

func.func @quantize_global_shape(%x: memref<4x32xf32>, %g: memref<2xf32>, %q: memref<4x32xf4E2M1FN>, %sf: memref<4x2xf8E4M3FN>) {
  // expected-error @+1 {{expects 'global_scale' to hold one f32 (memref<1xf32>), but got 'memref<2xf32>'}}
  nvfp4.quantize ins(%x : memref<4x32xf32>) global_scale(%g : memref<2xf32>) outs(%q, %sf : memref<4x32xf4E2M1FN>, memref<4x2xf8E4M3FN>)
  return
}

// -----

func.func @quantize_global_strided_sf(%x: memref<4x32xf32>, %g: memref<1xf32>, %q: memref<4x32xf4E2M1FN>, %sf: memref<4x2xf8E4M3FN, strided<[4, 1]>>) {
  // expected-error @+1 {{expects 'sf' to have an identity layout (dense, row-major), but got 'memref<4x2xf8E4M3FN, strided<[4, 1]>>'}}
  nvfp4.quantize ins(%x : memref<4x32xf32>) global_scale(%g : memref<1xf32>) outs(%q, %sf : memref<4x32xf4E2M1FN>, memref<4x2xf8E4M3FN, strided<[4, 1]>>)
  return
}

// -----

func.func @quantize_global_type(%x: memref<4x32xf32>, %g: memref<1xf16>, %q: memref<4x32xf4E2M1FN>, %sf: memref<4x2xf8E4M3FN>) {
  // expected-error @+1 {{operand #1 must be}}
  nvfp4.quantize ins(%x : memref<4x32xf32>) global_scale(%g : memref<1xf16>) outs(%q, %sf : memref<4x32xf4E2M1FN>, memref<4x2xf8E4M3FN>)
  return
}

// -----

func.func @quantize_tile_blocks(%x: memref<4x48xf32>, %q: memref<4x48xf4E2M1FN>, %sf: memref<4x3xf8E4M3FN>, %i: index) {
  // expected-error @+1 {{expects the rows' 3 blocks of 16 values to be a multiple of the plan's blocks_per_thread (2)}}
  nvfp4.quantize_tile ins(%x : memref<4x48xf32>) outs(%q, %sf : memref<4x48xf4E2M1FN>, memref<4x3xf8E4M3FN>) at %i plan <warps_per_cta = 8, blocks_per_thread = 2>
  return
}

// -----

// expected-error @+1 {{expects blocks_per_thread to be 1, 2 or 4, but got 3}}
func.func private @quantize_plan_blocks() attributes {plan = #nvfp4.quantize_plan<warps_per_cta = 8, blocks_per_thread = 3>}

// -----

// expected-error @+1 {{expects warps_per_cta to be in [1, 32], but got 0}}
func.func private @quantize_plan_warps() attributes {plan = #nvfp4.quantize_plan<warps_per_cta = 0, blocks_per_thread = 1>}

// -----

// expected-error @+1 {{expects bytes_per_thread to be 16 or 32 (whole 16-byte vector loads of whole 16-value blocks), but got 8}}
func.func private @plan_bytes() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 8, unroll = 2>}

// -----

// expected-error @+1 {{expects warps_per_cta in [1, 32], but got 0}}
func.func private @plan_warps() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 0, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2>}

// -----

// expected-error @+1 {{expects rows_per_warp in [1, 8], but got 9}}
func.func private @plan_rows() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 9, bytes_per_thread = 16, unroll = 2>}

// -----

// expected-error @+1 {{expects unroll in [1, 16], but got 17}}
func.func private @plan_unroll() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 17>}

// -----

// expected-error @+1 {{expects k_split to divide warps_per_cta (4), but got 3}}
func.func private @plan_split() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, k_split = 3>}

// -----

// expected-error @+1 {{expects row_groups >= 1, but got 0}}
func.func private @plan_groups() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, row_groups = 0>}

// -----

// expected-error @+1 {{expects prefetch_distance in [1, 4], but got 5}}
func.func private @plan_distance() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1, prefetch_distance = 5>}

// -----

// expected-error @+1 {{expects prefetch_distance = 1 (unused) with prefetch = false, but got 2}}
func.func private @plan_distance_unused() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1, prefetch = false, prefetch_distance = 2>}

// -----

// expected-error @+1 {{expects prefetch_distance = 1 (unused) with the shared-memory ring (stages = 3), but got 2}}
func.func private @plan_distance_ring() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1, stage_b = true, stages = 3, prefetch_distance = 2>}

// -----

// expected-error @+1 {{expects prefetch = true with stages = 3 (the ring is a software pipeline)}}
func.func private @plan_ring_no_prefetch() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1, stage_b = true, prefetch = false, stages = 3>}

// -----

// expected-error @+1 {{expects stages to be 0 (register pipeline) or in [2, 8] (shared-memory ring), but got 1}}
func.func private @plan_stages() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, stage_b = true, stages = 1>}

// -----

// expected-error @+1 {{expects stage_b = true with stages = 3 (the ring streams A only)}}
func.func private @plan_stages_b() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, stages = 3>}

// -----

// expected-error @+1 {{expects k_split = 1 with stages = 3, but got 2}}
func.func private @plan_stages_split() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, stage_b = true, k_split = 2, stages = 3>}

// -----

func.func @tile_ring(%a: memref<1x8x3072xf4E2M1FN>, %sfa: memref<1x8x192xf8E4M3FN>, %b: memref<1x1x3072xf4E2M1FN>, %sfb: memref<1x1x192xf8E4M3FN>, %c: memref<1x8x1xf16>, %row: index, %l: index) {
  // expected-error @+1 {{expects rows of whole ring slots with stages = 3: K / 2 (1536 bytes) must be a multiple of 1024 (32 * bytes_per_thread * unroll)}}
  nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x8x3072xf4E2M1FN>, memref<1x8x192xf8E4M3FN>, memref<1x1x3072xf4E2M1FN>, memref<1x1x192xf8E4M3FN>) outs(%c : memref<1x8x1xf16>) rows %row batch %l plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, stage_b = true, stages = 3>
  return
}

// -----

func.func @tile_k(%a: memref<1x8x96xf4E2M1FN>, %sfa: memref<1x8x6xf8E4M3FN>, %b: memref<1x1x96xf4E2M1FN>, %sfb: memref<1x1x6xf8E4M3FN>, %c: memref<1x8x1xf16>, %row: index, %l: index) {
  // expected-error @+1 {{expects K (96) to be a multiple of 64, the GEMV kernels' load granule}}
  nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x8x96xf4E2M1FN>, memref<1x8x6xf8E4M3FN>, memref<1x1x96xf4E2M1FN>, memref<1x1x6xf8E4M3FN>) outs(%c : memref<1x8x1xf16>) rows %row batch %l plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>
  return
}

// -----

func.func @tile_n(%a: memref<1x8x64xf4E2M1FN>, %sfa: memref<1x8x4xf8E4M3FN>, %b: memref<1x2x64xf4E2M1FN>, %sfb: memref<1x2x4xf8E4M3FN>, %c: memref<1x8x2xf16>, %row: index, %l: index) {
  // expected-error @+1 {{expects 'b' to hold one row (N = 1), but got 2}}
  nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<1x8x64xf4E2M1FN>, memref<1x8x4xf8E4M3FN>, memref<1x2x64xf4E2M1FN>, memref<1x2x4xf8E4M3FN>) outs(%c : memref<1x8x2xf16>) rows %row batch %l plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1>
  return
}

// -----

// Zero-sized dimensions: nothing to compute or launch.
func.func @zero_k(%a: memref<1x8x0xf4E2M1FN>, %sfa: memref<1x8x0xf8E4M3FN>, %b: memref<1x1x0xf4E2M1FN>, %sfb: memref<1x1x0xf8E4M3FN>, %c: memref<1x8x1xf16>) {
  // expected-error @+1 {{expects every dimension of 'a' to be at least 1 (an empty problem has nothing to compute or launch), but got 'memref<1x8x0xf4E2M1FN>'}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x8x0xf4E2M1FN>, memref<1x8x0xf8E4M3FN>, memref<1x1x0xf4E2M1FN>, memref<1x1x0xf8E4M3FN>) outs(%c : memref<1x8x1xf16>)
  return
}

// -----

func.func @zero_m(%a: memref<1x0x64xf4E2M1FN>, %sfa: memref<1x0x4xf8E4M3FN>, %b: memref<1x1x64xf4E2M1FN>, %sfb: memref<1x1x4xf8E4M3FN>, %c: memref<1x0x1xf16>) {
  // expected-error @+1 {{expects every dimension of 'a' to be at least 1}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x0x64xf4E2M1FN>, memref<1x0x4xf8E4M3FN>, memref<1x1x64xf4E2M1FN>, memref<1x1x4xf8E4M3FN>) outs(%c : memref<1x0x1xf16>)
  return
}

// -----

func.func @zero_l(%a: memref<0x8x64xf4E2M1FN>, %sfa: memref<0x8x4xf8E4M3FN>, %b: memref<0x1x64xf4E2M1FN>, %sfb: memref<0x1x4xf8E4M3FN>, %c: memref<0x8x1xf16>) {
  // expected-error @+1 {{expects every dimension of 'a' to be at least 1}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<0x8x64xf4E2M1FN>, memref<0x8x4xf8E4M3FN>, memref<0x1x64xf4E2M1FN>, memref<0x1x4xf8E4M3FN>) outs(%c : memref<0x8x1xf16>)
  return
}

// -----

func.func @zero_n(%a: memref<8x64xf4E2M1FN>, %sfa: memref<8x4xf8E4M3FN>, %b: memref<0x64xf4E2M1FN>, %sfb: memref<0x4xf8E4M3FN>, %c: memref<8x0xf16>) {
  // expected-error @+1 {{expects every dimension of 'b' to be at least 1}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<8x64xf4E2M1FN>, memref<8x4xf8E4M3FN>, memref<0x64xf4E2M1FN>, memref<0x4xf8E4M3FN>) outs(%c : memref<8x0xf16>)
  return
}

// -----

// A plan that can only spill (and takes seconds to compile) is not a plan.
// expected-error @+1 {{expects rows_per_warp x unroll x bytes_per_thread x (prefetch_distance + 1), the A bytes a thread holds in registers, to be at most 1024 (a thread's whole register file), but got 8192}}
func.func private @plan_in_flight() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 8, bytes_per_thread = 32, unroll = 16, stage_b = true, row_groups = 2>}

// -----

// expected-error @+1 {{expects warpgroups to be 1 or 2 (64 rows of B each), but got 3}}
func.func private @gemm_plan_warpgroups() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 3, tile_m = 128>>}

// -----

// expected-error @+1 {{expects slot_chunks to be 1, 2 or 4 (K chunks of 64 per ring slot), but got 3}}
func.func private @gemm_plan_slot_chunks() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 4, producer = true, b_tma = true, slot_chunks = 3>>}

// -----

// expected-error @+1 {{expects slot_chunks = 2 with b_tma and k_groups = 1 (the producer fills a slot's chunks under one barrier for one K group), but got b_tma = 0, k_groups = 3}}
func.func private @gemm_plan_slot_chunks_k_groups() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, producer = true, slot_chunks = 2>>}

// -----

// expected-error @+1 {{expects tile_m to be a multiple of 8 in [8, 256] (the MMA's N), at most 192 with stages = 0 (two static shared-memory buffers of tile_m x 128 bytes), but got 100}}
func.func private @gemm_plan_tile_m() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 100>>}

// -----

// expected-error @+1 {{expects tile_m to be a multiple of 8 in [8, 256] (the MMA's N), at most 192 with stages = 0 (two static shared-memory buffers of tile_m x 128 bytes), but got 256}}
func.func private @gemm_plan_tile_m_static() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 256>>}

// -----

// expected-error @+1 {{expects stages to be 0 (A decoded in each CTA) or in [2, 16] (a ring of TMA-copied tiles), but got 1}}
func.func private @gemm_plan_stages() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 1>>}

// -----

// The plan attribute is verified wherever it appears.
// expected-error @+1 {{expects 'nvfp4.plan' to be a plan (#nvfp4.gemv_plan or #nvfp4.kernel), but got 4 : i64}}
func.func private @not_a_plan() attributes {nvfp4.plan = 4}

// -----

func.func @gemm_tile_no_tiles(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %i: index) {
  // expected-error @+1 {{expects the decoded tiles of A (`a_tiles`) with stages = 4}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

func.func @decode_tiles_size(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %t: memref<100xi8>, %i: index) {
  // expected-error @+1 {{expects `tiles` to hold 65536 bytes (the decoded tiles of A), but it has 100}}
  nvfp4.decode_a_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) outs(%t : memref<100xi8>) at m %i chunk %i batch %i plan #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>
  return
}

// -----

// expected-error @+1 {{expects k_groups = 2 with a ring of at least 2 rounds of k_groups slots (stages a multiple of k_groups, >= 4), but got stages = 3}}
func.func private @gemm_plan_k_split() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 3, k_groups = 2>>}

// -----

// expected-error @+1 {{expects the CTA's 512 threads x about 134 registers (tile_m / 2 accumulators + 6 x b_prefetch + 58) to fit 65536 registers, 128 per thread in ptxas's units of 8; use fewer warpgroups, a smaller k_groups, tile_m or b_prefetch}}
func.func private @gemm_plan_registers() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 128, stages = 6, k_groups = 2>>}

// -----

// 384 threads x 170 registers fit 65536 (65280), but ptxas gives each thread
// a multiple of 8: 168.
// expected-error @+1 {{expects the CTA's 384 threads x about 170 registers (tile_m / 2 accumulators + 6 x b_prefetch + 58) to fit 65536 registers, 168 per thread in ptxas's units of 8}}
func.func private @gemm_plan_register_units() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, b_prefetch = 8>>}

// -----

// Two rounds of ring slots per K group (stages = 2 x k_groups) cost about 16
// registers more (ptxas spilled 28 bytes of this plan before the term).
// expected-error @+1 {{expects about 166 registers per consumer thread (tile_m / 2 accumulators + 6 x b_prefetch + 58 + 16 for two ring rounds per K group) to fit the 152 a producer warpgroup leaves them; use a smaller tile_m, k_groups or b_prefetch, or more stages}}
func.func private @gemm_plan_two_rounds() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 160, stages = 6, k_groups = 3, producer = true>>}

// -----

// expected-error @+1 {{expects b_prefetch to be in [2, 8] (rounds of B loaded ahead of their MMAs), but got 9}}
func.func private @gemm_plan_b_prefetch() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, k_groups = 2, b_prefetch = 9>>}

// -----

// expected-error @+1 {{expects b_prefetch = 2 with stages = 0 (the ring loop alone loads B further ahead), but got 4}}
func.func private @gemm_plan_b_prefetch_no_ring() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, b_prefetch = 4>>}

// -----

// expected-error @+1 {{expects b_prefetch to be in [2, 8] (rounds of B loaded ahead of their MMAs), but got 1}}
func.func private @gemm_plan_b_prefetch_low() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, k_groups = 2, b_prefetch = 1>>}

// -----

// expected-error @+1 {{expects splits to be in [2, 8] (CTAs splitting K; a kernel that does not split K has no reduction), but got 9}}
func.func private @gemm_plan_split_k() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4>, reduction = #nvfp4.split_k<splits = 9>>}

// -----

// A part checked against another: the error names both.
// expected-error @+1 {{#nvfp4.split_k<splits = 2> needs the pre-pass's decoded tiles of A, but #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64> decodes A in each CTA (stages = 0)}}
func.func private @gemm_plan_split_k_no_ring() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64>, reduction = #nvfp4.split_k<splits = 2>>}

// -----

func.func @sum_splits_size(%p: memref<100xi8>, %c: memref<4x8xf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expects `partials` to hold 256 bytes (2 fp32 copies of C), but it has 100}}
  nvfp4.sum_splits ins(%p : memref<100xi8>) outs(%c : memref<4x8xf16>) at %c0 splits 2
  return
}

// -----

// expected-error @+1 {{expects 'nvfp4.programmatic_dependent_launch' to be a unit attribute on a gpu.launch_func}}
func.func private @dependent_on_func() attributes {nvfp4.programmatic_dependent_launch}

// -----

func.func @gemm_tile_split_missing(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects `split` with split_k = 2}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

func.func @gemm_tile_split_partials_missing(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects `partials` with split_k = 2}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i split %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

// An on-chip split-K's splits add their tiles on chip: no partials workspace.
func.func @gemm_tile_split_cluster_partials(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %p: memref<131072xi8>, %i: index) {
  // expected-error @+1 {{expects no `partials` with an on-chip split-K (the splits add their tiles on chip)}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) partials(%p : memref<131072xi8>) at m %i n %i batch %i split %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

// Eight splits' whole tiles of 128 x 192 floats (a cluster split's
// exchange) do not fit one CTA's shared memory.
// expected-error @+1 {{expects the ring of #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 192, stages = 2> (or the areas the parts reuse it for after the K loop: 688128 bytes), with alignment, to fit 227 KiB of shared memory, but it needs 689184 bytes}}
func.func private @split_cluster_shared() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 192, stages = 2>, reduction = #nvfp4.split_k<splits = 8, mode = cluster>>}

// -----

// expected-error @+1 {{expects splits to be in [2, 8] (CTAs splitting K; a kernel that does not split K has no reduction), but got 1}}
func.func private @split_cluster_unsplit() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 1, mode = cluster>>}

// -----

// Each split stores tile_m / splits rows: whole groups of 8.
// expected-error @+1 {{#nvfp4.split_k<splits = 4, mode = scatter> gives each split tile_m / 4 rows of A, a multiple of 8, but #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 48, stages = 4> has tile_m = 48}}
func.func private @split_scatter_rows() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 48, stages = 4>, reduction = #nvfp4.split_k<splits = 4, mode = scatter>>}

// -----

// expected-error @+1 {{expects the parts after the mainloop to be a `reduction` (at most one), but got `scheduler`}}
func.func private @kernel_unknown_part() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 48, stages = 4>, scheduler = #nvfp4.split_k<splits = 2>>}

// -----

// expected-error @+1 {{invalid kind of attribute specified}}
func.func private @kernel_mainloop_kind() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.split_k<splits = 2>>}

// -----

func.func @gemm_tile_split_divides(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %p: memref<196608xi8>, %i: index) {
  // expected-error @+1 {{expects split_k (3) to divide K / 64 = 4, the K chunks the splits share}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) partials(%p : memref<196608xi8>) at m %i n %i batch %i split %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 3>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

func.func @gemm_tile_partials_size(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %p: memref<100xi8>, %i: index) {
  // expected-error @+1 {{expects `partials` to hold 131072 bytes (split_k fp32 copies of C), but it has 100}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) partials(%p : memref<100xi8>) at m %i n %i batch %i split %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 2>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

// The pipeline-level ops of nvfp4-software-pipeline.

// expected-error @+1 {{expects slot_bytes to be a positive multiple of 1024 (the 128B swizzle's alignment), got 1000}}
func.func @ring_slot_alignment(%r: !nvfp4.ring<stages = 2, slot_bytes = 1000, consumers = 1>) {
  return
}

// -----

// expected-error @+1 {{expects a ring of at least one stage, got 0}}
func.func @ring_no_stage(%r: !nvfp4.ring<stages = 0, slot_bytes = 1024, consumers = 1>) {
  return
}

// -----

// expected-error @+1 {{expects at least one consumer, got 0}}
func.func @ring_no_consumer(%r: !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 0>) {
  return
}

// -----

func.func @wgmma_slot_too_small(%acc: vector<64xf32>, %f: vector<16xi32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, %s: i32) {
  // expected-error @+1 {{expects ring slots of at least 16384 bytes (N = 128 rows of 64 decoded f16 values from byte 0), got 8192}}
  %0 = nvfp4.wgmma.mma %acc, %f, %r[%s] : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<64xf32>
  return
}

// -----

// A slot's second K chunk: its tile of A must end within the slot.
func.func @wgmma_second_tile_past_slot(%acc: vector<64xf32>, %f: vector<16xi32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 24576, consumers = 1>, %s: i32) {
  // expected-error @+1 {{expects ring slots of at least 32768 bytes (N = 128 rows of 64 decoded f16 values from byte 16384), got 24576}}
  %0 = nvfp4.wgmma.mma %acc, %f, %r[%s] {a_offset = 16384 : i64} : !nvfp4.ring<stages = 2, slot_bytes = 24576, consumers = 1>, vector<64xf32>
  return
}

// -----

func.func @wgmma_tile_misaligned(%acc: vector<64xf32>, %f: vector<16xi32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 65536, consumers = 1>, %s: i32) {
  // expected-error @+1 {{expects a_offset to be a multiple of 1024 (the 128B swizzle's alignment), but got 512}}
  %0 = nvfp4.wgmma.mma %acc, %f, %r[%s] {a_offset = 512 : i64} : !nvfp4.ring<stages = 2, slot_bytes = 65536, consumers = 1>, vector<64xf32>
  return
}

// -----

func.func @wgmma_bad_n(%acc: vector<3xf32>, %f: vector<16xi32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, %s: i32) {
  // expected-error @+1 {{expects an accumulator of N / 2 floats per thread with N (the MMA's N) a multiple of 8 in [8, 256], got 3 floats}}
  %0 = nvfp4.wgmma.mma %acc, %f, %r[%s] : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<3xf32>
  return
}

// -----

// The K groups' sums lie at the bottom of the ring's data and the
// exchange at its top: side by side they need 16384 + 32768 bytes.
func.func @reduce_splits_above_k_groups(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>) {
  %0 = nvfp4.wgmma.reduce_k_groups %acc in %r groups 2 warpgroups 1 : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, vector<32xf32>
  // expected-error @+1 {{expects the ring to hold 49152 bytes of scratch (the accumulators of 2 other splits, above 16384 bytes of the K groups' sums), but it has 32768}}
  %1:2 = nvfp4.wgmma.reduce_splits %0 in %r splits 3 warpgroups 1 : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, vector<32xf32>
  return
}

// -----

func.func @reduce_splits_scratch(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>) {
  // expected-error @+1 {{expects the ring to hold 32768 bytes of scratch (the accumulators of 2 other splits), but it has 16384}}
  %0:2 = nvfp4.wgmma.reduce_splits %acc in %r splits 3 warpgroups 1 : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<32xf32>
  return
}

// -----

gpu.module @kernels {
  gpu.func @reduce_splits_cluster(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{expects its kernel's clusters to be the 2 splits of a tile (known_cluster_size 1 x 1 x 2)}}
    %0:2 = nvfp4.wgmma.reduce_splits %acc in %r splits 2 warpgroups 1 : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<32xf32>
    gpu.return
  }
}

// -----

// A kernel that declares no clusters would have every CTA take rank 0.
gpu.module @kernels {
  gpu.func @reduce_splits_unclustered(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>) kernel {
    // expected-error @+1 {{expects its kernel's clusters to be the 2 splits of a tile (known_cluster_size 1 x 1 x 2)}}
    %0:2 = nvfp4.wgmma.reduce_splits %acc in %r splits 2 warpgroups 1 : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<32xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @tcgen05_reduce_splits_columns(%t: !nvfp4.tmem<columns = 64>, %r: !nvfp4.ring<stages = 2, slot_bytes = 32768, consumers = 1>) kernel attributes {known_cluster_size = array<i32: 1, 1, 2>} {
    // expected-error @+1 {{expects a multiple of 4 columns, at most the allocation's 64, got 128}}
    %0 = nvfp4.tcgen05.reduce_splits %t columns 128 in %r splits 2 : !nvfp4.tmem<columns = 64>, !nvfp4.ring<stages = 2, slot_bytes = 32768, consumers = 1>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @tcgen05_reduce_splits_scratch(%t: !nvfp4.tmem<columns = 64>, %r: !nvfp4.ring<stages = 2, slot_bytes = 16384, consumers = 1>) kernel attributes {known_cluster_size = array<i32: 1, 1, 4>} {
    // expected-error @+1 {{expects the ring to hold 98304 bytes of scratch (the accumulators of 3 other splits), but it has 32768}}
    %0 = nvfp4.tcgen05.reduce_splits %t columns 64 in %r splits 4 : !nvfp4.tmem<columns = 64>, !nvfp4.ring<stages = 2, slot_bytes = 16384, consumers = 1>
    gpu.return
  }
}

// -----

// expected-error @+1 {{#nvfp4.split_k<splits = 2, mode = scatter> needs a wgmma mainloop (its splits store parts of a register tile), but the plan's mainloop is #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 4>}}
func.func private @tcgen05_split_scatter() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 4>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>}
// -----

func.func @reduce_splits_count(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>) {
  // expected-error @+1 {{attribute 'splits' failed to satisfy constraint}}
  %0:2 = nvfp4.wgmma.reduce_splits %acc in %r splits 9 warpgroups 1 : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<32xf32>
  return
}

// -----

func.func @reduce_scratch(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>) {
  // expected-error @+1 {{expects the ring to hold 32768 bytes of scratch (the accumulators of 1 K groups), but it has 16384}}
  %0 = nvfp4.wgmma.reduce_k_groups %acc in %r groups 2 warpgroups 2 : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<32xf32>
  return
}

// -----

func.func @swap_halves_sizes(%acc: vector<36xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>) {
  // expected-error @+1 {{expects an accumulator of a multiple of 8 floats and a result of half as many, but got 36 and 18}}
  %0 = nvfp4.wgmma.swap_halves %acc in %r : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<36xf32> -> vector<18xf32>
  return
}

// -----

func.func @swap_halves_scratch(%acc: vector<64xf32>, %r: !nvfp4.ring<stages = 1, slot_bytes = 8192, consumers = 1>) {
  // expected-error @+1 {{expects the ring to hold 32768 bytes of scratch (the halves handed over), but it has 8192}}
  %0 = nvfp4.wgmma.swap_halves %acc in %r : !nvfp4.ring<stages = 1, slot_bytes = 8192, consumers = 1>, vector<64xf32> -> vector<32xf32>
  return
}

// -----

func.func @store_partials_without_split(%acc: vector<32xf32>, %c: memref<64x128xf16>, %p: memref<65536xi8>, %i: i32, %l: index) {
  // expected-error @+1 {{expects `partials` and `split` together}}
  nvfp4.wgmma.store %acc outs(%c : memref<64x128xf16>) partials(%p : memref<65536xi8>) at m %i row %i batch %l : vector<32xf32>
  return
}

// -----

// expected-error @+1 {{expects scratch_bytes to be a non-negative multiple of 16 (the ring's mbarriers follow it), got 2049}}
func.func @ring_scratch_alignment(%r: !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 1, scratch_bytes = 2049>) {
  return
}

// -----

func.func @two_rings() {
  // expected-error @+1 {{expects one ring per kernel, or rings in mutually exclusive regions (every ring takes the kernel's dynamic shared memory from its start), but this function allocates 2 that one CTA can reach}}
  %r0 = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 1>
  %r1 = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 1>
  return
}

// -----

func.func @fill_box(%r: !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 1>, %t: !nvfp4.tensor_map<64x64xf16, box = [16, 64], swizzle = swizzle_128b>, %s: i32) {
  // expected-error @+1 {{expects the map's box to fill one slot (1024 bytes), but it has 2048 bytes}}
  nvfp4.ring.fill %r[%s] from %t[%s, %s] : !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 1>, !nvfp4.tensor_map<64x64xf16, box = [16, 64], swizzle = swizzle_128b>
  return
}

// -----

func.func @fill_coordinates(%r: !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 1>, %t: !nvfp4.tensor_map<64x64xf16, box = [8, 64], swizzle = swizzle_128b>, %s: i32) {
  // expected-error @+1 {{expects 2 coordinates (the map's rank), got 1}}
  nvfp4.ring.fill %r[%s] from %t[%s] : !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 1>, !nvfp4.tensor_map<64x64xf16, box = [8, 64], swizzle = swizzle_128b>
  return
}

// -----

func.func @tensor_map_bytes(%w: memref<4000xi8>) {
  // expected-error @+1 {{expects 'source' to hold the map's 4096 bytes, but it has 4000}}
  %0 = nvfp4.tensor_map %w : memref<4000xi8> -> !nvfp4.tensor_map<32x64xf16, box = [16, 64], swizzle = swizzle_128b>
  return
}

// -----

func.func @tensor_map_strided(%w: memref<4096xi8, strided<[2]>>) {
  // expected-error @+1 {{expects 'source' to have an identity layout (dense, row-major), but got 'memref<4096xi8, strided<[2]>>'}}
  %0 = nvfp4.tensor_map %w : memref<4096xi8, strided<[2]>> -> !nvfp4.tensor_map<32x64xf16, box = [16, 64], swizzle = swizzle_128b>
  return
}

// -----

// expected-error @+1 {{expects the box's innermost extent (256 bytes) to fit the 128-byte swizzle span}}
func.func @tensor_map_swizzle_span(%t: !nvfp4.tensor_map<32x128xf16, box = [16, 128], swizzle = swizzle_128b>) {
  return
}

// -----

// expected-error @+1 {{expects every box dimension in [1, 256], got 512}}
func.func @tensor_map_box(%t: !nvfp4.tensor_map<1024x64xf16, box = [512, 64], swizzle = swizzle_128b>) {
  return
}

// -----

// expected-error @+1 {{expects the byte stride of every dimension but the innermost to be a multiple of 16 below 2^40, got 14}}
func.func @tensor_map_stride(%t: !nvfp4.tensor_map<32x7xf16, box = [8, 8], swizzle = none>) {
  return
}

// -----

// expected-error @+1 {{expects an element type i8, i16, i32, f16, bf16 or f32 (a TMA data type), got 'f64'}}
func.func @tensor_map_type(%t: !nvfp4.tensor_map<32x8xf64, box = [8, 8], swizzle = none>) {
  return
}

// -----

func.func @gemm_tile_map(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects the decoded tiles of A as '!nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>', but got '!nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>'}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [64, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

func.func @load_b_rank(%b: memref<512xf4E2M1FN>, %sfb: memref<32xf8E4M3FN>, %i: i32, %l: index) {
  // expected-error @+1 {{expects 'b' to have rank 2 ([N, K]) or 3 ([L, N, K]), but got rank 1}}
  %b0, %b1, %s0, %s1 = nvfp4.wgmma.load_b ins(%b, %sfb : memref<512xf4E2M1FN>, memref<32xf8E4M3FN>) row %i chunk %i batch %l
  return
}

// -----

func.func @load_b_scales(%b: memref<64x512xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %i: i32, %l: index) {
  // expected-error @+1 {{expects 'sfb' in the plain scale layout to have shape [64, 32] ([N, K/16]), but got [64, 16]}}
  %b0, %b1, %s0, %s1 = nvfp4.wgmma.load_b ins(%b, %sfb : memref<64x512xf4E2M1FN>, memref<64x16xf8E4M3FN>) row %i chunk %i batch %l
  return
}

// -----

func.func @store_staged_generic(%acc: vector<32xf32>, %c: memref<64x128xf16>, %r: !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, %i: i32, %l: index) {
  // expected-error @+1 {{expects the staging ring, its offset and its warpgroups together}}
  "nvfp4.wgmma.store"(%acc, %c, %i, %i, %l, %r) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1>}> : (vector<32xf32>, memref<64x128xf16>, i32, i32, index, !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>) -> ()
  return
}

// -----

func.func @store_staged_ragged_n(%acc: vector<32xf32>, %c: memref<64x100xf16>, %r: !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, %i: i32, %l: index) {
  // expected-error @+1 {{can stage only an f16, bf16 or f32 C whose N is a multiple of 64}}
  nvfp4.wgmma.store %acc outs(%c : memref<64x100xf16>) at m %i row %i batch %l staged in %r at 0 warpgroups 1 : vector<32xf32>, !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>
  return
}

// -----

func.func @store_staged_past_ring(%acc: vector<32xf32>, %c: memref<64x128xf32>, %r: !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, %i: i32, %l: index) {
  // expected-error @+1 {{stages 2 warpgroup tiles at byte 16 up to 34832, which must be 16-byte aligned and within the ring's 32768 bytes of data}}
  nvfp4.wgmma.store %acc outs(%c : memref<64x128xf32>) at m %i row %i batch %l staged in %r at 16 warpgroups 2 : vector<32xf32>, !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>
  return
}

// -----

func.func @store_staged_partials(%acc: vector<32xf32>, %c: memref<64x128xf16>, %p: memref<65536xi8>, %r: !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, %i: i32, %l: index) {
  // expected-error @+1 {{stages C's tile only, not split-K's partials}}
  nvfp4.wgmma.store %acc outs(%c : memref<64x128xf16>) partials(%p : memref<65536xi8>) at m %i row %i batch %l split %l staged in %r at 0 warpgroups 1 : vector<32xf32>, !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>
  return
}

// -----

func.func @reduce_scatter_parts(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>) {
  // expected-error @+1 {{expects the 32 accumulators to split into 4 parts of whole groups of 4, each part 8 values, but the result has 16}}
  %m, %p = nvfp4.wgmma.reduce_scatter_splits %acc in %r splits 4 warpgroups 1 : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, vector<32xf32> -> vector<16xf32>
  return
}

// -----

func.func @reduce_scatter_a_tiles_and_release(%acc: vector<64xf32>, %r: !nvfp4.ring<stages = 6, slot_bytes = 19456, consumers = 4>) {
  // expected-error @+1 {{expects at most one of `release_reads` (the exchange over bytes the holders read with plain loads) and `a_tiles` (an exchange that skips them)}}
  %m, %p = nvfp4.wgmma.reduce_scatter_splits %acc in %r splits 2 warpgroups 1 release_reads a_tiles 16384 : !nvfp4.ring<stages = 6, slot_bytes = 19456, consumers = 4>, vector<64xf32> -> vector<32xf32>
  return
}

// -----

// The other split's 16384 bytes in A tiles of 4096 bytes would take 4
// slots of a ring of 2.
func.func @reduce_scatter_a_tiles_fit(%acc: vector<64xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 19456, consumers = 4>) {
  // expected-error @+1 {{expects the exchange's 16384 bytes (the accumulators of 1 other splits) to fit the first 4096 bytes (a multiple of 16, at most a slot) of the ring's last slots, above 0 bytes of the K groups' sums}}
  %m, %p = nvfp4.wgmma.reduce_scatter_splits %acc in %r splits 2 warpgroups 1 a_tiles 4096 : !nvfp4.ring<stages = 2, slot_bytes = 19456, consumers = 4>, vector<64xf32> -> vector<32xf32>
  return
}

// -----

// An A tile larger than a slot.
func.func @reduce_splits_a_tiles_slot(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>) {
  // expected-error @+1 {{to fit the first 16384 bytes (a multiple of 16, at most a slot) of the ring's last slots}}
  %0:2 = nvfp4.wgmma.reduce_splits %acc in %r splits 2 warpgroups 1 a_tiles 16384 : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, vector<32xf32>
  return
}

// -----

func.func @reduce_scatter_uneven(%acc: vector<24xf32>, %r: !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>) {
  // expected-error @+1 {{expects the 24 accumulators to split into 4 parts of whole groups of 4}}
  %m, %p = nvfp4.wgmma.reduce_scatter_splits %acc in %r splits 4 warpgroups 1 : !nvfp4.ring<stages = 4, slot_bytes = 8192, consumers = 1>, vector<24xf32> -> vector<6xf32>
  return
}

// -----

func.func @store_strided(%acc: vector<32xf32>, %c: memref<64x128xf16, strided<[256, 1]>>, %i: i32, %l: index) {
  // expected-error @+1 {{expects 'c' to have an identity layout (dense, row-major)}}
  nvfp4.wgmma.store %acc outs(%c : memref<64x128xf16, strided<[256, 1]>>) at m %i row %i batch %l : vector<32xf32>
  return
}

// -----

gpu.module @kernels {
  gpu.func @swap_block(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{expects its kernel's CTA to be the two consumer warpgroups it swaps between (256 threads, plus 128 with a producer warpgroup), but the kernel's known_block_size is 128 x 1 x 1}}
    %0 = nvfp4.wgmma.swap_halves %acc in %r : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<32xf32> -> vector<16xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @reduce_block(%acc: vector<32xf32>, %r: !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{expects its kernel's CTA to be the 2 K groups x 1 warpgroups it reduces (256 threads, plus 128 with a producer warpgroup), but the kernel's known_block_size is 128 x 1 x 1}}
    %0 = nvfp4.wgmma.reduce_k_groups %acc in %r groups 2 warpgroups 1 : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>, vector<32xf32>
    gpu.return
  }
}

// -----

// expected-error @+1 {{expects producer with a ring (stages > 0): without one there is nothing to produce}}
func.func @producer_ring(%x: i32) attributes {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, producer = true>>} {
  return
}

// -----

// expected-error @+1 {{expects at most 3 consumer warpgroups (warpgroups x k_groups, x 2 with split_weights) with a producer warpgroup, but got 4}}
func.func @producer_warpgroups(%x: i32) attributes {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 8, k_groups = 4, producer = true>>} {
  return
}

// -----

// expected-error @+1 {{expects about 166 registers per consumer thread (tile_m / 2 accumulators + 6 x b_prefetch + 58) to fit the 152 a producer warpgroup leaves them; use a smaller tile_m, k_groups or b_prefetch}}
func.func @producer_registers(%x: i32) attributes {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 192, stages = 9, k_groups = 3, producer = true>>} {
  return
}

// -----

// expected-error @+1 {{expects tile_m to be 32, 64, 128 or 256 (the MMA's N, on 32-row quarters of the scales' 128-row blocks), but got 48}}
func.func @tcgen05_tile_m(%x: i32) attributes {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 48, stages = 4>>} {
  return
}

// -----

// expected-error @+1 {{expects the accumulator (256 columns) and the scales of 6 slots (48 columns each) to fit TMEM's 512 columns, but they need 544; use fewer stages}}
func.func @tcgen05_tmem(%x: i32) attributes {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 256, stages = 6>>} {
  return
}

// -----

// expected-error @+1 {{expects columns to be a power of two in [32, 512] (what tcgen05.alloc allocates), got 48}}
func.func @tmem_columns(%t: !nvfp4.tmem<columns = 48>) {
  return
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @scale_columns(%slot: i32) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 36864, consumers = 1>
    %tmem = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 128>
    // expected-error @+1 {{expects the copy's 4 columns of every slot within the allocation's 128 columns, but slot 3 reaches column 228}}
    nvfp4.tcgen05.cp %ring[%slot] at 32768 to %tmem column 128 step 32 : !nvfp4.ring<stages = 4, slot_bytes = 36864, consumers = 1>, !nvfp4.tmem<columns = 128>
    gpu.return
  }
}

// -----

// Scale id 2 (A's scales from the cells' upper half words) is MXFP4's
// (.block32, ue8m0); with ue4m3 scales (.block16) a scale reads a whole
// cell. (idesc: the NVFP4 one of N = 64 with A's scale id, bits 29-30, 2.)
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @scale_id(%slot: i32, %acc: i1, %shift: i32) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>
    %tmem = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 128>
    // expected-error @+1 {{expects a kind::mxf4nvf4 instruction descriptor of M = 128 (cta_group::1) whose scale ids fit its scale format (ue4m3: 0; ue8m0: 0 or 2), got 1209009280}}
    nvfp4.tcgen05.mma %tmem, %ring[%slot] accumulate %acc sfb_shift %shift {a_desc = 4611756662049538048 : i64, b_desc = 4611756662049539072 : i64, column_step = 32 : i64, d_column = 0 : i64, idesc = 1209009280 : i32, sfa_column = 64 : i64, sfb_column = 80 : i64} : !nvfp4.tmem<columns = 128>, !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @copy_offset(%slot: i32, %map: !nvfp4.tensor_map<1x128x256xi8, box = [1, 128, 128], swizzle = swizzle_128b>, %c0: i32) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 4, slot_bytes = 36864, consumers = 1>
    // expected-error @+1 {{expects an offset that is a multiple of 1024 (the swizzle pattern's period), got 512}}
    nvfp4.ring.copy %ring[%slot] at 512 from %map[%c0, %c0, %c0] : !nvfp4.ring<stages = 4, slot_bytes = 36864, consumers = 1>, !nvfp4.tensor_map<1x128x256xi8, box = [1, 128, 128], swizzle = swizzle_128b>
    gpu.return
  }
}

// -----

func.func @block_scales_dst(%s: memref<128x16xf8E4M3FN>, %d: memref<128x16xf8E4M3FN>, %i: index) {
  // expected-error @+1 {{expects 'dst' in the blocked layout ([[L, ] row blocks, chunks, 32, 4, 4]), but got shape [128, 16]}}
  nvfp4.block_scales_tile ins(%s : memref<128x16xf8E4M3FN>) outs(%d : memref<128x16xf8E4M3FN>) at %i
  return
}

// -----

func.func @block_scales_rows(%s: memref<200x16xf8E4M3FN>, %d: memref<1x4x32x4x4xf8E4M3FN>, %i: index) {
  // expected-error @+1 {{expects 'dst' to have 2 blocks of 128 rows like 'src', but got 1}}
  nvfp4.block_scales_tile ins(%s : memref<200x16xf8E4M3FN>) outs(%d : memref<1x4x32x4x4xf8E4M3FN>) at %i
  return
}

// -----

func.func @block_scales_chunks(%s: memref<2x8x32x4x4xf8E4M3FN>, %d: memref<2x4x32x4x4xf8E4M3FN>, %i: index) {
  // expected-error @+1 {{expects 'dst' to have at least the 8 K chunks of 'src', but got 4}}
  nvfp4.block_scales_tile ins(%s : memref<2x8x32x4x4xf8E4M3FN>) outs(%d : memref<2x4x32x4x4xf8E4M3FN>) at %i
  return
}

// -----

func.func @block_scales_batch(%s: memref<2x128x16xf8E4M3FN>, %d: memref<3x1x4x32x4x4xf8E4M3FN>, %i: index) {
  // expected-error @+1 {{expects 'src' and 'dst' to have the same batch size, but got 2 and 3}}
  nvfp4.block_scales_tile ins(%s : memref<2x128x16xf8E4M3FN>) outs(%d : memref<3x1x4x32x4x4xf8E4M3FN>) at %i
  return
}

// -----

func.func @block_scales_words(%s: memref<128x6xf8E4M3FN>, %d: memref<1x4x32x4x4xf8E4M3FN>, %i: index) {
  // expected-error @+1 {{expects plain scales of K a multiple of 64 (K/16 = 6 scale columns, whole 4-column words)}}
  nvfp4.block_scales_tile ins(%s : memref<128x6xf8E4M3FN>) outs(%d : memref<1x4x32x4x4xf8E4M3FN>) at %i
  return
}

// -----

// The host-level re-layout checks the same shapes.
func.func @block_scales_host(%s: memref<1x8x32x4x4xf8E4M3FN>, %d: memref<1x4x32x4x4xf8E4M3FN>) {
  // expected-error @+1 {{'nvfp4.block_scales' op expects 'dst' to have at least the 8 K chunks of 'src', but got 4}}
  nvfp4.block_scales ins(%s : memref<1x8x32x4x4xf8E4M3FN>) outs(%d : memref<1x4x32x4x4xf8E4M3FN>)
  return
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @block_scales_threads(%s: memref<128x16xf8E4M3FN>, %d: memref<1x4x32x4x4xf8E4M3FN>, %i: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{expects a kernel of 256 x 1 x 1 threads (known_block_size), the CTA its words are spread over}}
    nvfp4.block_scales_tile ins(%s : memref<128x16xf8E4M3FN>) outs(%d : memref<1x4x32x4x4xf8E4M3FN>) at %i
    gpu.return
  }
}

// -----

// b_tma: the producer warpgroup copies B's chunks into the ring.
// expected-error @+1 {{expects b_tma with a producer warpgroup and b_prefetch = 2 (B waits in the ring, not in registers), but got producer = 0, b_prefetch = 2}}
func.func private @b_tma_no_producer() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, b_tma = true>>}

// -----

// expected-error @+1 {{expects b_tma with a producer warpgroup and b_prefetch = 2 (B waits in the ring, not in registers), but got producer = 1, b_prefetch = 4}}
func.func private @b_tma_prefetch() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 9, k_groups = 3, b_prefetch = 4, producer = true, b_tma = true>>}

// -----

// 12 slots of 128 x 128 bytes of A fit, but not with 64 rows of B's chunk
// and scale codes (3 KiB) each.
// expected-error @+1 {{expects the ring of #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 12, k_groups = 3, producer = true, b_tma = true> (or the areas the parts reuse it for after the K loop: 65536 bytes), with alignment, to fit 227 KiB of shared memory, but it needs 234688 bytes}}
func.func private @b_tma_shared() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 12, k_groups = 3, producer = true, b_tma = true>>}

// -----

// With b_tma, B's bytes and scales come through tensor maps too.
func.func @gemm_tile_b_tma_maps(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects 1 b_bytes and b_scales maps with this #nvfp4.wgmma_mainloop (one each per weight with b_tma), but got 0 and 0}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4, producer = true, b_tma = true>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

// Plain scales through TMA need rows of them in multiples of 16 bytes.
func.func @gemm_tile_b_tma_k(%a: memref<128x192xf4E2M1FN>, %sfa: memref<128x12xf8E4M3FN>, %b: memref<128x192xf4E2M1FN>, %sfb: memref<128x12xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<384x64xf16, box = [128, 64], swizzle = swizzle_128b>, %tb: !nvfp4.tensor_map<1x128x96xi8, box = [1, 64, 32], swizzle = none>, %ts: !nvfp4.tensor_map<1x128x16xi8, box = [1, 64, 16], swizzle = none>, %i: index) {
  // expected-error @+1 {{expects K (192) to be a multiple of 256 with b_tma and plain scales (TMA needs a row of scales to be a multiple of 16 bytes)}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x192xf4E2M1FN>, memref<128x12xf8E4M3FN>) weight(%b, %sfb : memref<128x192xf4E2M1FN>, memref<128x12xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<384x64xf16, box = [128, 64], swizzle = swizzle_128b>) b_bytes(%tb : !nvfp4.tensor_map<1x128x96xi8, box = [1, 64, 32], swizzle = none>) b_scales(%ts : !nvfp4.tensor_map<1x128x16xi8, box = [1, 64, 16], swizzle = none>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 3, producer = true, b_tma = true>> epilogue { ^bb0(%acc: f32): nvfp4.yield %acc : f32 }
  return
}

// -----

// Operands live in global memory: a shared-memory memref is refused (it
// would compile to a .shared parameter read with ld.global).
func.func @shared_operand(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN, 3>, %b: memref<1x256xf4E2M1FN>, %sfb: memref<1x16xf8E4M3FN>, %c: memref<128x1xf16>) {
  // expected-error @+1 {{expects 'sfa' in global memory (the default memory space or #gpu.address_space<global>), but got memory space 3 : i64}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN, 3>, memref<1x256xf4E2M1FN>, memref<1x16xf8E4M3FN>) outs(%c : memref<128x1xf16>)
  return
}

// -----

func.func @workgroup_operand(%x: memref<128x64xf32, #gpu.address_space<workgroup>>, %q: memref<128x64xf4E2M1FN>, %sf: memref<128x4xf8E4M3FN>) {
  // expected-error @+1 {{expects 'x' in global memory}}
  nvfp4.quantize ins(%x : memref<128x64xf32, #gpu.address_space<workgroup>>) outs(%q, %sf : memref<128x64xf4E2M1FN>, memref<128x4xf8E4M3FN>)
  return
}

// -----

// #gpu.address_space<global> is global memory.
func.func @global_operand(%a: memref<128x256xf4E2M1FN, #gpu.address_space<global>>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<1x256xf4E2M1FN>, %sfb: memref<1x16xf8E4M3FN>, %c: memref<128x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN, #gpu.address_space<global>>, memref<128x16xf8E4M3FN>, memref<1x256xf4E2M1FN>, memref<1x16xf8E4M3FN>) outs(%c : memref<128x1xf16>)
  return
}

// -----

// A GEMV plan's row groups are capped by the rows there are: 7168 rows in
// groups of 4 make at most 1792 (beyond that one CTA would loop over all).
func.func @row_groups_cap(%a: memref<7168x256xf4E2M1FN>, %sfa: memref<7168x16xf8E4M3FN>, %b: memref<1x256xf4E2M1FN>, %sfb: memref<1x16xf8E4M3FN>, %c: memref<7168x1xf16>) {
  // expected-error @+1 {{has a GEMV plan with row_groups = 100000, but its 7168 rows of A fill at most 1792 groups of 4 rows (warps_per_cta / k_split x rows_per_warp); use row_groups <= 1792}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<7168x256xf4E2M1FN>, memref<7168x16xf8E4M3FN>, memref<1x256xf4E2M1FN>, memref<1x16xf8E4M3FN>) outs(%c : memref<7168x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 4, row_groups = 100000>}
  return
}

// -----

// The same cap on the CTA-level op.
func.func @gemv_tile_row_groups(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<1x256xf4E2M1FN>, %sfb: memref<1x16xf8E4M3FN>, %c: memref<64x1xf16>, %i: index) {
  // expected-error @+1 {{has a GEMV plan with row_groups = 17, but its 64 rows of A fill at most 16 groups of 4 rows}}
  nvfp4.gemv_tile ins(%a, %sfa, %b, %sfb : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>, memref<1x256xf4E2M1FN>, memref<1x16xf8E4M3FN>) outs(%c : memref<64x1xf16>) rows %i batch %i plan #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 4, row_groups = 17>
  return
}

// -----

// A bool plan field is true or false.
// expected-error @+2 {{expected true or false}}
// expected-error @+1 {{failed to parse NVFP4_GemvPlanAttr parameter 'stage_b'}}
func.func private @plan_bool() attributes {plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2, stage_b = 7>}

// -----

// The epilogue applies to whole fragments: elementwise f32 ops only.
func.func @epilogue_not_elementwise(%s: memref<4xf32>, %a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue {
  ^bb0(%acc: f32):
    // expected-error @+1 {{is not an elementwise f32 arith op or math.exp2, which a gemm_tile's epilogue applies to whole accumulator fragments}}
    %x = memref.load %s[%i] : memref<4xf32>
    nvfp4.yield %x : f32
  }
  return
}

// -----

func.func @epilogue_outside_value(%f: f32, %a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue {
  ^bb0(%acc: f32):
    // expected-error @+1 {{uses a value defined outside the gemm_tile's epilogue, which applies to whole accumulator fragments}}
    %x = arith.mulf %acc, %f : f32
    nvfp4.yield %x : f32
  }
  return
}

// -----

func.func @epilogue_arguments(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects an epilogue of 1 f32 argument(s), one accumulator element per weight, but it has 2}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue {
  ^bb0(%x: f32, %y: f32):
    nvfp4.yield %x : f32
  }
  return
}

// -----

// An epilogue applies after every reduction; split-K in mode global adds
// the splits in a later kernel.
func.func @epilogue_global_split(%p: memref<131072xi8>, %a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects the identity epilogue with #nvfp4.split_k<splits = 2> (nvfp4.sum_splits adds the splits' partial tiles after this kernel, and an epilogue applies after every reduction); add the splits on chip (mode cluster or scatter)}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) partials(%p : memref<131072xi8>) at m %i n %i batch %i split %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>, reduction = #nvfp4.split_k<splits = 2>> epilogue {
  ^bb0(%acc: f32):
    %x = arith.mulf %acc, %acc : f32
    nvfp4.yield %x : f32
  }
  return
}

// -----

// Two weights need a plan of two accumulators.
func.func @two_weights(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects 1 weight(s) and their scales (the plan's mainloop has that many accumulators), but got 2 weights and 2 scale operands}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue {
  ^bb0(%x: f32, %y: f32):
    nvfp4.yield %x : f32
  }
  return
}

// -----

func.func @epilogue_yields_outside(%f: f32, %a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue {
  ^bb0(%acc: f32):
    // expected-error @+1 {{yields a value defined outside the gemm_tile's epilogue, which applies to whole accumulator fragments}}
    nvfp4.yield %f : f32
  }
  return
}

// -----

func.func @epilogue_terminator(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects its epilogue to end with nvfp4.yield}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>> epilogue {
  ^bb0(%acc: f32):
    llvm.unreachable
  }
  return
}

// -----

// The gated dual GEMM's second accumulator: only the ring's consumers
// decode a second weight.
// expected-error @+1 {{expects weights = 2 with a ring (stages > 0): the CTA that decodes A itself (stages = 0) multiplies one weight}}
func.func private @dual_no_ring() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, weights = 2>>}

// -----

// expected-error @+1 {{expects weights to be 1 or 2 (accumulators of the same A tile), but got 3}}
func.func private @three_weights() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, weights = 3>>}

// -----

// Two accumulators of 96 floats each do not fit a thread's registers.
// expected-error @+1 {{expects the CTA's 256 threads x about 290 registers (2 weights x (tile_m / 2 accumulators + 6 x b_prefetch) + 58 + 16 for the second weight's fragments) to fit 65536 registers, 255 per thread in ptxas's units of 8; use fewer warpgroups, a smaller k_groups, tile_m or b_prefetch}}
func.func private @dual_registers() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 2, tile_m = 192, stages = 4, producer = true, b_tma = true, weights = 2>>}

// -----

// The weights of a gemm_tile share their type.
func.func @weights_differ(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %b2: memref<64x256xf4E2M1FN>, %sfb2: memref<64x16xf8E4M3FN>, %c: memref<128x128xf16>, %t: !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects every weight and its scales to have the types of the first ('memref<128x256xf4E2M1FN>', 'memref<128x16xf8E4M3FN>'), but weight 1 has 'memref<64x256xf4E2M1FN>', 'memref<64x16xf8E4M3FN>'}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) weight(%b2, %sfb2 : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) a_tiles(%t : !nvfp4.tensor_map<512x64xf16, box = [128, 64], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, weights = 2>> epilogue {
  ^bb0(%x: f32, %y: f32):
    nvfp4.yield %x : f32
  }
  return
}

// -----

// A split cluster adds both weights' accumulators as one fragment: at most
// 128 floats.
// expected-error @+1 {{#nvfp4.split_k<splits = 2, mode = cluster> adds the accumulators of every weight as one fragment of at most 128 floats, but #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 144, stages = 4, producer = true, b_tma = true, weights = 2> has 2 x tile_m / 2 = 144}}
func.func private @dual_joined_too_wide() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 144, stages = 4, producer = true, b_tma = true, weights = 2>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>>}

// -----

// The store's epilogue makes C's element; a global split's partials are raw
// sums.
func.func @store_epilogue_partials(%t: !nvfp4.tmem<columns = 256>, %c: memref<128x128xf16>, %p: memref<131072xi8>, %i: i32, %l: index) {
  // expected-error @+1 {{expects no epilogue with `partials` (a global split-K's raw sums, added by nvfp4.sum_splits)}}
  nvfp4.tcgen05.store %t columns 64 outs(%c : memref<128x128xf16>) partials(%p : memref<131072xi8>) at m %i row %i batch %l split %l : !nvfp4.tmem<columns = 256> epilogue {
  ^bb0(%x: f32, %y: f32):
    %z = arith.mulf %x, %y : f32
    nvfp4.yield %z : f32
  }
  return
}

// -----

func.func @store_epilogue_op(%t: !nvfp4.tmem<columns = 256>, %c: memref<128x128xf16>, %i: i32, %l: index) {
  nvfp4.tcgen05.store %t columns 64 outs(%c : memref<128x128xf16>) at m %i row %i batch %l : !nvfp4.tmem<columns = 256> epilogue {
  ^bb0(%x: f32, %y: f32):
    // expected-error @+1 {{is not an elementwise f32 arith op or math.exp2 on the epilogue's own values}}
    %z = math.exp %x : f32
    nvfp4.yield %z : f32
  }
  return
}

// -----

// CTAs of 512 TMEM columns alone on their SM: the launch's shared memory
// must keep a second one out (the plan pads its ring of 111648 bytes to
// 116736).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm_kernel() kernel { gpu.return }
  }
  func.func @tmem_shared_by_two(%n: index) {
    %smem = arith.constant 111648 : i32
    // expected-error @+1 {{launches CTAs that allocate 512 TMEM columns each with 111648 bytes of dynamic shared memory, which lets 2 share an SM's 512 columns (a CTA would wait in tcgen05.alloc; in a cluster it can deadlock); launch with at least 116736 bytes}}
    gpu.launch_func @kernels::@gemm_kernel blocks in (%n, %n, %n) threads in (%n, %n, %n) dynamic_shared_memory_size %smem {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 256, stages = 2>>}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm_kernel() kernel { gpu.return }
  }
  func.func @tcgen05_launch_too_small(%n: index) {
    %smem = arith.constant 50000 : i32
    // expected-error @+1 {{launches a kernel whose plan needs 58400 bytes of dynamic shared memory with 50000}}
    gpu.launch_func @kernels::@gemm_kernel blocks in (%n, %n, %n) threads in (%n, %n, %n) dynamic_shared_memory_size %smem {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>>}
    return
  }
}

// -----

// MXFP4: e8m0 scales per 32 values.

func.func @mx_k(%a: memref<128x48xf4E2M1FN>, %sfa: memref<128x1xf8E8M0FNU>, %b: memref<64x48xf4E2M1FN>, %sfb: memref<64x1xf8E8M0FNU>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects K (48) to be a multiple of 32, the MXFP4 scale block size}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x48xf4E2M1FN>, memref<128x1xf8E8M0FNU>, memref<64x48xf4E2M1FN>, memref<64x1xf8E8M0FNU>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @mx_mixed(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x8xf8E8M0FNU>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects every block scale in one format, but got MXFP4 scales ('f8E8M0FNU') and NVFP4 scales ('f8E4M3FN'); mixed NVFP4 x MXFP4 products are not supported}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x8xf8E8M0FNU>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @mx_scale_shape(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E8M0FNU>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x8xf8E8M0FNU>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'sfa' in the plain scale layout to have shape [128, 8] ([M, K/32]), but got [128, 16]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E8M0FNU>, memref<64x256xf4E2M1FN>, memref<64x8xf8E8M0FNU>) outs(%c : memref<128x64xf16>)
  return
}

// -----

func.func @mx_blocked_shape(%a: memref<128x256xf4E2M1FN>, %sfa: memref<1x4x32x4x4xf8E8M0FNU>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x8xf8E8M0FNU>, %c: memref<128x64xf16>) {
  // expected-error @+1 {{expects 'sfa' in the blocked scale layout to have shape [1, 2, 32, 4, 4] ([ceil(M/128), ceil(K/128), 32, 4, 4]), but got [1, 4, 32, 4, 4]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E8M0FNU>, memref<64x256xf4E2M1FN>, memref<64x8xf8E8M0FNU>) outs(%c : memref<128x64xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

func.func @mx_global_scale(%x: memref<4x64xf32>, %g: memref<1xf32>, %q: memref<4x64xf4E2M1FN>, %sf: memref<4x2xf8E8M0FNU>) {
  // expected-error @+1 {{expects no 'global_scale' with MXFP4 scales (f8E8M0FNU): MXFP4 has only its power-of-two block scales}}
  nvfp4.quantize ins(%x : memref<4x64xf32>) global_scale(%g : memref<1xf32>) outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x2xf8E8M0FNU>)
  return
}

// -----

func.func @nv_scale_rounding(%x: memref<4x64xf32>, %q: memref<4x64xf4E2M1FN>, %sf: memref<4x4xf8E4M3FN>) {
  // expected-error @+1 {{expects 'scale_rounding' only with MXFP4 scales (f8E8M0FNU): NVFP4's e4m3 scales round to nearest}}
  nvfp4.quantize ins(%x : memref<4x64xf32>) outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x4xf8E4M3FN>) {scale_rounding = #nvfp4.scale_rounding<rceil>}
  return
}

// -----

func.func @mx_quantize_sf(%x: memref<4x64xf32>, %q: memref<4x64xf4E2M1FN>, %sf: memref<4x4xf8E8M0FNU>) {
  // expected-error @+1 {{expects 'sf' in the plain scale layout to have shape [4, 2] ([R, K/32]), but got [4, 4]}}
  nvfp4.quantize ins(%x : memref<4x64xf32>) outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x4xf8E8M0FNU>)
  return
}

// -----

func.func @mx_block_scales(%src: memref<128x8xf8E8M0FNU>, %dst: memref<1x2x32x4x4xf8E4M3FN>) {
  // expected-error @+1 {{expects every block scale in one format}}
  nvfp4.block_scales ins(%src : memref<128x8xf8E8M0FNU>) outs(%dst : memref<1x2x32x4x4xf8E4M3FN>)
  return
}

// -----

func.func @both_global_scales(%x: memref<4x64xf32>, %g: memref<1xf32>, %q: memref<4x64xf4E2M1FN>, %sf: memref<4x4xf8E4M3FN>, %r: memref<1xf32>) {
  // expected-error @+1 {{expects either 'global_scale' (given) or 'returns_global_scale' (computed on the device), not both}}
  nvfp4.quantize ins(%x : memref<4x64xf32>) global_scale(%g : memref<1xf32>) outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x4xf8E4M3FN>) returns_global_scale(%r : memref<1xf32>)
  return
}

// -----

func.func @mx_returned_scale(%x: memref<4x64xf32>, %q: memref<4x64xf4E2M1FN>, %sf: memref<4x2xf8E8M0FNU>, %r: memref<1xf32>) {
  // expected-error @+1 {{expects no 'returns_global_scale' with MXFP4 scales (f8E8M0FNU)}}
  nvfp4.quantize ins(%x : memref<4x64xf32>) outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x2xf8E8M0FNU>) returns_global_scale(%r : memref<1xf32>)
  return
}

// -----

func.func @returned_scale_shape(%x: memref<4x64xf32>, %q: memref<4x64xf4E2M1FN>, %sf: memref<4x4xf8E4M3FN>, %r: memref<8xf32>) {
  // expected-error @+1 {{expects 'returns_global_scale' to hold one f32 (memref<1xf32>), but got 'memref<8xf32>'}}
  nvfp4.quantize ins(%x : memref<4x64xf32>) outs(%q, %sf : memref<4x64xf4E2M1FN>, memref<4x4xf8E4M3FN>) returns_global_scale(%r : memref<8xf32>)
  return
}

// -----

func.func @amax_words(%x: memref<4x64xf32>, %g: memref<1xf32>, %i: index) {
  // expected-error @+1 {{expects words to be a positive multiple of 256 (the CTA's threads), but got 100}}
  nvfp4.global_amax_tile <amax> ins(%x : memref<4x64xf32>) outs(%g : memref<1xf32>) at %i words 100
  return
}

// -----

func.func @fp4_c_without_scales(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf4E2M1FN>) {
  // expected-error @+1 {{expects 'c_scales' (C's e4m3 or e8m0 block scales) with an FP4 C (f4E2M1FN)}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf4E2M1FN>)
  return
}

// -----

func.func @scales_with_float_c(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf16>, %sfc: memref<128x4xf8E4M3FN>) {
  // expected-error @+1 {{expects 'c_scales', 'c_global_scale' and 'c_scale_rounding' only with an FP4 C (f4E2M1FN), but C is 'f16'}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf16>) c_scales(%sfc : memref<128x4xf8E4M3FN>)
  return
}

// -----

func.func @mx_c_global_scale(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf4E2M1FN>, %sfc: memref<128x2xf8E8M0FNU>, %g: memref<1xf32>) {
  // expected-error @+1 {{expects no 'c_global_scale' with an MXFP4 C (f8E8M0FNU 'c_scales'): MXFP4 has only its power-of-two block scales}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf4E2M1FN>) c_scales(%sfc : memref<128x2xf8E8M0FNU>) c_global_scale(%g : memref<1xf32>)
  return
}

// -----

func.func @nvfp4_c_scale_rounding(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf4E2M1FN>, %sfc: memref<128x4xf8E4M3FN>) {
  // expected-error @+1 {{expects 'c_scale_rounding' only with an MXFP4 C (f8E8M0FNU 'c_scales'): NVFP4's e4m3 scales round to nearest}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf4E2M1FN>) c_scales(%sfc : memref<128x4xf8E4M3FN>) {c_scale_rounding = #nvfp4.scale_rounding<rceil>}
  return
}

// -----

func.func @float_c_scale_rounding(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xbf16>) {
  // expected-error @+1 {{expects 'c_scales', 'c_global_scale' and 'c_scale_rounding' only with an FP4 C (f4E2M1FN), but C is 'bf16'}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xbf16>) {c_scale_rounding = #nvfp4.scale_rounding<floor>}
  return
}

// -----

func.func @mx_c_n_not_32(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x8xf8E8M0FNU>, %b: memref<48x256xf4E2M1FN>, %sfb: memref<48x8xf8E8M0FNU>, %c: memref<128x48xf4E2M1FN>, %sfc: memref<128x1xf8E8M0FNU>) {
  // expected-error @+1 {{expects N (48) to be a multiple of 32 with an MXFP4 C (one scale per 32 values of a row)}}
  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b, %sfb, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x8xf8E8M0FNU>, memref<48x256xf4E2M1FN>, memref<48x8xf8E8M0FNU>, memref<48x256xf4E2M1FN>, memref<48x8xf8E8M0FNU>) outs(%c : memref<128x48xf4E2M1FN>) c_scales(%sfc : memref<128x1xf8E8M0FNU>)
  return
}

// -----

func.func @mx_c_scales_shape(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf4E2M1FN>, %sfc: memref<1x1x32x4x4xf8E8M0FNU>) {
  // expected-error @+1 {{expects 'c_scales' in the plain scale layout to have shape [128, 2]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf4E2M1FN>) c_scales(%sfc : memref<1x1x32x4x4xf8E8M0FNU>)
  return
}

// -----

func.func @c_scales_shape(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf4E2M1FN>, %sfc: memref<128x8xf8E4M3FN>) {
  // expected-error @+1 {{expects 'c_scales' in the plain scale layout to have shape [128, 4]}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf4E2M1FN>) c_scales(%sfc : memref<128x8xf8E4M3FN>)
  return
}

// -----

func.func @c_global_scale_shape(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<64x256xf4E2M1FN>, %sfb: memref<64x16xf8E4M3FN>, %c: memref<128x64xf4E2M1FN>, %sfc: memref<128x4xf8E4M3FN>, %g: memref<2xf32>) {
  // expected-error @+1 {{expects 'c_global_scale' to hold one f32 (memref<1xf32>)}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>) outs(%c : memref<128x64xf4E2M1FN>) c_scales(%sfc : memref<128x4xf8E4M3FN>) c_global_scale(%g : memref<2xf32>)
  return
}

// -----

func.func @fp4_c_n_not_16(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>, %b: memref<40x256xf4E2M1FN>, %sfb: memref<40x16xf8E4M3FN>, %c: memref<128x40xf4E2M1FN>, %sfc: memref<128x2xf8E4M3FN>) {
  // expected-error @+1 {{expects N (40) to be a multiple of 16 with an NVFP4 C (one scale per 16 values of a row)}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<40x256xf4E2M1FN>, memref<40x16xf8E4M3FN>) outs(%c : memref<128x40xf4E2M1FN>) c_scales(%sfc : memref<128x2xf8E4M3FN>)
  return
}

// -----

// A group tile's gather writes rows of a tcgen05 MMA's N: 32, 64, ..., 256.
func.func @gather_scales_tile_m(%s: memref<100x16xf8E4M3FN>, %d: memref<2x4x32x4x4xf8E4M3FN>, %i: index) {
  // expected-error @+1 {{expects tile_m to be 32, 64, ..., 256 (the tcgen05 MMA's N), but got 48}}
  nvfp4.gather_scales_tile ins(%s : memref<100x16xf8E4M3FN>) outs(%d : memref<2x4x32x4x4xf8E4M3FN>) rows %i to %i at %i tile_m 48
  return
}

// -----

func.func @gather_scales_chunks(%s: memref<100x32xf8E4M3FN>, %d: memref<2x4x32x4x4xf8E4M3FN>, %i: index) {
  // expected-error @+1 {{expects 'dst' to have at least the 8 K chunks of 'src', but got 4}}
  nvfp4.gather_scales_tile ins(%s : memref<100x32xf8E4M3FN>) outs(%d : memref<2x4x32x4x4xf8E4M3FN>) rows %i to %i at %i tile_m 64
  return
}

// -----

// A grouped sm_100a tile reads A's scales from the gathered tiles: as many
// rows as its groups' tiles can need (ceil(128 / 64) + 2 - 1 = 3 tiles of
// 64: two 128-row blocks), not A's 128 (one).
func.func @grouped_tcgen05_sfa(%a: memref<128x256xf4E2M1FN>, %sfa: memref<1x4x32x4x4xf8E4M3FN>, %b: memref<2x128x256xf4E2M1FN>, %sfb: memref<2x1x4x32x4x4xf8E4M3FN>, %c: memref<128x128xf16>, %am: !nvfp4.tensor_map<1x128x128xi8, box = [1, 64, 128], swizzle = swizzle_128b>, %bm: !nvfp4.tensor_map<2x128x128xi8, box = [1, 128, 128], swizzle = swizzle_128b>, %i: index) {
  // expected-error @+1 {{expects 'sfa' in the blocked scale layout to have shape [2, 4, 32, 4, 4]}}
  nvfp4.gemm_tile ins(%a, %sfa : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>) weight(%b, %sfb : memref<2x128x256xf4E2M1FN>, memref<2x1x4x32x4x4xf8E4M3FN>) a_bytes(%am : !nvfp4.tensor_map<1x128x128xi8, box = [1, 64, 128], swizzle = swizzle_128b>) b_bytes(%bm : !nvfp4.tensor_map<2x128x128xi8, box = [1, 128, 128], swizzle = swizzle_128b>) outs(%c : memref<128x128xf16>) at m %i n %i batch %i group %i rows %i to %i plan #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, stages = 2>> epilogue {
  ^bb0(%x: f32):
    nvfp4.yield %x : f32
  } {sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = #nvfp4.scale_layout<blocked>}
  return
}

// -----

// expected-error @+1 {{expects cta_group to be 1 or 2 (CTAs per tcgen05 MMA), but got 3}}
func.func @tcgen05_cta_group(%x: i32) attributes {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 4, cta_group = 3>>} {
  return
}

// -----

// A pair's MMA takes half of its N rows from each CTA: at least 32 each.
// expected-error @+1 {{expects tile_m to be 64, 128 or 256 with cta_group = 2 (at least 32 rows of A in each CTA of the pair), but got 32}}
func.func @tcgen05_pair_tile_m(%x: i32) attributes {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 32, stages = 4, cta_group = 2>>} {
  return
}

// -----

// expected-error @+1 {{#nvfp4.split_k<splits = 2, mode = cluster> adds its splits in a cluster, but #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 4, cta_group = 2> makes each cluster a CTA pair (cta_group = 2); split K globally or use cta_group = 1}}
func.func private @tcgen05_pair_split_cluster() attributes {plan = #nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, stages = 4, cta_group = 2>, reduction = #nvfp4.split_k<splits = 2, mode = cluster>>}

// -----

// expected-error @+1 {{expects cta_group to be 1 or 2, got 4}}
func.func @tmem_cta_group(%t: !nvfp4.tmem<columns = 128, cta_group = 4>) {
  return
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @forward_single(%slot: i32) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>
    // expected-error @+1 {{expects the ring of a CTA pair (cta_group = 2): it tells the pair's first CTA that a slot of the second landed}}
    nvfp4.ring.forward %ring[%slot] : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @wait_peer_single(%slot: i32, %phase: i32) kernel {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>
    // expected-error @+1 {{waits for the peer's bytes of the slot, which only the ring of a CTA pair (cta_group = 2) has}}
    nvfp4.ring.wait %ring[%slot] phase %phase peer : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>
    gpu.return
  }
}

// -----

// A pair's MMA is M = 256 (cta_group::2); the descriptor says M = 128.
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair_mma_m(%slot: i32, %acc: i1, %shift: i32) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>} {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1, cta_group = 2>
    %tmem = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 128, cta_group = 2>
    // expected-error @+1 {{expects a kind::mxf4nvf4 instruction descriptor of M = 256 (cta_group::2) whose scale ids fit its scale format (ue4m3: 0; ue8m0: 0 or 2), got 135267456}}
    nvfp4.tcgen05.mma %tmem, %ring[%slot] accumulate %acc sfb_shift %shift {a_desc = 4611756662049538048 : i64, b_desc = 4611756662049539072 : i64, column_step = 32 : i64, d_column = 0 : i64, idesc = 135267456 : i32, sfa_column = 64 : i64, sfb_column = 80 : i64} : !nvfp4.tmem<columns = 128, cta_group = 2>, !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1, cta_group = 2>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @mixed_groups(%slot: i32) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>} {
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>
    %tmem = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 128, cta_group = 2>
    // expected-error @+1 {{expects the ring and the allocation of one CTA group, but the ring has cta_group = 1 and the allocation 2}}
    nvfp4.tcgen05.cp %ring[%slot] at 16384 to %tmem column 64 step 32 : !nvfp4.ring<stages = 2, slot_bytes = 28672, consumers = 1>, !nvfp4.tmem<columns = 128, cta_group = 2>
    gpu.return
  }
}

// -----

// A pair's allocation waits for its peer: the kernel must be one of pairs.
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @pair_without_cluster() kernel {
    // expected-error @+1 {{allocates for a CTA pair (cta_group = 2), whose kernel must be a gpu.func of known_cluster_size 2 x 1 x 1}}
    %tmem = nvfp4.tmem.alloc : !nvfp4.tmem<columns = 128, cta_group = 2>
    gpu.return
  }
}

// -----

func.func @mx_store_without_exchange(%acc: vector<32xf32>, %c: memref<64x96xf4E2M1FN>, %sfc: memref<64x3xf8E8M0FNU>, %m: i32, %row: i32, %l: index) {
  // expected-error @+1 {{expects an MXFP4 C's amax exchange in the ring ('staged in ... at ... warpgroups ...')}}
  nvfp4.wgmma.store %acc outs(%c : memref<64x96xf4E2M1FN>) c_scales(%sfc : memref<64x3xf8E8M0FNU>) at m %m row %row batch %l : vector<32xf32>
  return
}

// -----

func.func @mx_exchange_past_ring(%acc: vector<32xf32>, %c: memref<64x96xf4E2M1FN>, %sfc: memref<64x3xf8E8M0FNU>, %m: i32, %row: i32, %l: index, %r: !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 4>) {
  // expected-error @+1 {{exchanges an MXFP4 C's amaxes at byte 1040 up to 2064, which must be 16-byte aligned and within the ring's 2048 bytes of data}}
  nvfp4.wgmma.store %acc outs(%c : memref<64x96xf4E2M1FN>) c_scales(%sfc : memref<64x3xf8E8M0FNU>) at m %m row %row batch %l staged in %r at 1040 warpgroups 1 : vector<32xf32>, !nvfp4.ring<stages = 2, slot_bytes = 1024, consumers = 4>
  return
}

// -----

func.func @nvfp4_store_staged(%acc: vector<32xf32>, %c: memref<64x96xf4E2M1FN>, %sfc: memref<64x6xf8E4M3FN>, %m: i32, %row: i32, %l: index, %r: !nvfp4.ring<stages = 2, slot_bytes = 16384, consumers = 4>) {
  // expected-error @+1 {{stages a float C's tile only, not an NVFP4 C}}
  nvfp4.wgmma.store %acc outs(%c : memref<64x96xf4E2M1FN>) c_scales(%sfc : memref<64x6xf8E4M3FN>) at m %m row %row batch %l staged in %r at 0 warpgroups 1 : vector<32xf32>, !nvfp4.ring<stages = 2, slot_bytes = 16384, consumers = 4>
  return
}
