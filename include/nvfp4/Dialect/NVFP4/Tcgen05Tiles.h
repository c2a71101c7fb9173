//===- Tcgen05Tiles.h - the sm_100a GEMM's TMA tiles -------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// How the sm_100a GEMM (#nvfp4.tcgen05_mainloop) copies its operands, said once
// for nvfp4-tile (which creates the maps), the gemm_tile verifier and
// nvfp4-software-pipeline (which issues the copies): A and B stay packed
// e2m1 in global memory ([batch x] rows x K/2 bytes), and a TMA copy of a
// box of [1, rows of the tile, 128 bytes] puts one slot's 256 K values of
// a tile, 128B-swizzled, where the MMA's descriptors read them. Rows past
// the operand (a ragged last tile) read as zero.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_TCGEN05TILES_H
#define NVFP4_DIALECT_NVFP4_TCGEN05TILES_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

namespace mlir::nvfp4 {

/// The tensor map of a packed operand of `rows` rows of K values per batch,
/// copied `boxRows` rows at a time.
inline TensorMapType getPackedOperandMapType(MLIRContext *ctx, int64_t batch,
                                             int64_t rows, int64_t k,
                                             int64_t boxRows) {
  return TensorMapType::get(ctx, {batch, rows, k / 2}, IntegerType::get(ctx, 8),
                            {1, boxRows, Tcgen05MainloopAttr::kStageRowBytes},
                            TensorMapSwizzle::B128);
}

} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_TCGEN05TILES_H
