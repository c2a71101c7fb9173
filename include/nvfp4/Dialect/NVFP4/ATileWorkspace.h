//===- ATileWorkspace.h - where the GEMM pre-pass puts A's tiles -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The layout of the workspace nvfp4.decode_a_tile writes and the ring's
// fills read (plans with stages > 0), said once for both: tile (batch,
// m tile, chunk) of `GemmPlanAttr::getATileBytes()` bytes at tile index
// (batch * m_tiles + m_base / tile_m) * chunks + chunk.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_ATILEWORKSPACE_H
#define NVFP4_DIALECT_NVFP4_ATILEWORKSPACE_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::nvfp4 {

/// Emits the byte offset (i64) of decoded tile `chunk32` (i32) of the tile
/// of A's rows starting at `mBase32` (i32) of batch `batch64` (i64), for
/// `mTiles` tiles of rows and `chunks` K chunks per batch.
inline Value buildATileOffset(ImplicitLocOpBuilder &b, GemmPlanAttr plan,
                              int64_t mTiles, int64_t chunks, Value batch64,
                              Value mBase32, Value chunk32) {
  Type i64 = b.getI64Type();
  auto c64 = [&](int64_t v) { return arith::ConstantIntOp::create(b, i64, v); };
  auto add = [&](Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(x, y);
  };
  auto mul = [&](Value x, Value y) {
    return b.createOrFold<arith::MulIOp>(x, y);
  };
  Value mTile = b.createOrFold<arith::ExtUIOp>(
      i64, b.createOrFold<arith::DivUIOp>(
               mBase32, arith::ConstantIntOp::create(b, b.getI32Type(),
                                                     plan.getTileM())));
  Value tile = add(mul(add(mul(batch64, c64(mTiles)), mTile), c64(chunks)),
                   b.createOrFold<arith::ExtUIOp>(i64, chunk32));
  return mul(tile, c64(plan.getATileBytes()));
}

} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_ATILEWORKSPACE_H
