//===- Compare.cpp - Tolerance comparison of fp32 outputs -------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Reference/Compare.h"

#include <algorithm>
#include <cmath>

namespace nvfp4 {
namespace ref {

CompareResult compareOutputs(const float *got, const float *want, int64_t n,
                             double atol, double rtol, const float *extraTol,
                             double overflowAt, bool productsMayOverflow) {
  CompareResult result{0, -1, 0.0, 0.0, 0.0f, 0.0f};
  double allowed = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double g = got[i], w = want[i];
    bool match;
    if (productsMayOverflow && extraTol && std::isinf(extraTol[i])) {
      match = true;
      ++result.overflowed;
    } else if (std::isnan(g) || std::isnan(w)) {
      match = std::isnan(g) && std::isnan(w);
      allowed = std::nan("");
    } else if (std::isinf(g) && std::isinf(w)) {
      // Both overflowed the output type. With opposite signs the sums they
      // round lie at least 2 x overflowAt apart: a match only where the
      // tolerance (with the accumulation bound, when large products cancel)
      // spans that much.
      match = g == w;
      allowed = std::nan("");
      if (!match && overflowAt > 0.0) {
        allowed = atol + rtol * overflowAt + (extraTol ? extraTol[i] : 0.0);
        match = 2.0 * overflowAt <= allowed;
        result.widened += match;
      }
    } else if (std::isinf(g) || std::isinf(w)) {
      // One side overflowed the output type: it stands for +-overflowAt at
      // least, the nearest value it can be a rounding of.
      const double finite = std::isinf(g) ? w : g;
      const bool sameSign = std::signbit(g) == std::signbit(w);
      allowed = std::nan("");
      match = false;
      if (overflowAt > 0.0 && sameSign && std::fabs(finite) <= overflowAt) {
        allowed = atol + rtol * std::min(std::fabs(w), overflowAt) +
                  (extraTol ? extraTol[i] : 0.0);
        match = overflowAt - std::fabs(finite) <= allowed;
        result.widened += match;
      }
    } else {
      const double diff = std::fabs(g - w);
      result.maxAbsErr = std::max(result.maxAbsErr, diff);
      if (w != 0.0)
        result.maxRelErr = std::max(result.maxRelErr, diff / std::fabs(w));
      const double rule = atol + rtol * std::fabs(w);
      allowed = rule + (extraTol ? extraTol[i] : 0.0);
      match = diff <= allowed;
      result.widened += match && diff > rule;
    }
    if (!match) {
      if (result.mismatches == 0) {
        result.firstBad = i;
        result.firstGot = got[i];
        result.firstWant = want[i];
        result.firstAllowed = allowed;
      }
      ++result.mismatches;
    }
  }
  return result;
}

} // namespace ref
} // namespace nvfp4
