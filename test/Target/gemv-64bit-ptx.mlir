// Address arithmetic of a GEMV whose A holds more than 2^31 bytes per
// batch (2^20 rows x 4096 bytes = 4 GiB): row offsets are 64-bit products
// (mul.wide / shl.b64 of a zero-extended row index), never 32-bit ones
// that would wrap.
// RUN: nvfp4-run %s --target sm_90a --emit=ptx | FileCheck %s
// CHECK-LABEL: .entry big_kernel
// CHECK: mov.u32 [[BY:%r[0-9]+]], %ctaid.y;
// The global row index: batch x M + row, in 64 bits.
// CHECK: cvt.u64.u32 [[ROW:%rd[0-9]+]], %r{{[0-9]+}};
// CHECK: mul.wide.u32 [[BASE:%rd[0-9]+]], [[BY]], 1048576;
// CHECK: add.s64 [[GLOBAL:%rd[0-9]+]], [[BASE]], [[ROW]];
// A row's byte offset: the global row index times 4096 bytes.
// CHECK: shl.b64 {{%rd[0-9]+}}, [[GLOBAL]], 12;
// CHECK-NOT: mul.lo.s32 {{.*}}4096
// CHECK-NOT: shl.b32 {{.*}}, 12;
func.func @big(%a: memref<2x1048576x8192xf4E2M1FN>, %sfa: memref<2x1048576x512xf8E4M3FN>, %b: memref<2x1x8192xf4E2M1FN>, %sfb: memref<2x1x512xf8E4M3FN>, %c: memref<2x1048576x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<2x1048576x8192xf4E2M1FN>, memref<2x1048576x512xf8E4M3FN>, memref<2x1x8192xf4E2M1FN>, memref<2x1x512xf8E4M3FN>) outs(%c : memref<2x1048576x1xf16>)
  return
}
