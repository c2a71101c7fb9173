//===- Ops.h - Reference semantics of the NVFP4 ops -------------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// Host reference implementations of the block-scaled FP4 operations.
//
// Operand encoding (shared by every op):
//  * An operand is a (rows, K) matrix, K a multiple of 16, stored row-major
//    as packed E2M1: a row is K / 2 bytes, element 2i is the low nibble of
//    byte i and element 2i + 1 its high nibble.
//  * Every 16 consecutive elements of a row (k in [16j, 16j + 16)) share the
//    E4M3 scale (row, j); the (rows, K / 16) scales are stored in a
//    ScaleLayout (see Layout.h).
//  * The real value of element (r, k) is
//      decodeE2M1(nibble(r, k)) * decodeE4M3(scale(r, k / 16)).
//
// Arithmetic: outputs are fp32 arrays; conversion to a stored output type
// (half, bf16, ...) is done separately with the Formats.h converters.
// Dot products are accumulated in fp32. For each 16-element block the 16
// products are summed first; that partial sum is exact in fp32 (every
// product is an integer multiple of 2^-2 * ulp(sa) * ulp(sb) below 2^20 such
// units), so its summation order does not matter. Block partial sums are then
// added in increasing k order into an fp32 accumulator starting at +0.0f;
// this is the only rounding. NaN scale codes (0x7F / 0xFF) make every
// product of their block, and so the outputs that use them, NaN.
//
// MXFP4 (ScaleFormat::MXFP4) has E8M0 scales per 32 elements. A block's
// partial sum is exact, as the products' true value: the 32 e2m1 products
// are summed (exactly, at most 1152 on a 0.25 grid), then scaled by
// 2^(ca + cb - 254) with one rounding to fp32 (ldexp), so a partial sum
// overflows to infinity only where the exact one exceeds fp32 and flushes
// to zero or a subnormal only where it is that small. Partial sums are
// added in increasing k order; a NaN code (0xFF) makes its partial NaN.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_REFERENCE_OPS_H
#define NVFP4_REFERENCE_OPS_H

#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Reference/Layout.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace nvfp4 {
namespace ref {

/// Number of consecutive K elements that share one E4M3 scale.
constexpr int64_t kBlockSize = 16;

/// The block format of an operand's scales.
enum class ScaleFormat {
  /// E4M3 scales per 16 elements.
  NVFP4,
  /// E8M0 (power-of-two) scales per 32 elements.
  MXFP4
};

/// Elements per scale of `format`.
inline int64_t blockSizeOf(ScaleFormat format) {
  return format == ScaleFormat::MXFP4 ? 32 : kBlockSize;
}

/// The value of scale byte `code` of `format`.
float decodeScale(ScaleFormat format, uint8_t code);

/// A read-only view of one block-scaled E2M1 operand of shape (rows, k).
struct ScaledMatrix {
  /// Packed E2M1 data, rows * k / 2 bytes.
  const uint8_t *data;
  /// E4M3 scales in `layout`: rows * k / 16 bytes when Plain,
  /// blockedScaleBytes(rows, k / 16) bytes when Blocked.
  const uint8_t *scales;
  /// Number of rows (M for the left operand, N for the right one).
  int64_t rows;
  /// Reduction extent K; must be a multiple of 16.
  int64_t k;
  /// Layout of `scales`.
  ScaleLayout layout;
  /// The scales' format (K a multiple of its block size).
  ScaleFormat format = ScaleFormat::NVFP4;

  /// Scale columns of a row.
  int64_t scaleColumns() const { return k / blockSizeOf(format); }

  /// Returns the decoded value of element (r, kk): the E2M1 element times its
  /// block's scale, computed in fp32 (exact, but for MXFP4's two largest
  /// scales, whose products with 2 and more overflow).
  float value(int64_t r, int64_t kk) const;
};

/// Decodes row `r` of `m` into `out` (m.k floats), element by element as
/// ScaledMatrix::value does.
void decodeRow(const ScaledMatrix &m, int64_t r, float *out);

/// Block-scaled matrix product with B given as (N, K) rows ("TN" GEMM):
///   c[m * N + n] = sum_k a(m, k) * b(n, k)
/// with M = a.rows, N = b.rows and a.k == b.k, accumulated in fp32 as
/// described in the file comment. `c` receives M * N floats, row-major.
void scaledMatmul(const ScaledMatrix &a, const ScaledMatrix &b, float *c);

/// Batched scaledMatmul over `batches` independent problems stored back to
/// back. `a` and `b` describe batch 0; batch l's data starts
/// l * rows * k / 2 bytes after batch 0's, its scales l * S bytes after
/// batch 0's, where S = rows * k / 16 (Plain) or blockedScaleBytes(rows,
/// k / 16) (Blocked), i.e. each batch has its own blocked region. `c`
/// receives batches * M * N floats, batch-major.
void batchedScaledMatmul(int64_t batches, const ScaledMatrix &a,
                         const ScaledMatrix &b, float *c);

/// Dual block-scaled product with a fused SiLU-gated epilogue:
///   c[m * N + n] = silu(acc1) * acc2,  acc1 = (a . b1^T)[m, n],
///                                       acc2 = (a . b2^T)[m, n]
/// where both accumulators are computed exactly as scaledMatmul computes
/// them (fp32) and the epilogue is evaluated in fp32 with ref::silu.
/// b1 and b2 must have the same shape.
void scaledDualMatmul(const ScaledMatrix &a, const ScaledMatrix &b1,
                      const ScaledMatrix &b2, float *c);

/// Grouped block-scaled product (mixture-of-experts style). Group g has
/// groupM[g] rows of A (groups concatenated along rows, sum(groupM) rows in
/// all) and its own (n, k) matrix B_g; C is (sum(groupM), n), row-major, and
///   C rows of group g = A rows of group g . B_g^T   (as scaledMatmul).
/// Storage:
///  * aData: sum(groupM) * k / 2 bytes, groups concatenated.
///  * aScales: Plain: the (sum(groupM), k / 16) array of all groups'
///    scales. Blocked: each group's scales in its own blocked region of
///    blockedScaleBytes(groupM[g], k / 16) bytes, regions concatenated in
///    group order (a group with zero rows has an empty region).
///  * bData: G * n * k / 2 bytes, matrix g at g * n * k / 2.
///  * bScales: G consecutive regions, each n * k / 16 bytes (Plain) or
///    blockedScaleBytes(n, k / 16) bytes (Blocked).
void groupedScaledMatmul(const std::vector<int64_t> &groupM, int64_t n,
                         int64_t k, const uint8_t *aData,
                         const uint8_t *aScales, const uint8_t *bData,
                         const uint8_t *bScales, ScaleLayout layoutA,
                         ScaleLayout layoutB, float *c,
                         ScaleFormat format = ScaleFormat::NVFP4);

/// The rows [begin, end) each group owns in a grouped GEMM whose G + 1
/// run-time `offsets` are not trusted (nvfp4.grouped_matmul): each offset
/// clamped to [0, rows], then a running maximum, so the groups never
/// overlap and never leave [0, rows); a group may be empty.
std::vector<std::pair<int64_t, int64_t>>
groupRows(const int32_t *offsets, int64_t groups, int64_t rows);

/// Quantizes the row-major fp32 matrix x (rows, k), k a multiple of 16, to
/// packed E2M1 data `q` (rows * k / 2 bytes) and E4M3 scales `scales`
/// (scaleBytes(layout, rows, k / 16) bytes; in the Blocked layout padding
/// bytes are written as zero), with the per-tensor scale `global` (NVFP4's
/// two-level scaling; 1 gives the single-level formulas). For every row
/// and 16-element block, in fp32:
///   amax = max |x_i| over the block,
///   code = amax == 0 ? 0 : encodeE4M3((amax / 6.0f) / global)   (RNE,
///          satfinite),
///   s    = decodeE4M3(code) * global,
///   q_i  = s == 0 ? 0 (code 0x0, +0) : encodeE2M1(x_i / s).
/// The scale is rounded to nearest, so it can be slightly below amax / 6;
/// elements whose x_i / s then exceeds 6 saturate to +-6.
/// Special values: NaN elements are skipped when taking amax (like fmaxf,
/// so a block of only NaN and zeros gets scale 0 and all-zero data) and,
/// when s != 0, encode as encodeE2M1(NaN) = 0x7 (+6). An infinite element
/// makes amax infinite, the scale saturates to 448 and the infinite element
/// encodes as +-6, the finite ones as encodeE2M1(x_i / (448 * global)).
/// A global of 0 gives scale 448 and s = 0 (all-zero data); a NaN global
/// NaN scales (0x7F) and data 0x7.
void quantize(const float *x, int64_t rows, int64_t k, ScaleLayout layout,
              uint8_t *q, uint8_t *scales, float global = 1.0f);

/// Quantizes like `quantize` to MXFP4: k a multiple of 32, E8M0 scales
/// (scaleBytes(layout, rows, k / 32) bytes), no per-tensor scale. For every
/// row and 32-element block, in fp32:
///   amax = max |x_i| over the block (NaN elements skipped),
///   code = encodeE8M0Scale(amax, rounding)   (0 for amax == 0, 254 for
///          an infinite amax),
///   q_i  = encodeE2M1(x_i * 2^(127 - code))  (an exact scaling, then RNE
///          and satfinite; NaN encodes as 0x7).
void quantizeMX(const float *x, int64_t rows, int64_t k, ScaleLayout layout,
                uint8_t *q, uint8_t *scales, MXRounding rounding);

} // namespace ref
} // namespace nvfp4

#endif // NVFP4_REFERENCE_OPS_H
