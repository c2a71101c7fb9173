//===- WgmmaBTiles.h - B's chunks in an sm_90a ring -------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// With a #nvfp4.wgmma_mainloop's `b_tma`, the producer copies each K chunk
// of the CTA's rows of B into the ring slot behind A's tile: the packed e2m1
// bytes ([batch x] N x K/2 in global memory; a box of [1, tile_n rows, 32
// bytes], unswizzled: a row's 64 values of the chunk) and, with plain
// scales, the rows' scale codes ([batch x] N x K/16, MXFP4's K/32; a box
// of [1, tile_n, 16 bytes]: the 16-byte aligned window of 4 chunks' codes,
// MXFP4's 8, that holds the chunk's, since TMA copies at least 16 bytes a
// row and faults on a box that starts inside such a window), or with
// blocked scales the chunk's 128 x 4 atom (MXFP4: shared by two chunks) of
// the rows' 128-row block (512 contiguous bytes: one row of a map of 128
// i32 per atom). Rows past N read as zero.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_WGMMABTILES_H
#define NVFP4_DIALECT_NVFP4_WGMMABTILES_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

namespace mlir::nvfp4 {

/// Whether B's scales in `layout` can come through a tensor map at K: a
/// plain row of scales (K / 16 bytes, MXFP4's K / 32) must be a multiple
/// of 16 bytes.
inline bool bTmaScalesFit(ScaleLayout layout, int64_t k,
                          BlockFormat format = BlockFormat::nvfp4()) {
  return layout == ScaleLayout::Blocked || k % (16 * format.blockSize) == 0;
}

/// The tensor map of B's packed bytes, one chunk of a CTA's rows a copy.
inline TensorMapType getWgmmaBMapType(MLIRContext *ctx, WgmmaMainloopAttr plan,
                                      int64_t batch, int64_t n, int64_t k) {
  return TensorMapType::get(ctx, {batch, n, k / 2}, IntegerType::get(ctx, 8),
                            {1, plan.getTileN(), WgmmaMainloopAttr::kTileK / 2},
                            TensorMapSwizzle::None);
}

/// The tensor map of B's scale codes: plain, 16 of a row a copy; blocked,
/// the [batch x] ceil(N / 128) x K / 64 (MXFP4: ceil(K / 128)) atoms of
/// 512 bytes as rows of 128 i32, one atom a copy.
inline TensorMapType getWgmmaSfbMapType(MLIRContext *ctx,
                                        WgmmaMainloopAttr plan,
                                        BlockFormat format, ScaleLayout layout,
                                        int64_t batch, int64_t n, int64_t k) {
  if (layout == ScaleLayout::Blocked)
    return TensorMapType::get(
        ctx,
        {batch * BlockFormat::getRowAtoms(n) * format.getColumnAtoms(k), 128},
        IntegerType::get(ctx, 32), {1, 128}, TensorMapSwizzle::None);
  return TensorMapType::get(ctx, {batch, n, format.getScaleColumns(k)},
                            IntegerType::get(ctx, 8), {1, plan.getTileN(), 16},
                            TensorMapSwizzle::None);
}

} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_WGMMABTILES_H
