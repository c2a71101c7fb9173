// nvfp4.quantize through the whole pipeline for both targets: bf16 rows of
// 7168 values with a per-tensor scale and blocked scales. Each thread
// loads its two blocks with four 16-byte loads, takes each block's amax
// with max.f32 (NaN skipped; no libdevice call), encodes the scale with
// cvt.rn.satfinite.e4m3x2.f32 (sm_89 and later) and decodes it with
// cvt.rn.f16x2.e4m3x2, and divides the values by it exactly: div.rn.f32
// for the scale's reciprocal once per block, then per value a multiply and
// two fma corrections (a block whose scale is below 2^-64 or above 2^64
// divides each value with div.rn.f32 instead). sm_100a encodes each pair
// of values with cvt.rn.satfinite.e2m1x2.f32; sm_90a, which has no e2m1
// conversion, rounds below 1 by adding 2|y| to 2^23 (an fma) and above
// by integer rounding at bit 22. The values go out in one 16-byte store.
// ptxas assembles both without spills.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.90.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 < %t.90.ptx
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | %python %nvfp4_src_root/bench/ptx_of.py > %t.100.ptx
// RUN: FileCheck %s --check-prefixes=CHECK,SM100 < %t.100.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t.90.ptx -o %t.90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.100.ptx -o %t.100.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: .entry quantize_kernel
// CHECK-COUNT-4: ld.global{{(\.nc)?}}.v4.{{[bu]}}32
// CHECK-NOT: call
// CHECK: max.f32
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: cvt.rn.f16x2.e4m3x2
// CHECK: div.rn.f32
// CHECK-COUNT-4: fma.rn.f32
// SM90-NOT: e2m1x2
// SM90: fma.rn.f32 {{.*}}0f40000000, 0f4B000000
// SM100: cvt.rn.satfinite.e2m1x2.f32
// CHECK: st.global.v4.{{[bu]}}32
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @quantize(%x: memref<128x7168xbf16>, %g: memref<1xf32>, %q: memref<128x7168xf4E2M1FN>, %sf: memref<1x112x32x4x4xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<128x7168xbf16>) global_scale(%g : memref<1xf32>) outs(%q, %sf : memref<128x7168xf4E2M1FN>, memref<1x112x32x4x4xf8E4M3FN>) {sf_layout = #nvfp4.scale_layout<blocked>}
  return
}
