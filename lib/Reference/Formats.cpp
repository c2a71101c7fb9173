//===- Formats.cpp - Scalar number formats for NVFP4 ------------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// All encoders share one idea: for a non-negative finite input `a`, find the
// quantum (distance between neighbouring representable values) of the binade
// that contains `a`, scale `a` by it exactly (a power-of-two scaling in
// double), round the scaled value to an integer with ties to even, and turn
// (binade, integer) into a code. Codes of these formats are monotonic in the
// magnitude, so a mantissa that rounds up to the next power of two simply
// carries into the exponent field.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Reference/Formats.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace nvfp4 {
namespace ref {

namespace {

/// E2M1 magnitudes indexed by the 3 low bits of a code.
constexpr float kE2M1Magnitudes[8] = {0.0f, 0.5f, 1.0f, 1.5f,
                                      2.0f, 3.0f, 4.0f, 6.0f};

/// Returns the bit pattern of an fp32 value.
uint32_t floatBits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits;
}

/// Returns the fp32 value of a bit pattern.
float bitsToFloat(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof(x));
  return x;
}

/// Rounds a non-negative double that is exactly an integer plus a fraction
/// to the nearest integer, ties to even. Independent of the FP environment's
/// rounding mode.
int64_t roundHalfEven(double q) {
  double f = std::floor(q);
  double frac = q - f; // Exact: q and f share the binade or f == 0.
  auto i = static_cast<int64_t>(f);
  if (frac > 0.5 || (frac == 0.5 && (i & 1) != 0))
    ++i;
  return i;
}

/// Encodes a finite magnitude `a` >= 0 into the unsigned code of a binary
/// floating-point format with `mantBits` mantissa bits and minimum normal
/// exponent `minExp` (the unbiased exponent of the smallest normal binade).
/// Subnormals share the quantum of the smallest normal binade. The returned
/// code is (biasedExponent << mantBits | mantissa) before any saturation, and
/// may exceed the format's largest code when `a` rounds beyond it.
int64_t encodeMagnitude(double a, int mantBits, int minExp) {
  if (a == 0.0)
    return 0;
  int exp2;
  std::frexp(a, &exp2); // a = f * 2^exp2, f in [0.5, 1).
  int binade = exp2 - 1; // floor(log2(a)).
  if (binade < minExp)
    binade = minExp; // Subnormal range: quantum of the smallest normal binade.
  // The quantum of this binade is 2^(binade - mantBits). Scaling is exact.
  double q = std::ldexp(a, mantBits - binade);
  int64_t r = roundHalfEven(q);
  if (exp2 - 1 < minExp)
    return r; // Subnormal: the code is the count of quanta (carries to 1.0).
  // Normal: r in [2^mantBits, 2^(mantBits+1)]; the biased exponent is
  // binade - minExp + 1. r == 2^(mantBits+1) carries into the exponent.
  int64_t biased = binade - minExp + 1;
  return (biased << mantBits) + (r - (int64_t(1) << mantBits));
}

} // namespace

float decodeE2M1(uint8_t nibble) {
  float mag = kE2M1Magnitudes[nibble & 0x7];
  return (nibble & 0x8) ? -mag : mag;
}

float decodeE4M3(uint8_t code) {
  bool negative = (code & 0x80) != 0;
  int exponent = (code >> 3) & 0xF;
  int mantissa = code & 0x7;
  if (exponent == 0xF && mantissa == 0x7)
    return std::numeric_limits<float>::quiet_NaN();
  float mag;
  if (exponent == 0)
    mag = std::ldexp(static_cast<float>(mantissa), -9);
  else
    mag = std::ldexp(static_cast<float>(8 + mantissa), exponent - 7 - 3);
  return negative ? -mag : mag;
}

float decodeE8M0(uint8_t code) {
  if (code == 0xFF)
    return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, static_cast<int>(code) - 127);
}

uint8_t encodeE8M0Scale(float amax, MXRounding rounding) {
  if (amax == 0.0f)
    return 0;
  if (std::isinf(amax))
    return 254;
  int exponent; // floor(log2(v)) of a finite v > 0 (subnormals included).
  auto floorLog2 = [](float v) {
    int e;
    std::frexp(v, &e); // v = f * 2^e, f in [0.5, 1).
    return e - 1;
  };
  if (rounding == MXRounding::Floor) {
    exponent = floorLog2(amax) - 2;
  } else {
    const float v = amax / 6.0f; // fp32, round to nearest.
    if (v == 0.0f)
      return 0;
    exponent = floorLog2(v);
    if (std::ldexp(1.0f, exponent) != v)
      ++exponent; // Not a power of two: round up.
  }
  return static_cast<uint8_t>(std::clamp(exponent, -127, 127) + 127);
}

uint8_t encodeE2M1(float x) {
  if (std::isnan(x))
    return 0x7; // No NaN in E2M1: positive max norm (see the header).
  uint8_t sign = std::signbit(x) ? 0x8 : 0x0;
  float a = std::fabs(x);
  if (a > kE2M1Max)
    return sign | 0x7; // satfinite, infinities included.
  // E2M1: 1 mantissa bit, smallest normal binade 2^0 (bias 1); the
  // subnormal 0.5 shares the quantum 0.5 of binade [1, 2).
  int64_t code = encodeMagnitude(a, /*mantBits=*/1, /*minExp=*/0);
  if (code > 0x7)
    code = 0x7; // Only reachable for a <= 6, so never; kept for safety.
  return sign | static_cast<uint8_t>(code);
}

uint8_t encodeE4M3(float x) {
  if (std::isnan(x))
    return 0x7F;
  uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  float a = std::fabs(x);
  if (a > kE4M3Max)
    return sign | 0x7E; // satfinite, infinities included.
  int64_t code = encodeMagnitude(a, /*mantBits=*/3, /*minExp=*/-6);
  // a <= 448 = 0x7E cannot round up past 0x7E; the clamp guards 0x7F (NaN).
  if (code > 0x7E)
    code = 0x7E;
  return sign | static_cast<uint8_t>(code);
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1F;
  uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0x1F) // Infinity or NaN: keep the payload.
    return bitsToFloat(sign | 0x7F800000u | (mantissa << 13));
  float mag;
  if (exponent == 0)
    mag = std::ldexp(static_cast<float>(mantissa), -24);
  else
    mag = std::ldexp(static_cast<float>(1024 + mantissa),
                     static_cast<int>(exponent) - 15 - 10);
  return sign ? -mag : mag;
}

uint16_t floatToHalf(float x) {
  uint32_t bits = floatBits(x);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  if (std::isnan(x)) // Quiet NaN, keeping the top 9 payload bits.
    return sign | 0x7E00 | static_cast<uint16_t>((bits >> 13) & 0x1FF);
  double a = std::fabs(static_cast<double>(x));
  // 65520 is the midpoint between 65504 (odd mantissa) and 2^16: it and
  // everything above round to infinity.
  if (a >= 65520.0)
    return sign | 0x7C00;
  int64_t code = encodeMagnitude(a, /*mantBits=*/10, /*minExp=*/-14);
  return sign | static_cast<uint16_t>(code);
}

float bf16ToFloat(uint16_t bits) {
  return bitsToFloat(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToBF16(float x) {
  uint32_t bits = floatBits(x);
  if (std::isnan(x))
    return static_cast<uint16_t>((bits >> 16) | 0x0040); // Force quiet.
  // Add just under half an ulp of bf16, plus one when the kept LSB is odd, so
  // that exact ties round to even. Carries propagate into the exponent and
  // turn the largest values into infinity, as round-to-nearest requires.
  uint32_t lsb = (bits >> 16) & 1u;
  bits += 0x7FFFu + lsb;
  return static_cast<uint16_t>(bits >> 16);
}

float silu(float x) { return x / (1.0f + std::exp(-x)); }

} // namespace ref
} // namespace nvfp4
