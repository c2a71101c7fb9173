//===- MXFP4Test.cpp - The MXFP4 reference against its definition ---------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// MXFP4's E8M0 scales, its quantization (floor and rceil) and its products,
// each checked against the definition computed here independently: long
// double arithmetic and exhaustive searches instead of the reference's
// bit tricks.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Reference/Layout.h"
#include "nvfp4/Reference/Ops.h"

#include "FormatDefinitions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace nvfp4::ref;

namespace {

const auto &kE2M1 = nvfp4::test::kE2M1Values;

/// 2^(code - 127) as a long double (no rounding for any code).
long double e8m0(int code) { return std::ldexp(1.0L, code - 127); }

/// The E2M1 code nearest to v (ties to the even code, saturating at 6),
/// found by searching all codes; NaN gives 0x7.
uint8_t nearestE2M1(long double v) {
  if (std::isnan(v))
    return 0x7;
  const bool negative = std::signbit(v);
  const long double a = std::fabs(v);
  int best = 0;
  for (int c = 1; c < 8; ++c) {
    long double d = std::fabs(a - kE2M1[c]), bd = std::fabs(a - kE2M1[best]);
    if (d < bd || (d == bd && !(c & 1)))
      best = c;
  }
  return static_cast<uint8_t>(best | (negative ? 0x8 : 0));
}

} // namespace

TEST(E8M0, DecodeEveryCode) {
  for (int c = 0; c < 255; ++c)
    EXPECT_EQ(decodeE8M0(static_cast<uint8_t>(c)), static_cast<float>(e8m0(c)))
        << c;
  EXPECT_TRUE(std::isnan(decodeE8M0(0xFF)));
  // Code 0 is fp32's subnormal 2^-127, not zero.
  EXPECT_GT(decodeE8M0(0), 0.0f);
  EXPECT_EQ(decodeScale(ScaleFormat::MXFP4, 127), 1.0f);
}

TEST(E8M0, ScaleRoundingNamedCases) {
  // floor: 2^(floor(log2 amax) - 2).
  EXPECT_EQ(encodeE8M0Scale(6.0f, MXRounding::Floor), 127);  // 2^0
  EXPECT_EQ(encodeE8M0Scale(7.99f, MXRounding::Floor), 127); // saturates
  EXPECT_EQ(encodeE8M0Scale(8.0f, MXRounding::Floor), 128);
  EXPECT_EQ(encodeE8M0Scale(3.9f, MXRounding::Floor), 126);
  // rceil: amax / 6 rounded up to a power of two.
  EXPECT_EQ(encodeE8M0Scale(6.0f, MXRounding::Rceil), 127);
  EXPECT_EQ(encodeE8M0Scale(6.1f, MXRounding::Rceil), 128);
  EXPECT_EQ(encodeE8M0Scale(3.0f, MXRounding::Rceil), 126);
  EXPECT_EQ(encodeE8M0Scale(3.1f, MXRounding::Rceil), 127);
  // Zero, infinity, and the clamps at both ends.
  for (MXRounding r : {MXRounding::Floor, MXRounding::Rceil}) {
    EXPECT_EQ(encodeE8M0Scale(0.0f, r), 0);
    EXPECT_EQ(encodeE8M0Scale(std::numeric_limits<float>::infinity(), r), 254);
    EXPECT_EQ(encodeE8M0Scale(std::numeric_limits<float>::max(), r),
              r == MXRounding::Floor ? 252 : 253);
    EXPECT_EQ(encodeE8M0Scale(std::numeric_limits<float>::denorm_min(), r), 0);
  }
}

TEST(E8M0, ScaleRoundingMatchesDefinitionOverManyBinades) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<uint32_t> bits(1, 0x7F7FFFFF);
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = bits(rng);
    float amax;
    std::memcpy(&amax, &u, sizeof(amax));
    // floor: the largest e with 2^(e + 2) <= amax, clamped.
    int e = -127;
    while (e < 127 && std::ldexp(1.0L, e + 3) <= amax)
      ++e;
    EXPECT_EQ(encodeE8M0Scale(amax, MXRounding::Floor), e + 127) << amax;
    // rceil: the smallest e with 2^e >= fl(amax / 6), clamped.
    const float v = amax / 6.0f;
    int r = -127;
    while (r < 127 && std::ldexp(1.0L, r) < v)
      ++r;
    EXPECT_EQ(encodeE8M0Scale(amax, MXRounding::Rceil), r + 127) << amax;
  }
}

TEST(QuantizeMX, MatchesDefinitionOnRandomAndSpecialBlocks) {
  std::mt19937 rng(9);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> binade(-140, 120);
  const int64_t rows = 24, k = 128, kb = k / 32;
  std::vector<float> x(rows * k);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < kb; ++j) {
      const float m = std::ldexp(1.0f, binade(rng));
      for (int i = 0; i < 32; ++i)
        x[r * k + 32 * j + i] = m * normal(rng);
    }
  // Special blocks: zeros, an infinity, a NaN, exact ties at scale 1.
  std::fill_n(x.begin(), 32, 0.0f);
  x[32 + 3] = -std::numeric_limits<float>::infinity();
  x[64 + 5] = std::numeric_limits<float>::quiet_NaN();
  const float ties[] = {6.0f, 0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
  for (int i = 0; i < 32; ++i)
    x[96 + i] = (i % 2 ? -1.0f : 1.0f) * ties[i % 8];
  for (MXRounding rounding : {MXRounding::Floor, MXRounding::Rceil}) {
    std::vector<uint8_t> q(rows * k / 2), s(rows * kb);
    quantizeMX(x.data(), rows, k, ScaleLayout::Plain, q.data(), s.data(),
               rounding);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < kb; ++j) {
        const float *block = x.data() + r * k + 32 * j;
        float amax = 0.0f;
        for (int i = 0; i < 32; ++i)
          if (std::fabs(block[i]) > amax)
            amax = std::fabs(block[i]);
        const uint8_t code = s[r * kb + j];
        ASSERT_EQ(code, encodeE8M0Scale(amax, rounding));
        for (int i = 0; i < 32; ++i) {
          // The exact quotient, then the nearest code (saturating).
          long double v = static_cast<long double>(block[i]) / e8m0(code);
          uint8_t want =
              nearestE2M1(std::isinf(v) ? std::copysign(7.0L, v) : v);
          const int64_t kk = 32 * j + i;
          const uint8_t byte = q[r * (k / 2) + kk / 2];
          const uint8_t got = kk & 1 ? byte >> 4 : byte & 0xF;
          ASSERT_EQ(got, want) << "row " << r << " block " << j << " x "
                               << block[i] << " code " << int(code);
        }
      }
    // The tie block at scale 1 rounds half to even; rceil never saturates.
    EXPECT_EQ(s[3], 127);
    if (rounding == MXRounding::Rceil)
      for (int64_t r = 1; r < rows; ++r)
        for (int64_t j = 0; j < kb; ++j) {
          const float *block = x.data() + r * k + 32 * j;
          for (int i = 0; i < 32; ++i) {
            if (std::isfinite(block[i])) {
              EXPECT_LE(std::fabs(block[i]) / e8m0(s[r * kb + j]), 6.0L);
            }
          }
        }
  }
}

TEST(QuantizeMX, BlockedLayoutHoldsThePlainCodes) {
  std::mt19937 rng(4);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  const int64_t rows = 130, k = 160, kb = k / 32;
  std::vector<float> x(rows * k);
  for (float &v : x)
    v = normal(rng);
  std::vector<uint8_t> q1(rows * k / 2), q2(rows * k / 2), plain(rows * kb),
      blocked(static_cast<size_t>(blockedScaleBytes(rows, kb)), 0xCC),
      back(rows * kb);
  quantizeMX(x.data(), rows, k, ScaleLayout::Plain, q1.data(), plain.data(),
             MXRounding::Floor);
  quantizeMX(x.data(), rows, k, ScaleLayout::Blocked, q2.data(), blocked.data(),
             MXRounding::Floor);
  EXPECT_EQ(q1, q2);
  blockedToPlain(blocked.data(), rows, kb, back.data());
  EXPECT_EQ(back, plain);
  // Padding (rows 130..255, scale columns 5..7) is zero.
  EXPECT_EQ(blocked[blockedScaleOffset(200, 1, kb)], 0);
  EXPECT_EQ(blocked[blockedScaleOffset(3, 6, kb)], 0);
}

TEST(MatmulMX, ExactBlocksOverTheWholeScaleRange) {
  std::mt19937 rng(13);
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{3, 5, 32},
                         {7, 9, 256},
                         {33, 4, 512}}) {
    const int64_t kb = k / 32;
    std::vector<uint8_t> a(m * k / 2), b(n * k / 2), sa(m * kb), sb(n * kb);
    for (uint8_t &v : a)
      v = static_cast<uint8_t>(rng());
    for (uint8_t &v : b)
      v = static_cast<uint8_t>(rng());
    // Every finite code, so partial sums overflow, underflow and go
    // subnormal.
    for (uint8_t &v : sa)
      v = static_cast<uint8_t>(rng() % 255);
    for (uint8_t &v : sb)
      v = static_cast<uint8_t>(rng() % 255);
    sa[0] = 0xFF; // NaN: poisons row 0.
    ScaledMatrix am{a.data(), sa.data(),          m,
                    k,        ScaleLayout::Plain, ScaleFormat::MXFP4};
    ScaledMatrix bm{b.data(), sb.data(),          n,
                    k,        ScaleLayout::Plain, ScaleFormat::MXFP4};
    std::vector<float> got(m * n);
    scaledMatmul(am, bm, got.data());
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        // The definition: each block's exact sum, scaled and rounded once
        // to fp32, added in k order in fp32.
        float want = 0.0f;
        for (int64_t blk = 0; blk < kb; ++blk) {
          long double sum = 0;
          for (int64_t t = 32 * blk; t < 32 * blk + 32; ++t) {
            uint8_t x = a[i * k / 2 + t / 2], y = b[j * k / 2 + t / 2];
            sum += static_cast<long double>(kE2M1[t & 1 ? x >> 4 : x & 15]) *
                   kE2M1[t & 1 ? y >> 4 : y & 15];
          }
          const int ca = sa[i * kb + blk], cb = sb[j * kb + blk];
          const float partial =
              ca == 0xFF || cb == 0xFF
                  ? std::numeric_limits<float>::quiet_NaN()
                  : static_cast<float>(std::ldexp(sum, ca + cb - 254));
          want += partial;
        }
        const float g = got[i * n + j];
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(g)) << i << "," << j;
        else
          EXPECT_EQ(g, want)
              << i << "," << j << " of " << m << "x" << n << "x" << k;
      }
  }
}
