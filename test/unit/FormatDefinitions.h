//===- FormatDefinitions.h - e2m1/e4m3 values from their definitions -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The unit tests' own, independent statement of the two formats, against
// which the reference library is checked: a hand-written E2M1 table and E4M3
// computed from its sign/exponent/mantissa fields.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TEST_UNIT_FORMATDEFINITIONS_H
#define NVFP4_TEST_UNIT_FORMATDEFINITIONS_H

#include <cmath>

namespace nvfp4::test {

/// E2M1 values written out by hand, indexed by the 4-bit code.
inline constexpr double kE2M1Values[16] = {0,    0.5,  1,  1.5,  2,  3,
                                           4,    6,    -0.0, -0.5, -1, -1.5,
                                           -2,   -3,   -4, -6};

/// The E4M3FN value of `code` from the format definition (bias 7, no
/// infinities, 0x7F and 0xFF are NaN, subnormals m * 2^-9).
inline double e4m3Definition(int code) {
  int s = code >> 7, e = (code >> 3) & 15, m = code & 7;
  if (e == 15 && m == 7)
    return std::nan("");
  double mag = e == 0 ? std::ldexp(double(m), -9)
                      : std::ldexp(1.0 + m / 8.0, e - 7);
  return s ? -mag : mag;
}

} // namespace nvfp4::test

#endif // NVFP4_TEST_UNIT_FORMATDEFINITIONS_H
