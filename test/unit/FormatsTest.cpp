//===- FormatsTest.cpp - Tests of the scalar number formats -----*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// The expected values here are computed independently of the implementation:
// decoders are checked against a hand-written table (E2M1) and against the
// sign/exponent/mantissa definition evaluated with ldexp (E4M3, half), and
// encoders against a brute-force search for the nearest representable value
// and against every midpoint between neighbouring representable values.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Reference/Formats.h"

#include "FormatDefinitions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace nvfp4::ref;

namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Bit pattern of a float.
uint32_t bitsOf(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

/// Float of a bit pattern.
float fromBits(uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

/// The hand-written E2M1 table (FormatDefinitions.h) as floats.
float kE2M1Table(int code) {
  return static_cast<float>(nvfp4::test::kE2M1Values[code]);
}

using nvfp4::test::e4m3Definition;

/// Brute-force nearest code among the non-negative codes [0, maxCode] of a
/// format whose value table is `values`, ties to the even code, saturating
/// above the largest value. Sign handled by the caller.
int bruteNearest(double a, const std::vector<double> &values) {
  int maxCode = int(values.size()) - 1;
  if (a >= values[maxCode])
    return maxCode;
  int best = 0;
  double bestDist = std::fabs(a - values[0]);
  for (int c = 1; c <= maxCode; ++c) {
    double d = std::fabs(a - values[c]);
    if (d < bestDist || (d == bestDist && (c & 1) == 0 && (best & 1) != 0)) {
      best = c;
      bestDist = d;
    }
  }
  return best;
}

std::vector<double> positiveE4M3Values() {
  std::vector<double> v;
  for (int c = 0; c <= 0x7E; ++c)
    v.push_back(e4m3Definition(c));
  return v;
}

std::vector<double> positiveE2M1Values() {
  std::vector<double> v;
  for (int c = 0; c < 8; ++c)
    v.push_back(kE2M1Table(c));
  return v;
}

/// Reference E4M3 encoder (brute force).
uint8_t refEncodeE4M3(float x) {
  static const std::vector<double> values = positiveE4M3Values();
  if (std::isnan(x))
    return 0x7F;
  int code = bruteNearest(std::fabs(double(x)), values);
  return uint8_t((std::signbit(x) ? 0x80 : 0) | code);
}

/// Reference E2M1 encoder (brute force).
uint8_t refEncodeE2M1(float x) {
  static const std::vector<double> values = positiveE2M1Values();
  if (std::isnan(x))
    return 0x7;
  int code = bruteNearest(std::fabs(double(x)), values);
  return uint8_t((std::signbit(x) ? 0x8 : 0) | code);
}

/// Test inputs around every representable value and midpoint of a format.
std::vector<float> probesAround(const std::vector<double> &values) {
  std::vector<float> probes;
  auto add = [&](double v) {
    float f = float(v);
    ASSERT_EQ(double(f), v) << "probe not exact in fp32";
    for (float p : {f, std::nextafter(f, 0.0f), std::nextafter(f, kInf)})
      for (float s : {p, -p})
        probes.push_back(s);
  };
  for (size_t i = 0; i < values.size(); ++i) {
    add(values[i]);
    if (i + 1 < values.size())
      add((values[i] + values[i + 1]) / 2);
  }
  return probes;
}

} // namespace

//===----------------------------------------------------------------------===//
// E2M1
//===----------------------------------------------------------------------===//

TEST(E2M1, DecodeAllCodesMatchTable) {
  for (int c = 0; c < 16; ++c) {
    float v = decodeE2M1(uint8_t(c));
    EXPECT_EQ(v, kE2M1Table(c)) << "code " << c;
    EXPECT_EQ(std::signbit(v), c >= 8) << "sign of code " << c;
  }
}

TEST(E2M1, DecodeIgnoresHighBits) {
  for (int c = 0; c < 256; ++c)
    EXPECT_EQ(bitsOf(decodeE2M1(uint8_t(c))), bitsOf(kE2M1Table(c & 15)))
        << "byte " << c;
}

TEST(E2M1, EveryCodeRoundTrips) {
  // Including 0x8: -0.0 encodes back to 0x8.
  for (int c = 0; c < 16; ++c)
    EXPECT_EQ(encodeE2M1(decodeE2M1(uint8_t(c))), c) << "code " << c;
}

TEST(E2M1, NamedRoundingAndSaturation) {
  EXPECT_EQ(encodeE2M1(7.0f), 0x7);    // Above max: saturate to 6.
  EXPECT_EQ(encodeE2M1(-7.0f), 0xF);
  EXPECT_EQ(encodeE2M1(1e30f), 0x7);
  EXPECT_EQ(encodeE2M1(kInf), 0x7);
  EXPECT_EQ(encodeE2M1(-kInf), 0xF);
  EXPECT_EQ(encodeE2M1(5.0f), 0x6);    // Tie 4 | 6 -> 4 (even code 6).
  EXPECT_EQ(encodeE2M1(-5.0f), 0xE);
  EXPECT_EQ(encodeE2M1(2.5f), 0x4);    // Tie 2 | 3 -> 2.
  EXPECT_EQ(encodeE2M1(3.5f), 0x6);    // Tie 3 | 4 -> 4.
  EXPECT_EQ(encodeE2M1(0.25f), 0x0);   // Tie 0 | 0.5 -> 0.
  EXPECT_EQ(encodeE2M1(-0.25f), 0x8);  // ... keeping the sign.
  EXPECT_EQ(encodeE2M1(0.75f), 0x2);   // Tie 0.5 | 1 -> 1.
  EXPECT_EQ(encodeE2M1(1.25f), 0x2);   // Tie 1 | 1.5 -> 1.
  EXPECT_EQ(encodeE2M1(1.75f), 0x4);   // Tie 1.5 | 2 -> 2.
  EXPECT_EQ(encodeE2M1(5.5f), 0x7);    // Nearest.
  EXPECT_EQ(encodeE2M1(4.9f), 0x6);
  EXPECT_EQ(encodeE2M1(0.26f), 0x1);
  EXPECT_EQ(encodeE2M1(0.0f), 0x0);
  EXPECT_EQ(encodeE2M1(-0.0f), 0x8);
  EXPECT_EQ(encodeE2M1(-1e-30f), 0x8);
  EXPECT_EQ(encodeE2M1(kNaN), 0x7);    // Documented choice: +max norm.
  EXPECT_EQ(encodeE2M1(-kNaN), 0x7);
}

TEST(E2M1, EncodeMatchesBruteForceAroundAllValuesAndMidpoints) {
  std::vector<float> probes = probesAround(positiveE2M1Values());
  for (float x : {6.0f, 6.5f, 8.0f, 1e-40f, -1e-40f})
    probes.push_back(x);
  for (float x : probes)
    EXPECT_EQ(encodeE2M1(x), refEncodeE2M1(x)) << "x = " << x;
}

TEST(E2M1, EncodeMatchesBruteForceOnRandomInputs) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> uni(-8.0f, 8.0f);
  for (int i = 0; i < 100000; ++i) {
    float x = uni(rng);
    ASSERT_EQ(encodeE2M1(x), refEncodeE2M1(x)) << "x = " << x;
  }
}

//===----------------------------------------------------------------------===//
// E4M3
//===----------------------------------------------------------------------===//

TEST(E4M3, DecodeAllCodesMatchDefinition) {
  for (int c = 0; c < 256; ++c) {
    double want = e4m3Definition(c);
    float got = decodeE4M3(uint8_t(c));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << "code " << c;
      continue;
    }
    EXPECT_EQ(double(got), want) << "code " << c;
    EXPECT_EQ(std::signbit(got), c >= 0x80) << "sign of code " << c;
  }
}

TEST(E4M3, DecodeNamedValues) {
  EXPECT_EQ(decodeE4M3(0x7E), 448.0f);
  EXPECT_EQ(decodeE4M3(0xFE), -448.0f);
  EXPECT_EQ(decodeE4M3(0x01), std::ldexp(1.0f, -9)); // Smallest subnormal.
  EXPECT_EQ(decodeE4M3(0x07), 0.875f * std::ldexp(1.0f, -6)); // Largest sub.
  EXPECT_EQ(decodeE4M3(0x08), std::ldexp(1.0f, -6)); // Smallest normal.
  EXPECT_EQ(decodeE4M3(0x38), 1.0f);
  EXPECT_EQ(decodeE4M3(0x39), 1.125f);
  EXPECT_EQ(decodeE4M3(0x40), 2.0f);
  EXPECT_EQ(decodeE4M3(0x77), 240.0f);
  EXPECT_EQ(decodeE4M3(0x78), 256.0f);
  EXPECT_EQ(decodeE4M3(0x00), 0.0f);
  EXPECT_FALSE(std::signbit(decodeE4M3(0x00)));
  EXPECT_EQ(decodeE4M3(0x80), 0.0f);
  EXPECT_TRUE(std::signbit(decodeE4M3(0x80)));
  EXPECT_TRUE(std::isnan(decodeE4M3(0x7F)));
  EXPECT_TRUE(std::isnan(decodeE4M3(0xFF)));
  // No infinities and no other NaNs.
  int nans = 0;
  for (int c = 0; c < 256; ++c) {
    float v = decodeE4M3(uint8_t(c));
    EXPECT_FALSE(std::isinf(v)) << "code " << c;
    nans += std::isnan(v);
  }
  EXPECT_EQ(nans, 2);
}

TEST(E4M3, EveryFiniteCodeRoundTrips) {
  // Including 0x80: -0.0 encodes back to 0x80.
  for (int c = 0; c < 256; ++c) {
    if ((c & 0x7F) == 0x7F)
      continue;
    EXPECT_EQ(encodeE4M3(decodeE4M3(uint8_t(c))), c) << "code " << c;
  }
}

TEST(E4M3, NamedRoundingAndSaturation) {
  EXPECT_EQ(encodeE4M3(1e9f), 0x7E);
  EXPECT_EQ(encodeE4M3(-1e9f), 0xFE);
  EXPECT_EQ(encodeE4M3(kInf), 0x7E);
  EXPECT_EQ(encodeE4M3(-kInf), 0xFE);
  EXPECT_EQ(encodeE4M3(449.0f), 0x7E);
  EXPECT_EQ(encodeE4M3(464.0f), 0x7E); // Midpoint to the NaN code.
  EXPECT_EQ(encodeE4M3(480.0f), 0x7E);
  EXPECT_EQ(encodeE4M3(kNaN), 0x7F);
  EXPECT_EQ(encodeE4M3(-kNaN), 0x7F);
  EXPECT_EQ(encodeE4M3(1.0625f), 0x38);  // Tie 1 | 1.125 -> 1 (even).
  EXPECT_EQ(encodeE4M3(1.1875f), 0x3A);  // Tie 1.125 | 1.25 -> 1.25.
  EXPECT_EQ(encodeE4M3(-1.1875f), 0xBA);
  EXPECT_EQ(encodeE4M3(15.5f), 0x58);    // Tie 15 | 16 -> 16 (carry).
  EXPECT_EQ(encodeE4M3(400.0f), 0x7C);   // Tie 384 | 416 -> 384.
  EXPECT_EQ(encodeE4M3(432.0f), 0x7E);   // Tie 416 | 448 -> 448.
  const float sub = std::ldexp(1.0f, -9);
  EXPECT_EQ(encodeE4M3(0.5f * sub), 0x00); // Tie 0 | 2^-9 -> 0.
  EXPECT_EQ(encodeE4M3(-0.5f * sub), 0x80);
  EXPECT_EQ(encodeE4M3(1.5f * sub), 0x02); // Tie 1 | 2 -> 2.
  EXPECT_EQ(encodeE4M3(2.5f * sub), 0x02); // Tie 2 | 3 -> 2.
  EXPECT_EQ(encodeE4M3(7.5f * sub), 0x08); // Tie 7*2^-9 | 2^-6 -> 2^-6.
  EXPECT_EQ(encodeE4M3(0.51f * sub), 0x01);
  EXPECT_EQ(encodeE4M3(1e-30f), 0x00);
  EXPECT_EQ(encodeE4M3(-1e-30f), 0x80);
  EXPECT_EQ(encodeE4M3(0.0f), 0x00);
  EXPECT_EQ(encodeE4M3(-0.0f), 0x80);
  EXPECT_EQ(encodeE4M3(std::numeric_limits<float>::denorm_min()), 0x00);
  EXPECT_EQ(encodeE4M3(1.0f / 6.0f), 0x23); // 0.1667 -> 0.171875 = 1.375/8
}

TEST(E4M3, EncodeMatchesBruteForceAroundAllValuesAndMidpoints) {
  std::vector<float> probes = probesAround(positiveE4M3Values());
  for (float x : {448.0f, 456.0f, 463.99f, 464.0f, 464.01f, 500.0f})
    probes.push_back(x);
  for (float x : probes)
    EXPECT_EQ(encodeE4M3(x), refEncodeE4M3(x)) << "x = " << x;
}

TEST(E4M3, EncodeMatchesBruteForceOnRandomInputs) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> expo(-14.0f, 10.0f);
  std::uniform_int_distribution<int> coin(0, 1);
  for (int i = 0; i < 200000; ++i) {
    float x = std::exp2(expo(rng));
    if (coin(rng))
      x = -x;
    ASSERT_EQ(encodeE4M3(x), refEncodeE4M3(x)) << "x = " << x;
  }
}

TEST(E4M3, MidpointsRoundToEvenCode) {
  // Every midpoint between neighbouring positive codes goes to the even one;
  // one ulp either side goes to the nearer one.
  for (int c = 0; c < 0x7E; ++c) {
    double lo = e4m3Definition(c), hi = e4m3Definition(c + 1);
    float mid = float((lo + hi) / 2);
    ASSERT_EQ(double(mid), (lo + hi) / 2);
    int even = (c & 1) ? c + 1 : c;
    EXPECT_EQ(encodeE4M3(mid), even) << "midpoint after code " << c;
    EXPECT_EQ(encodeE4M3(-mid), 0x80 | even) << "midpoint after code " << c;
    EXPECT_EQ(encodeE4M3(std::nextafter(mid, 0.0f)), c);
    EXPECT_EQ(encodeE4M3(std::nextafter(mid, kInf)), c + 1);
  }
}

//===----------------------------------------------------------------------===//
// binary16
//===----------------------------------------------------------------------===//

namespace {

/// binary16 value from the format definition (NaN / inf included).
double halfDefinition(int h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double mag;
  if (e == 31)
    mag = m ? std::nan("") : HUGE_VAL;
  else if (e == 0)
    mag = std::ldexp(double(m), -24);
  else
    mag = std::ldexp(1.0 + m / 1024.0, e - 15);
  return s ? -mag : mag;
}

} // namespace

TEST(Half, DecodeAllCodesMatchDefinition) {
  for (int h = 0; h < 65536; ++h) {
    double want = halfDefinition(h);
    float got = halfToFloat(uint16_t(h));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << "code " << h;
      continue;
    }
    ASSERT_EQ(double(got), want) << "code " << h;
    ASSERT_EQ(std::signbit(got), h >= 0x8000) << "code " << h;
  }
}

TEST(Half, EveryCodeRoundTrips) {
  for (int h = 0; h < 65536; ++h) {
    uint16_t back = floatToHalf(halfToFloat(uint16_t(h)));
    if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) {
      // NaN stays NaN (made quiet), with its sign.
      EXPECT_EQ(back & 0x7C00, 0x7C00) << "code " << h;
      EXPECT_NE(back & 0x3FF, 0) << "code " << h;
      EXPECT_EQ(back & 0x8000, h & 0x8000) << "code " << h;
      EXPECT_NE(back & 0x200, 0) << "quiet bit, code " << h;
      continue;
    }
    ASSERT_EQ(back, h) << "code " << h;
  }
}

TEST(Half, MidpointsRoundToEven) {
  for (int h = 0; h < 0x7C00; ++h) {
    double lo = halfDefinition(h);
    double hi = h + 1 == 0x7C00 ? 65536.0 : halfDefinition(h + 1);
    float mid = float((lo + hi) / 2);
    ASSERT_EQ(double(mid), (lo + hi) / 2);
    int even = (h & 1) ? h + 1 : h;
    ASSERT_EQ(floatToHalf(mid), even) << "midpoint after " << h;
    ASSERT_EQ(floatToHalf(-mid), 0x8000 | even) << "midpoint after " << h;
    ASSERT_EQ(floatToHalf(std::nextafter(mid, 0.0f)), h);
    ASSERT_EQ(floatToHalf(std::nextafter(mid, kInf)), h + 1);
  }
}

TEST(Half, EdgeCases) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(0.1f), 0x2E66);
  EXPECT_EQ(floatToHalf(1.0f / 3.0f), 0x3555);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65519.996f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00); // Tie rounds to even = inf.
  EXPECT_EQ(floatToHalf(1e10f), 0x7C00);
  EXPECT_EQ(floatToHalf(-1e10f), 0xFC00);
  EXPECT_EQ(floatToHalf(kInf), 0x7C00);
  EXPECT_EQ(floatToHalf(-kInf), 0xFC00);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000); // Tie -> 0.
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -24)), 0x0002); // Tie 1|2 -> 2.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::denorm_min()), 0x0000);
  uint16_t nan = floatToHalf(kNaN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x3FF, 0);
  // A float NaN whose payload sits only in bits the conversion drops must
  // still become a NaN, not infinity.
  uint16_t lowPayload = floatToHalf(fromBits(0x7F800001));
  EXPECT_EQ(lowPayload & 0x7C00, 0x7C00);
  EXPECT_NE(lowPayload & 0x3FF, 0);
  EXPECT_TRUE(std::isinf(halfToFloat(0x7C00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
  EXPECT_EQ(halfToFloat(0xFBFF), -65504.0f);
}

//===----------------------------------------------------------------------===//
// bfloat16
//===----------------------------------------------------------------------===//

namespace {

/// bfloat16 value from the format definition (8 exponent bits, bias 127,
/// 7 mantissa bits).
double bf16Definition(int h) {
  int s = h >> 15, e = (h >> 7) & 255, m = h & 127;
  double mag;
  if (e == 255)
    mag = m ? std::nan("") : HUGE_VAL;
  else if (e == 0)
    mag = std::ldexp(double(m), -133);
  else
    mag = std::ldexp(1.0 + m / 128.0, e - 127);
  return s ? -mag : mag;
}

} // namespace

TEST(BF16, DecodeAllCodesMatchDefinition) {
  for (int h = 0; h < 65536; ++h) {
    double want = bf16Definition(h);
    float got = bf16ToFloat(uint16_t(h));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << "code " << h;
      continue;
    }
    ASSERT_EQ(double(got), want) << "code " << h;
    ASSERT_EQ(std::signbit(got), h >= 0x8000) << "code " << h;
  }
}

TEST(BF16, EveryCodeRoundTrips) {
  for (int h = 0; h < 65536; ++h) {
    uint16_t back = floatToBF16(bf16ToFloat(uint16_t(h)));
    if ((h & 0x7F80) == 0x7F80 && (h & 0x7F)) {
      EXPECT_EQ(back & 0x7F80, 0x7F80) << "code " << h;
      EXPECT_NE(back & 0x7F, 0) << "code " << h;
      EXPECT_EQ(back & 0x8000, h & 0x8000) << "code " << h;
      continue;
    }
    ASSERT_EQ(back, h) << "code " << h;
  }
}

TEST(BF16, MidpointsRoundToEven) {
  for (int h = 0; h < 0x7F80; ++h) {
    double lo = bf16Definition(h);
    double hi = h + 1 == 0x7F80 ? std::ldexp(1.0, 128) : bf16Definition(h + 1);
    double midD = (lo + hi) / 2;
    float mid = float(midD);
    ASSERT_EQ(double(mid), midD) << h;
    int even = (h & 1) ? h + 1 : h;
    ASSERT_EQ(floatToBF16(mid), even) << "midpoint after " << h;
    ASSERT_EQ(floatToBF16(-mid), 0x8000 | even) << "midpoint after " << h;
    ASSERT_EQ(floatToBF16(std::nextafter(mid, 0.0f)), h);
    ASSERT_EQ(floatToBF16(std::nextafter(mid, kInf)), h + 1);
  }
}

TEST(BF16, EdgeCases) {
  EXPECT_EQ(floatToBF16(1.0f), 0x3F80);
  EXPECT_EQ(floatToBF16(-2.0f), 0xC000);
  EXPECT_EQ(floatToBF16(0.1f), 0x3DCD);  // 0x3DCCCCCD rounds up.
  EXPECT_EQ(floatToBF16(1.0f / 3.0f), 0x3EAB); // 0x3EAAAAAB rounds up.
  EXPECT_EQ(floatToBF16(fromBits(0x3F808000)), 0x3F80); // Tie -> even.
  EXPECT_EQ(floatToBF16(fromBits(0x3F818000)), 0x3F82); // Tie -> even.
  EXPECT_EQ(floatToBF16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(floatToBF16(fromBits(0x7F7F7FFF)), 0x7F7F);
  EXPECT_EQ(floatToBF16(kInf), 0x7F80);
  EXPECT_EQ(floatToBF16(-kInf), 0xFF80);
  EXPECT_EQ(floatToBF16(-0.0f), 0x8000);
  EXPECT_EQ(floatToBF16(std::numeric_limits<float>::denorm_min()), 0x0000);
  uint16_t nan = floatToBF16(fromBits(0x7F800001)); // Low-payload NaN.
  EXPECT_EQ(nan & 0x7F80, 0x7F80);
  EXPECT_NE(nan & 0x7F, 0);
  uint16_t negNan = floatToBF16(-kNaN);
  EXPECT_EQ(negNan & 0x8000, 0x8000);
  EXPECT_TRUE(std::isnan(bf16ToFloat(negNan)));
  EXPECT_EQ(bf16ToFloat(0x7F7F), fromBits(0x7F7F0000));
}

//===----------------------------------------------------------------------===//
// SiLU
//===----------------------------------------------------------------------===//

TEST(Silu, MatchesDefinition) {
  for (float x = -30.0f; x <= 30.0f; x += 0.37f) {
    double want = double(x) / (1.0 + std::exp(-double(x)));
    EXPECT_NEAR(silu(x), want, 1e-6 * std::fabs(want) + 1e-30) << "x = " << x;
  }
  EXPECT_EQ(silu(0.0f), 0.0f);
  EXPECT_NEAR(silu(1.0f), 0.7310585786f, 1e-7);
  EXPECT_NEAR(silu(-1.0f), -0.2689414214f, 1e-7);
  EXPECT_EQ(silu(100.0f), 100.0f);
  EXPECT_EQ(silu(-200.0f), 0.0f); // exp overflows: -200 / inf = -0.
  EXPECT_TRUE(std::signbit(silu(-200.0f)));
  EXPECT_TRUE(std::isnan(silu(kNaN)));
}
