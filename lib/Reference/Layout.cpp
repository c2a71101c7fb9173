//===- Layout.cpp - Block-scale factor layouts ------------------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Reference/Layout.h"

#include <cassert>
#include <cstring>

namespace nvfp4 {
namespace ref {

namespace {

/// Returns ceil(value / divisor) for non-negative value, positive divisor.
int64_t ceilDiv(int64_t value, int64_t divisor) {
  return (value + divisor - 1) / divisor;
}

} // namespace

int64_t blockedScaleBytes(int64_t rows, int64_t kb) {
  assert(rows >= 0 && kb >= 0 && "negative scale array extent");
  return ceilDiv(rows, kBlockedAtomRows) * ceilDiv(kb, kBlockedAtomCols) *
         kBlockedAtomBytes;
}

int64_t blockedScaleOffset(int64_t row, int64_t col, int64_t kb) {
  assert(row >= 0 && col >= 0 && col < kb && "scale index out of range");
  int64_t atom = (row / kBlockedAtomRows) * ceilDiv(kb, kBlockedAtomCols) +
                 col / kBlockedAtomCols;
  int64_t inner = (row % 32) * 16 + ((row % kBlockedAtomRows) / 32) * 4 +
                  col % kBlockedAtomCols;
  return atom * kBlockedAtomBytes + inner;
}

int64_t scaleOffset(ScaleLayout layout, int64_t row, int64_t col, int64_t rows,
                    int64_t kb) {
  assert(row < rows && "scale row out of range");
  (void)rows;
  if (layout == ScaleLayout::Plain)
    return row * kb + col;
  return blockedScaleOffset(row, col, kb);
}

int64_t scaleBytes(ScaleLayout layout, int64_t rows, int64_t kb) {
  if (layout == ScaleLayout::Plain)
    return rows * kb;
  return blockedScaleBytes(rows, kb);
}

void plainToBlocked(const uint8_t *plain, int64_t rows, int64_t kb,
                    uint8_t *blocked) {
  toBlockedPadded(plain, ScaleLayout::Plain, rows, kb, kb, blocked);
}

void blockedToPlain(const uint8_t *blocked, int64_t rows, int64_t kb,
                    uint8_t *plain) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < kb; ++c)
      plain[r * kb + c] = blocked[blockedScaleOffset(r, c, kb)];
}

void toBlockedPadded(const uint8_t *src, ScaleLayout layout, int64_t rows,
                     int64_t kb, int64_t kbOut, uint8_t *blocked) {
  assert(kb <= kbOut && "padding cannot drop scale columns");
  int64_t bytes = blockedScaleBytes(rows, kbOut);
  if (bytes == 0)
    return;
  std::memset(blocked, 0, static_cast<size_t>(bytes));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < kb; ++c)
      blocked[blockedScaleOffset(r, c, kbOut)] =
          src[scaleOffset(layout, r, c, rows, kb)];
}

} // namespace ref
} // namespace nvfp4
