//===- Layout.h - Block-scale factor layouts --------------------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// Layouts of the E4M3 block-scale factors of an NVFP4 operand with `rows`
// rows and `kb` = K / 16 scale columns.
//
//  * Plain: a (rows, kb) row-major byte array; scale (r, c) is at r * kb + c.
//
//  * Blocked (the cuBLAS / tcgen05 "128x4" layout): rows are padded to a
//    multiple of 128 and kb to a multiple of 4. The padded array is cut into
//    atoms of 128 rows x 4 scale columns, each stored as 512 contiguous
//    bytes. Atoms are ordered row-block major, k-block minor:
//      atom  = (r / 128) * ceil(kb / 4) + (c / 4)
//    and inside an atom
//      inner = (r % 32) * 16 + ((r % 128) / 32) * 4 + (c % 4)
//    so offset = atom * 512 + inner. Padding bytes are zero.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_REFERENCE_LAYOUT_H
#define NVFP4_REFERENCE_LAYOUT_H

#include <cstdint>

namespace nvfp4 {
namespace ref {

/// How the block-scale factors of one operand are stored.
enum class ScaleLayout { Plain, Blocked };

/// Rows of one blocked-layout atom.
constexpr int64_t kBlockedAtomRows = 128;
/// Scale columns of one blocked-layout atom.
constexpr int64_t kBlockedAtomCols = 4;
/// Bytes of one blocked-layout atom.
constexpr int64_t kBlockedAtomBytes = kBlockedAtomRows * kBlockedAtomCols;

/// Returns the size in bytes of the blocked scale array of an operand with
/// `rows` rows and `kb` scale columns: roundUp(rows, 128) * roundUp(kb, 4).
/// Zero when rows or kb is zero.
int64_t blockedScaleBytes(int64_t rows, int64_t kb);

/// Returns the byte offset of scale (row, col) in the blocked layout of an
/// operand with `kb` scale columns (the row count does not matter).
int64_t blockedScaleOffset(int64_t row, int64_t col, int64_t kb);

/// Returns the byte offset of scale (row, col) of an operand with `rows` rows
/// and `kb` scale columns stored in `layout`: row * kb + col for Plain,
/// blockedScaleOffset(row, col, kb) for Blocked.
int64_t scaleOffset(ScaleLayout layout, int64_t row, int64_t col, int64_t rows,
                    int64_t kb);

/// Returns the size in bytes of the scale array of an operand with `rows`
/// rows and `kb` scale columns stored in `layout`.
int64_t scaleBytes(ScaleLayout layout, int64_t rows, int64_t kb);

/// Converts a plain (rows, kb) scale array to the blocked layout. `blocked`
/// must hold blockedScaleBytes(rows, kb) bytes; every byte is written and
/// padding bytes are set to zero.
void plainToBlocked(const uint8_t *plain, int64_t rows, int64_t kb,
                    uint8_t *blocked);

/// Converts a blocked scale array back to a plain (rows, kb) array of
/// rows * kb bytes. Padding bytes of `blocked` are ignored.
void blockedToPlain(const uint8_t *blocked, int64_t rows, int64_t kb,
                    uint8_t *plain);

/// Writes the blocked layout of the scales of an operand with `rows` rows
/// and `kbOut` >= kb scale columns from its `kb` columns in `src`, stored
/// in `layout`: columns past kb and padding rows are zero. `blocked` must
/// hold blockedScaleBytes(rows, kbOut) bytes. (nvfp4.block_scales_tile, the
/// sm_100a GEMM's pre-pass, computes this per batch with kbOut a multiple
/// of 16: K padded to whole 256-value slices.)
void toBlockedPadded(const uint8_t *src, ScaleLayout layout, int64_t rows,
                     int64_t kb, int64_t kbOut, uint8_t *blocked);

} // namespace ref
} // namespace nvfp4

#endif // NVFP4_REFERENCE_LAYOUT_H
