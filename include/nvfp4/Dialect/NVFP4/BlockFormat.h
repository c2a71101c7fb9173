//===- BlockFormat.h - a block-scaled FP4 format, said once -----*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// What a block-scaled FP4 format is: packed e2m1 values (two a byte) and one
// scale per `blockSize` values along K, kept plain ([batch x] rows x
// K / blockSize) or in the blocked layout of 128-row x 4-column atoms of
// 512 bytes that cuBLAS and tcgen05.cp read. NVFP4 scales are e4m3 per 16
// values; MXFP4's are e8m0 (powers of two, 0xFF NaN) per 32, spelled by
// the scale memref's element type. Everything that sizes, indexes or
// decodes scales asks the format instead of assuming 16.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_BLOCKFORMAT_H
#define NVFP4_DIALECT_NVFP4_BLOCKFORMAT_H

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::nvfp4 {

struct BlockFormat {
  enum class Kind { NVFP4, MXFP4 };

  Kind kind;
  /// Values per scale along K.
  int64_t blockSize;

  static constexpr BlockFormat nvfp4() { return {Kind::NVFP4, 16}; }
  static constexpr BlockFormat mxfp4() { return {Kind::MXFP4, 32}; }

  bool isMX() const { return kind == Kind::MXFP4; }
  bool operator==(const BlockFormat &other) const {
    return kind == other.kind;
  }
  bool operator!=(const BlockFormat &other) const { return !(*this == other); }

  /// The format whose scales have element type `scaleType`, or none.
  static std::optional<BlockFormat> get(Type scaleType) {
    if (isa<Float8E4M3FNType>(scaleType))
      return nvfp4();
    if (isa<Float8E8M0FNUType>(scaleType))
      return mxfp4();
    return std::nullopt;
  }
  /// The format of a scale operand (its memref's element type); the
  /// operand types of the ops admit only formats that exist.
  static BlockFormat of(Type scales) {
    return *get(cast<ShapedType>(scales).getElementType());
  }

  StringRef getName() const { return isMX() ? "MXFP4" : "NVFP4"; }

  /// Scales of a row of K values: K / blockSize (K is a multiple of it).
  int64_t getScaleColumns(int64_t k) const { return k / blockSize; }

  /// The blocked layout's atom: 128 rows x 4 scale columns, 512 bytes; a
  /// row's 4 scales of an atom are contiguous and cover getAtomK() values.
  static constexpr int64_t kAtomRows = 128, kAtomColumns = 4,
                           kAtomBytes = 512;
  int64_t getAtomK() const { return kAtomColumns * blockSize; }
  /// Atoms along rows and along K.
  static int64_t getRowAtoms(int64_t rows) {
    return (rows + kAtomRows - 1) / kAtomRows;
  }
  int64_t getColumnAtoms(int64_t k) const {
    return (getScaleColumns(k) + kAtomColumns - 1) / kAtomColumns;
  }
};

} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_BLOCKFORMAT_H
