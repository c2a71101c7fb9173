//===- Npy.h - NumPy .npy file reader and writer ----------------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// Reads NumPy .npy files of format versions 1.0, 2.0 and 3.0 and writes
// version 1.0 files (2.0 only if the header would not fit 1.0's 16-bit
// length, which no realistic shape reaches).
//
// Supported dtypes are little-endian (or single-byte) numeric scalars:
// booleans 'b1', signed integers 'i1' 'i2' 'i4' 'i8', unsigned integers
// 'u1' 'u2' 'u4' 'u8' and floats 'f2' 'f4' 'f8'. Descrs are normalized on
// read (and when written) to '|' + kind + size for 1-byte types and
// '<' + kind + size otherwise, e.g. "|u1", "<f4"; '=' and a missing byte
// order character are read as native order, which is taken to be little
// endian. Only C-order (fortran_order False) arrays are supported. The host
// is assumed to be little endian: bytes are copied as they are.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_SUPPORT_NPY_H
#define NVFP4_SUPPORT_NPY_H

#include <cstdint>
#include <string>
#include <vector>

namespace nvfp4 {
namespace npy {

/// An n-dimensional array as stored in a .npy file: C order, raw
/// little-endian element bytes.
struct Array {
  /// NumPy dtype descr, e.g. "<f4", "<f2", "|u1", "<u2", "<f8".
  std::string descr;
  /// Extent of each dimension; empty for a 0-d (scalar) array.
  std::vector<int64_t> shape;
  /// numElements() * itemSize() bytes of element data in C order.
  std::vector<uint8_t> bytes;

  /// Returns the product of the extents (1 for a 0-d array).
  int64_t numElements() const;

  /// Returns the element size in bytes of `descr`, or -1 if `descr` is not
  /// a supported dtype.
  int64_t itemSize() const;
};

/// Returns the element size in bytes of a supported descr (see the file
/// comment), or -1 if the descr is unsupported or big endian.
int64_t descrItemSize(const std::string &descr);

/// Reads the .npy file at `path` into `out`. Returns false and sets `error`
/// to a message that starts with the path when the file is missing or
/// unreadable, is not a .npy file (bad magic string), has an unsupported
/// format version, a truncated or malformed header dict (bad syntax, missing,
/// duplicated or unknown keys, bad shape), fortran_order True, an
/// unsupported or big-endian descr, or holds fewer data bytes than its shape
/// needs. Bytes after the data are ignored. On failure `out` is unspecified.
bool read(const std::string &path, Array &out, std::string &error);

/// Writes `a` to `path` as a version 1.0 .npy file whose header is padded
/// with spaces (and ends in a newline) so that the data starts at a multiple
/// of 64 bytes. Returns false and sets `error` (starting with the path) when
/// the descr is unsupported, a dimension is negative, a.bytes does not hold
/// exactly numElements() * itemSize() bytes, or the file cannot be written.
bool write(const std::string &path, const Array &a, std::string &error);

} // namespace npy
} // namespace nvfp4

#endif // NVFP4_SUPPORT_NPY_H
