//===- Compare.h - Tolerance comparison of fp32 outputs ---------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_REFERENCE_COMPARE_H
#define NVFP4_REFERENCE_COMPARE_H

#include <cstdint>

namespace nvfp4 {
namespace ref {

/// Summary of an element-wise comparison of two float arrays.
struct CompareResult {
  /// Number of elements that do not match.
  int64_t mismatches;
  /// Index of the first mismatching element, or -1 when all match.
  int64_t firstBad;
  /// Largest |got - want| over the pairs where both values are finite
  /// (0 when there is none).
  double maxAbsErr;
  /// Largest |got - want| / |want| over the pairs where both values are
  /// finite and want != 0 (0 when there is none).
  double maxRelErr;
  /// got[firstBad] and want[firstBad]; both 0 when all match.
  float firstGot, firstWant;
  /// Allowed difference at firstBad (atol + rtol |want| + the extra term).
  double firstAllowed = 0.0;
  /// Matching finite pairs whose difference exceeds atol + rtol |want| and
  /// passed only thanks to the extra per-element term.
  int64_t widened = 0;
  /// Pairs accepted unchecked under `productsMayOverflow`.
  int64_t overflowed = 0;
};

/// Compares `got` against `want` element by element (n elements). A pair
/// matches when:
///  * both are NaN, or
///  * both are infinite with the same sign, or
///  * both are finite and |got - want| <= atol + rtol * |want| + extraTol[i]
///    (evaluated in double; the last term only when `extraTol` is given,
///    e.g. a bound on fp32 accumulation-order differences), or
///  * one is infinite, the other finite with the same sign, and the values
///    were rounded to a type that overflows at `overflowAt` (e.g. 65520 for
///    f16): the infinity then stands for a value of at least `overflowAt`,
///    and the pair matches when `overflowAt` is within the tolerance above
///    (with |want| taken as at most `overflowAt`; such pairs count as
///    widened). Two roundings of sums that differ within the tolerance can
///    fall on either side of the overflow threshold.
/// Any other pair is a mismatch: NaN against a number, an infinity against a
/// finite value (without `overflowAt`, or out of tolerance) or the opposite
/// infinity, or a finite pair out of tolerance.
///
/// With `productsMayOverflow` (a kernel that forms each product in fp32,
/// where the reference forms a block's exact sum first: the tensor-core
/// MXFP4 kernels), a pair whose extraTol is +inf (the sum of the products'
/// magnitudes overflows fp32) matches whatever the values: products that
/// overflow with both signs make NaN, a partial sum may overflow where the
/// exact one does not. Such pairs are counted in `overflowed`.
CompareResult compareOutputs(const float *got, const float *want, int64_t n,
                             double atol = 1e-3, double rtol = 1e-3,
                             const float *extraTol = nullptr,
                             double overflowAt = 0.0,
                             bool productsMayOverflow = false);

} // namespace ref
} // namespace nvfp4

#endif // NVFP4_REFERENCE_COMPARE_H
