// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_90a -verify-diagnostics | FileCheck %s --check-prefix=SM90
// RUN: nvfp4-opt %s -split-input-file -nvfp4-plan=target=sm_100a -verify-diagnostics | FileCheck %s --check-prefix=SM100

// SM90-LABEL: func.func @contest_gemv
// SM90: nvfp4.scaled_matmul {{.*}} {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 2, stage_b = true>}
// SM100-LABEL: func.func @contest_gemv
// B decoded to f16 (2 B/value) plus fp32 scales: 16384 * 2 + 1024 * 4 =
// 36 KiB fits the 40 KiB staging budget.
// SM100: nvfp4.scaled_matmul {{.*}} {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 32, unroll = 2, stage_b = true>}
func.func @contest_gemv(%a: memref<1x7168x16384xf4E2M1FN>, %sfa: memref<1x7168x1024xf8E4M3FN>, %b: memref<1x1x16384xf4E2M1FN>, %sfb: memref<1x1x1024xf8E4M3FN>, %c: memref<1x7168x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x7168x16384xf4E2M1FN>, memref<1x7168x1024xf8E4M3FN>, memref<1x1x16384xf4E2M1FN>, memref<1x1x1024xf8E4M3FN>) outs(%c : memref<1x7168x1xf16>)
  return
}

// -----

// A short row: 2048 values are 1024 bytes, 2 steps of 16 bytes per lane;
// short rows take 4 warps of 2 rows and one step per iteration, so the
// software pipeline has 2 iterations to overlap.
// SM90-LABEL: func.func @short_rows
// SM90: warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 1, stage_b = true>
// SM100-LABEL: func.func @short_rows
// SM100: warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 32, unroll = 1, stage_b = true>

func.func @short_rows(%a: memref<4x7168x2048xf4E2M1FN>, %sfa: memref<4x7168x128xf8E4M3FN>, %b: memref<4x1x2048xf4E2M1FN>, %sfb: memref<4x1x128xf8E4M3FN>, %c: memref<4x7168x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<4x7168x2048xf4E2M1FN>, memref<4x7168x128xf8E4M3FN>, memref<4x1x2048xf4E2M1FN>, memref<4x1x128xf8E4M3FN>) outs(%c : memref<4x7168x1xf16>)
  return
}

// -----

// A mid-length row (K = 7168, 7 steps of 16 bytes): 8 warps of one row,
// 1 step per iteration, 3 iterations in flight; sm_100a (32 bytes a step)
// keeps 2 steps per iteration and 1 in flight.
// SM90-LABEL: func.func @mid_rows
// SM90: warps_per_cta = 8, rows_per_warp = 1, bytes_per_thread = 16, unroll = 1, stage_b = true, prefetch_distance = 3>
// SM100-LABEL: func.func @mid_rows
// SM100: warps_per_cta = 8, rows_per_warp = 1, bytes_per_thread = 32, unroll = 2, stage_b = true>
func.func @mid_rows(%a: memref<8x4096x7168xf4E2M1FN>, %sfa: memref<8x4096x448xf8E4M3FN>, %b: memref<8x1x7168xf4E2M1FN>, %sfb: memref<8x1x448xf8E4M3FN>, %c: memref<8x4096x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<8x4096x7168xf4E2M1FN>, memref<8x4096x448xf8E4M3FN>, memref<8x1x7168xf4E2M1FN>, memref<8x1x448xf8E4M3FN>) outs(%c : memref<8x4096x1xf16>)
  return
}

// -----

// A plan written by the user is kept.
// SM90-LABEL: func.func @user_plan
// SM90: nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 8, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2>}
func.func @user_plan(%a: memref<1x64x1024xf4E2M1FN>, %sfa: memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : memref<1x64x1xf32>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 8, rows_per_warp = 1, bytes_per_thread = 16, unroll = 2>}
  return
}

// -----

// A row too long to stage in shared memory: B stays in registers (the
// default stage_b = false is not printed). 8 rows are one CTA: the warps
// split K 4 ways to spread the work over more SMs.
// SM90-LABEL: func.func @long_row
// SM90: unroll = 2, k_split = 4>}
// SM100-LABEL: func.func @long_row
// SM100: unroll = 2, k_split = 4>}
func.func @long_row(%a: memref<1x8x65536xf4E2M1FN>, %sfa: memref<1x8x4096xf8E4M3FN>, %b: memref<1x1x65536xf4E2M1FN>, %sfb: memref<1x1x4096xf8E4M3FN>, %c: memref<1x8x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x8x65536xf4E2M1FN>, memref<1x8x4096xf8E4M3FN>, memref<1x1x65536xf4E2M1FN>, memref<1x1x4096xf8E4M3FN>) outs(%c : memref<1x8x1xf16>)
  return
}

// -----

// 128 rows of a long K make only 16 CTAs of 8 rows: k_split 4 gives 64.
// SM90-LABEL: func.func @few_rows
// SM90: warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 2, stage_b = true, k_split = 4>
func.func @few_rows(%a: memref<1x128x16384xf4E2M1FN>, %sfa: memref<1x128x1024xf8E4M3FN>, %b: memref<1x1x16384xf4E2M1FN>, %sfb: memref<1x1x1024xf8E4M3FN>, %c: memref<1x128x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x128x16384xf4E2M1FN>, memref<1x128x1024xf8E4M3FN>, memref<1x1x16384xf4E2M1FN>, memref<1x1x1024xf8E4M3FN>) outs(%c : memref<1x128x1xf16>)
  return
}

// -----

// A user plan that stages a 65536-value B row (81920 bytes on sm_90a: 1 byte
// per value + 4 per scale; 147456 on sm_100a: f16 values) exceeds the 48 KiB
// of static shared memory.
func.func @too_much_shared(%a: memref<1x8x65536xf4E2M1FN>, %sfa: memref<1x8x4096xf8E4M3FN>, %b: memref<1x1x65536xf4E2M1FN>, %sfb: memref<1x1x4096xf8E4M3FN>, %c: memref<1x8x1xf16>) {
  // expected-error @+1 {{bytes of shared memory (stage_b for K = 65536), more than the 49152 a CTA can have statically; use stage_b = false}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x8x65536xf4E2M1FN>, memref<1x8x4096xf8E4M3FN>, memref<1x1x65536xf4E2M1FN>, memref<1x1x4096xf8E4M3FN>) outs(%c : memref<1x8x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 2, stage_b = true>}
  return
}

// -----

// The A ring needs rows of whole slots: 32 lanes x 16 bytes x 2 steps = 1024
// bytes, and K = 3072 has 1536-byte rows.
func.func @ring_rows(%a: memref<1x64x3072xf4E2M1FN>, %sfa: memref<1x64x192xf8E4M3FN>, %b: memref<1x1x3072xf4E2M1FN>, %sfb: memref<1x1x192xf8E4M3FN>, %c: memref<1x64x1xf16>) {
  // expected-error @+1 {{has a plan with stages = 4 whose ring slots hold 1024 bytes of each row, which do not divide a row of K = 3072 (1536 bytes); use stages = 0 or a smaller unroll}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64x3072xf4E2M1FN>, memref<1x64x192xf8E4M3FN>, memref<1x1x3072xf4E2M1FN>, memref<1x1x192xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16, unroll = 2, stage_b = true, stages = 4>}
  return
}

// -----

// The ring counts toward the static shared memory: 8 warps x 8 slots x
// (4 rows x 1152 bytes + an 8-byte mbarrier) = 295424 bytes.
func.func @ring_too_big(%a: memref<1x64x16384xf4E2M1FN>, %sfa: memref<1x64x1024xf8E4M3FN>, %b: memref<1x1x16384xf4E2M1FN>, %sfb: memref<1x1x1024xf8E4M3FN>, %c: memref<1x64x1xf16>) {
  // expected-error @+1 {{bytes of shared memory (stage_b for K = 16384, the A ring), more than the 49152 a CTA can have statically; use stage_b = false or fewer stages}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64x16384xf4E2M1FN>, memref<1x64x1024xf8E4M3FN>, memref<1x1x16384xf4E2M1FN>, memref<1x1x1024xf8E4M3FN>) outs(%c : memref<1x64x1xf16>) {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = 8, rows_per_warp = 4, bytes_per_thread = 16, unroll = 2, stage_b = true, stages = 8>}
  return
}

// -----

func.func @k_not_64(%a: memref<1x64x96xf4E2M1FN>, %sfa: memref<1x64x6xf8E4M3FN>, %b: memref<1x1x96xf4E2M1FN>, %sfb: memref<1x1x6xf8E4M3FN>, %c: memref<1x64x1xf16>) {
  // expected-error @+1 {{cannot be planned as a GEMV: the GEMV kernels need K % 64 == 0 (whole 64-value chunks per load), but K = 96}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64x96xf4E2M1FN>, memref<1x64x6xf8E4M3FN>, memref<1x1x96xf4E2M1FN>, memref<1x1x6xf8E4M3FN>) outs(%c : memref<1x64x1xf16>)
  return
}

// -----

func.func @blocked_gemv(%a: memref<128x256xf4E2M1FN>, %sfa: memref<1x4x32x4x4xf8E4M3FN>, %b: memref<1x256xf4E2M1FN>, %sfb: memref<1x16xf8E4M3FN>, %c: memref<128x1xf16>) {
  // expected-error @+1 {{cannot be planned as a GEMV: the GEMV kernels read plain (K-major) scales; convert blocked scales first}}
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<1x4x32x4x4xf8E4M3FN>, memref<1x256xf4E2M1FN>, memref<1x16xf8E4M3FN>) outs(%c : memref<128x1xf16>) {sfa_layout = #nvfp4.scale_layout<blocked>}
  return
}
