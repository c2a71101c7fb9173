//===- ATileWorkspace.h - where the pre-pass puts A's tiles -----*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The layout of the workspace nvfp4.decode_a_tile writes and the ring's
// fills read (plans with stages > 0), and the scale of the values in it,
// said once for both. The workspace is
// a row-major matrix of f16 (MXFP4: bf16) with 64 columns (one K chunk,
// 128 bytes per row): tile (batch, m tile, chunk), of tile_m rows, starts
// at row ((batch * m_tiles + m_base / tile_m) * chunks + chunk) * tile_m.
// The GEMM reads it through a tensor map whose box is one tile,
// 128B-swizzled by the copy (`getATilesMapType`).
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_ATILEWORKSPACE_H
#define NVFP4_DIALECT_NVFP4_ATILEWORKSPACE_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::nvfp4 {

/// What the sm_90a decode multiplies the values of its MMAs' operands by
/// (the weights' fragments and A's tiles alike; both exact):
/// - NVFP4: 2^-14. An e2m1 value's bits placed in f16's exponent and
///   mantissa give it times 2^-14 with no table (decodeWordPairs), and
///   value x scale x 2^-14 is a multiple of f16's smallest subnormal.
///   Many operands are f16 subnormals, so the kernels must not flush them
///   (no f32 flush-to-zero, which would make ptxas's f16x2 multiplies
///   .ftz too).
/// - MXFP4: 1/4. Every e2m1 value times 2^(c - 127) is a bf16 once divided
///   by 4 (6 x 2^127 / 4 is below bf16's largest, 0.5 x 2^-127 / 4 = 2^-130
///   above its smallest subnormal).
constexpr float kNVFP4OperandScale = 1.0f / 16384.0f;
constexpr float kMXOperandScale = 0.25f;

/// What the MMAs' fp32 sums are multiplied by after the K loop to give the
/// products' sums: the inverse of both operands' scale (2^28, 16), a power
/// of two, so exact (the sums are far from fp32's limits either way).
inline float getWgmmaAccumulatorScale(BlockFormat format) {
  const float operand = format.isMX() ? kMXOperandScale : kNVFP4OperandScale;
  return 1.0f / (operand * operand);
}

/// Bytes of one row of the workspace: a K chunk of f16 or bf16.
constexpr int64_t kATileRowBytes = WgmmaMainloopAttr::kTileK * 2;

/// The tensor map through which the GEMM copies the workspace of a
/// [batch x] m x k A: one tile per copy. MXFP4's tiles are bf16
/// (nvfp4.wgmma.decode_b says why).
inline TensorMapType getATilesMapType(WgmmaMainloopAttr plan, int64_t batch,
                                      int64_t m, int64_t k,
                                      BlockFormat format) {
  MLIRContext *ctx = plan.getContext();
  Type element = format.isMX() ? Type(BFloat16Type::get(ctx))
                               : Type(Float16Type::get(ctx));
  return TensorMapType::get(ctx,
                            {plan.getATilesBytes(batch, m, k) / kATileRowBytes,
                             WgmmaMainloopAttr::kTileK},
                            element,
                            {plan.getTileM(), WgmmaMainloopAttr::kTileK},
                            TensorMapSwizzle::B128);
}

/// Tiles of `tileM` rows the workspace holds per batch: A's rows in tiles,
/// or with `groups` > 0 (a grouped GEMM, whose pre-pass gathers each
/// group's rows into tiles of their own) as many as the groups can need.
inline int64_t getATileCount(int64_t rows, int64_t groups, int64_t tileM) {
  return groups > 0 ? GroupTileOp::maxTiles(rows, groups, tileM)
                    : (rows + tileM - 1) / tileM;
}

/// Emits the first workspace row (i32) of decoded tile `chunk32` (i32) of
/// the tile of A's rows starting at `mBase32` (i32) of batch `batch32`
/// (i32), for `mTiles` tiles of rows and `chunks` K chunks per batch. The
/// workspace's rows fit TMA's signed 32-bit coordinates (GemmTileOp's
/// verifier).
inline Value buildATileRow(ImplicitLocOpBuilder &b, WgmmaMainloopAttr plan,
                           int64_t mTiles, int64_t chunks, Value batch32,
                           Value mBase32, Value chunk32) {
  auto c32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, b.getI32Type(), v);
  };
  auto add = [&](Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(x, y);
  };
  auto mul = [&](Value x, Value y) {
    return b.createOrFold<arith::MulIOp>(x, y);
  };
  Value mTile = b.createOrFold<arith::DivUIOp>(mBase32, c32(plan.getTileM()));
  Value tile =
      add(mul(add(mul(batch32, c32(mTiles)), mTile), c32(chunks)), chunk32);
  return mul(tile, c32(plan.getTileM()));
}

} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_ATILEWORKSPACE_H
