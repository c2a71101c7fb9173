//===- OpsTest.cpp - Tests of the reference NVFP4 ops -----------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// The products are checked against naive triple loops in double precision
// that decode operands with the test's own tables (not the library's), and
// against an fp32 re-computation in the documented accumulation order.
// The tests of compareOutputs (Compare.h) live here too.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Reference/Compare.h"
#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Reference/Layout.h"
#include "nvfp4/Reference/Ops.h"

#include "FormatDefinitions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace nvfp4::ref;

namespace {

const auto &kE2M1 = nvfp4::test::kE2M1Values;
/// E4M3 value from the format definition (NaN codes give NaN).
inline double e4m3(int code) { return nvfp4::test::e4m3Definition(code); }

/// e4m3(code) for every code, tabulated once for speed.
const std::vector<double> &e4m3Table() {
  static const std::vector<double> table = [] {
    std::vector<double> t(256);
    for (int c = 0; c < 256; ++c)
      t[c] = e4m3(c);
    return t;
  }();
  return table;
}

/// A block-scaled operand owned by the test, with scales in both layouts.
struct Operand {
  int64_t rows = 0, k = 0;
  std::vector<uint8_t> data, plain, blocked;

  Operand() = default;
  Operand(int64_t rows, int64_t k) : rows(rows), k(k) {
    data.assign(static_cast<size_t>(rows * k / 2), 0);
    plain.assign(static_cast<size_t>(rows * (k / 16)), 0);
  }

  uint8_t nibble(int64_t r, int64_t kk) const {
    uint8_t b = data[r * (k / 2) + kk / 2];
    return (kk & 1) ? b >> 4 : b & 15;
  }
  void setNibble(int64_t r, int64_t kk, uint8_t v) {
    uint8_t &b = data[r * (k / 2) + kk / 2];
    b = (kk & 1) ? uint8_t((b & 0x0F) | (v << 4)) : uint8_t((b & 0xF0) | v);
  }
  uint8_t &scale(int64_t r, int64_t j) { return plain[r * (k / 16) + j]; }
  /// Value of element (r, kk) decoded with the test's tables.
  double value(int64_t r, int64_t kk) const {
    return kE2M1[nibble(r, kk)] * e4m3Table()[plain[r * (k / 16) + kk / 16]];
  }
  /// Rebuilds the blocked copy of the scales (by the test's own formula).
  void makeBlocked() {
    const int64_t kb = k / 16;
    const int64_t rowsPad = (rows + 127) / 128 * 128, kbPad = (kb + 3) / 4 * 4;
    blocked.assign(static_cast<size_t>(rowsPad * kbPad), 0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < kb; ++j)
        blocked[((r / 128) * (kbPad / 4) + j / 4) * 512 + (r % 32) * 16 +
                ((r % 128) / 32) * 4 + j % 4] = plain[r * kb + j];
  }
  ScaledMatrix view(ScaleLayout layout) const {
    return {data.data(),
            layout == ScaleLayout::Plain ? plain.data() : blocked.data(), rows,
            k, layout};
  }
};

/// Random operand: every nibble code, scale codes in [minScale, maxScale]
/// (never NaN).
Operand randomOperand(std::mt19937 &rng, int64_t rows, int64_t k,
                      int minScale = 0x00, int maxScale = 0x7E) {
  Operand op(rows, k);
  for (auto &b : op.data)
    b = static_cast<uint8_t>(rng());
  std::uniform_int_distribution<int> sc(minScale, maxScale);
  for (auto &s : op.plain)
    s = static_cast<uint8_t>(sc(rng) | ((rng() & 1) ? 0x80 : 0));
  op.makeBlocked();
  return op;
}

/// Naive double reference: want[m*N+n] and the sum of |products| (for the
/// rounding bound).
void naiveMatmul(const Operand &a, const Operand &b, std::vector<double> &want,
                 std::vector<double> &absSum) {
  want.assign(static_cast<size_t>(a.rows * b.rows), 0.0);
  absSum.assign(want.size(), 0.0);
  for (int64_t m = 0; m < a.rows; ++m)
    for (int64_t n = 0; n < b.rows; ++n) {
      double s = 0, t = 0;
      for (int64_t kk = 0; kk < a.k; ++kk) {
        double p = a.value(m, kk) * b.value(n, kk);
        s += p;
        t += std::fabs(p);
      }
      want[m * b.rows + n] = s;
      absSum[m * b.rows + n] = t;
    }
}

/// The documented fp32 order: exact block partial sums (computed in double,
/// exact there too), added in increasing k into a float starting at +0.
std::vector<float> documentedOrderMatmul(const Operand &a, const Operand &b) {
  std::vector<float> c(static_cast<size_t>(a.rows * b.rows));
  for (int64_t m = 0; m < a.rows; ++m)
    for (int64_t n = 0; n < b.rows; ++n) {
      float total = 0.0f;
      for (int64_t j = 0; j < a.k / 16; ++j) {
        double partial = 0;
        for (int64_t kk = 16 * j; kk < 16 * j + 16; ++kk)
          partial += a.value(m, kk) * b.value(n, kk);
        EXPECT_EQ(double(float(partial)), partial) << "partial not exact";
        total += float(partial);
      }
      c[m * b.rows + n] = total;
    }
  return c;
}

/// Checks `got` against the double reference with the fp32 summation bound
/// (nb + 1) * 2^-24 * sum|products|.
void expectWithinRoundingBound(const std::vector<float> &got,
                               const std::vector<double> &want,
                               const std::vector<double> &absSum, int64_t k) {
  ASSERT_EQ(got.size(), want.size());
  const double u = std::ldexp(1.0, -24);
  for (size_t i = 0; i < got.size(); ++i) {
    double bound = double(k / 16 + 1) * u * absSum[i];
    ASSERT_LE(std::fabs(double(got[i]) - want[i]), bound)
        << "element " << i << " got " << got[i] << " want " << want[i];
  }
}

bool sameBits(const std::vector<float> &x, const std::vector<float> &y) {
  return x.size() == y.size() &&
         std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

struct Shape {
  int64_t m, n, k;
};

} // namespace

//===----------------------------------------------------------------------===//
// Operand decoding
//===----------------------------------------------------------------------===//

TEST(Ops, ValueAndDecodeRowMatchTestDecoding) {
  std::mt19937 rng(1);
  Operand op = randomOperand(rng, 130, 64);
  for (ScaleLayout layout : {ScaleLayout::Plain, ScaleLayout::Blocked}) {
    ScaledMatrix v = op.view(layout);
    std::vector<float> row(64);
    for (int64_t r = 0; r < op.rows; ++r) {
      decodeRow(v, r, row.data());
      for (int64_t kk = 0; kk < op.k; ++kk) {
        ASSERT_EQ(double(v.value(r, kk)), op.value(r, kk)) << r << "," << kk;
        ASSERT_EQ(double(row[kk]), op.value(r, kk)) << r << "," << kk;
      }
    }
  }
}

TEST(Ops, NibbleOrderAndBlockScales) {
  // A: 1 x 32; element 0 = 1.0 (low nibble of byte 0), element 17 = 1.0
  // (high nibble of byte 8). Block scales 2 and 0.5.
  Operand a(1, 32);
  a.setNibble(0, 0, 0x2);
  a.setNibble(0, 17, 0x2);
  EXPECT_EQ(a.data[0], 0x02);
  EXPECT_EQ(a.data[8], 0x20);
  a.scale(0, 0) = 0x40; // 2.0
  a.scale(0, 1) = 0x30; // 0.5
  // B: row 0 has 3.0 at element 0 and 6.0 at 17; row 1 has -4 at 1 only.
  Operand b(2, 32);
  b.setNibble(0, 0, 0x5);
  b.setNibble(0, 17, 0x7);
  b.setNibble(1, 1, 0xE);
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < 2; ++j)
      b.scale(r, j) = 0x38; // 1.0
  a.makeBlocked();
  b.makeBlocked();
  std::vector<float> c(2);
  scaledMatmul(a.view(ScaleLayout::Plain), b.view(ScaleLayout::Plain),
               c.data());
  EXPECT_EQ(c[0], 2.0f * 3.0f + 0.5f * 6.0f);
  EXPECT_EQ(c[1], 0.0f);
  // Move A's first element to position 1 (high nibble): now it meets -4.
  a.setNibble(0, 0, 0);
  a.setNibble(0, 1, 0x2);
  scaledMatmul(a.view(ScaleLayout::Plain), b.view(ScaleLayout::Plain),
               c.data());
  EXPECT_EQ(c[0], 0.5f * 6.0f);
  EXPECT_EQ(c[1], 2.0f * -4.0f);
}

//===----------------------------------------------------------------------===//
// scaledMatmul
//===----------------------------------------------------------------------===//

TEST(Ops, MatmulMatchesNaiveDoubleLoop) {
  std::mt19937 rng(2);
  for (Shape s : {Shape{1, 1, 16}, Shape{3, 5, 32}, Shape{17, 8, 256},
                  Shape{64, 3, 512}, Shape{5, 130, 64}, Shape{130, 5, 96},
                  Shape{40, 40, 1024}}) {
    Operand a = randomOperand(rng, s.m, s.k);
    Operand b = randomOperand(rng, s.n, s.k);
    std::vector<double> want, absSum;
    naiveMatmul(a, b, want, absSum);
    for (ScaleLayout la : {ScaleLayout::Plain, ScaleLayout::Blocked})
      for (ScaleLayout lb : {ScaleLayout::Plain, ScaleLayout::Blocked}) {
        std::vector<float> got(static_cast<size_t>(s.m * s.n), -1.0f);
        scaledMatmul(a.view(la), b.view(lb), got.data());
        SCOPED_TRACE(::testing::Message() << s.m << "x" << s.n << "x" << s.k);
        expectWithinRoundingBound(got, want, absSum, s.k);
      }
  }
}

TEST(Ops, MatmulFollowsDocumentedAccumulationOrderExactly) {
  std::mt19937 rng(3);
  for (Shape s : {Shape{4, 6, 16 * 37}, Shape{9, 2, 2048}, Shape{2, 9, 2048}}) {
    Operand a = randomOperand(rng, s.m, s.k);
    Operand b = randomOperand(rng, s.n, s.k);
    std::vector<float> want = documentedOrderMatmul(a, b);
    std::vector<float> got(want.size());
    scaledMatmul(a.view(ScaleLayout::Plain), b.view(ScaleLayout::Plain),
                 got.data());
    EXPECT_TRUE(sameBits(got, want)) << s.m << "x" << s.n << "x" << s.k;
  }
}

TEST(Ops, MatmulOnSeveralThreadsFollowsTheSameOrder) {
  // 8 x 300 x 8192 = 19.7M multiply-adds: 4 x 2^22, so the streamed rows
  // are split over 2 to 4 threads on any machine (uneven ranges: 300 rows),
  // in both orientations (the resident operand is A, then B).
  std::mt19937 rng(8);
  for (Shape s : {Shape{8, 300, 8192}, Shape{300, 8, 8192}}) {
    Operand a = randomOperand(rng, s.m, s.k);
    Operand b = randomOperand(rng, s.n, s.k);
    std::vector<float> want = documentedOrderMatmul(a, b);
    std::vector<float> got(want.size(), -1.0f);
    scaledMatmul(a.view(ScaleLayout::Plain), b.view(ScaleLayout::Blocked),
                 got.data());
    EXPECT_TRUE(sameBits(got, want)) << s.m << "x" << s.n << "x" << s.k;
  }
}

TEST(Ops, MatmulPlainAndBlockedLayoutsAgreeBitwise) {
  std::mt19937 rng(4);
  Operand a = randomOperand(rng, 129, 80);
  Operand b = randomOperand(rng, 7, 80);
  std::vector<float> ref(129 * 7);
  scaledMatmul(a.view(ScaleLayout::Plain), b.view(ScaleLayout::Plain),
               ref.data());
  for (ScaleLayout la : {ScaleLayout::Plain, ScaleLayout::Blocked})
    for (ScaleLayout lb : {ScaleLayout::Plain, ScaleLayout::Blocked}) {
      std::vector<float> got(ref.size());
      scaledMatmul(a.view(la), b.view(lb), got.data());
      EXPECT_TRUE(sameBits(got, ref));
    }
}

TEST(Ops, MatmulExactOnSmallIntegers) {
  // All scales 1, values in {0, 1, 2, 3}: every sum is a small integer.
  std::mt19937 rng(5);
  const int64_t m = 6, n = 5, k = 64;
  Operand a(m, k), b(n, k);
  const uint8_t codes[4] = {0x0, 0x2, 0x4, 0x5};
  for (int64_t r = 0; r < m; ++r)
    for (int64_t kk = 0; kk < k; ++kk)
      a.setNibble(r, kk, codes[rng() % 4]);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t kk = 0; kk < k; ++kk)
      b.setNibble(r, kk, codes[rng() % 4]);
  for (auto &s : a.plain)
    s = 0x38;
  for (auto &s : b.plain)
    s = 0x38;
  std::vector<float> got(m * n);
  scaledMatmul(a.view(ScaleLayout::Plain), b.view(ScaleLayout::Plain),
               got.data());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t want = 0;
      for (int64_t kk = 0; kk < k; ++kk)
        want += int64_t(a.value(i, kk)) * int64_t(b.value(j, kk));
      EXPECT_EQ(got[i * n + j], float(want)) << i << "," << j;
    }
}

TEST(Ops, MatmulNaNScalePoisonsOnlyItsRow) {
  std::mt19937 rng(6);
  Operand a = randomOperand(rng, 4, 32, 0x30, 0x40);
  Operand b = randomOperand(rng, 3, 32, 0x30, 0x40);
  a.scale(2, 1) = 0x7F;
  b.scale(1, 0) = 0xFF;
  std::vector<float> c(12);
  scaledMatmul(a.view(ScaleLayout::Plain), b.view(ScaleLayout::Plain),
               c.data());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(std::isnan(c[i * 3 + j]), i == 2 || j == 1) << i << "," << j;
}

TEST(Ops, MatmulZeroKGivesZeros) {
  uint8_t dummy = 0;
  ScaledMatrix a{&dummy, &dummy, 3, 0, ScaleLayout::Plain};
  ScaledMatrix b{&dummy, &dummy, 2, 0, ScaleLayout::Plain};
  std::vector<float> c(6, 7.0f);
  scaledMatmul(a, b, c.data());
  for (float v : c)
    EXPECT_EQ(v, 0.0f);
}

TEST(Ops, MatmulChunkedResidentPath) {
  // K = 2^22: at most 4 decoded rows fit the 64 MiB resident budget, so the
  // 5-row operand is processed in two chunks. To keep the reference cheap,
  // all rows share one data row and row r's scale codes are the base codes
  // plus 8 * r (the value times 2^r, exactly), so that
  // c[m][n] = 2^(m + n) * dot(a0, b0) exactly and every element differs.
  std::mt19937 rng(7);
  const int64_t k = int64_t(1) << 22, kb = k / 16;
  Operand a0 = randomOperand(rng, 1, k, 0x30, 0x40);
  Operand b0 = randomOperand(rng, 1, k, 0x30, 0x40);
  const float base = documentedOrderMatmul(a0, b0)[0];
  ASSERT_NE(base, 0.0f);
  auto replicate = [&](const Operand &row0, int64_t rows) {
    Operand op(rows, k);
    for (int64_t r = 0; r < rows; ++r) {
      std::copy(row0.data.begin(), row0.data.end(),
                op.data.begin() + r * (k / 2));
      for (int64_t j = 0; j < kb; ++j)
        op.scale(r, j) = uint8_t(row0.plain[j] + 8 * r);
    }
    return op;
  };
  for (Shape s : {Shape{5, 6, k}, Shape{6, 5, k}}) {
    Operand a = replicate(a0, s.m), b = replicate(b0, s.n);
    std::vector<float> got(s.m * s.n);
    scaledMatmul(a.view(ScaleLayout::Plain), b.view(ScaleLayout::Plain),
                 got.data());
    for (int64_t m = 0; m < s.m; ++m)
      for (int64_t n = 0; n < s.n; ++n)
        EXPECT_EQ(got[m * s.n + n], std::ldexp(base, int(m + n)))
            << s.m << "x" << s.n << " at " << m << "," << n;
  }
}

TEST(Ops, BatchedMatchesPerBatchProducts) {
  std::mt19937 rng(8);
  const int64_t batches = 3, m = 5, n = 4, k = 48;
  for (ScaleLayout layout : {ScaleLayout::Plain, ScaleLayout::Blocked}) {
    std::vector<Operand> as, bs;
    std::vector<uint8_t> aData, aScales, bData, bScales;
    for (int64_t l = 0; l < batches; ++l) {
      as.push_back(randomOperand(rng, m, k));
      bs.push_back(randomOperand(rng, n, k));
      auto append = [&](std::vector<uint8_t> &dst,
                        const std::vector<uint8_t> &src) {
        dst.insert(dst.end(), src.begin(), src.end());
      };
      bool plain = layout == ScaleLayout::Plain;
      append(aData, as.back().data);
      append(aScales, plain ? as.back().plain : as.back().blocked);
      append(bData, bs.back().data);
      append(bScales, plain ? bs.back().plain : bs.back().blocked);
    }
    std::vector<float> got(batches * m * n);
    ScaledMatrix av{aData.data(), aScales.data(), m, k, layout};
    ScaledMatrix bv{bData.data(), bScales.data(), n, k, layout};
    batchedScaledMatmul(batches, av, bv, got.data());
    for (int64_t l = 0; l < batches; ++l) {
      std::vector<float> want = documentedOrderMatmul(as[l], bs[l]);
      std::vector<float> part(got.begin() + l * m * n,
                              got.begin() + (l + 1) * m * n);
      EXPECT_TRUE(sameBits(part, want)) << "batch " << l;
    }
  }
}

//===----------------------------------------------------------------------===//
// scaledDualMatmul
//===----------------------------------------------------------------------===//

TEST(Ops, DualMatchesDefinition) {
  std::mt19937 rng(9);
  const int64_t m = 33, n = 6, k = 128;
  // Scales around 1 keep the products in SiLU's interesting range.
  Operand a = randomOperand(rng, m, k, 0x28, 0x38);
  Operand b1 = randomOperand(rng, n, k, 0x28, 0x38);
  Operand b2 = randomOperand(rng, n, k, 0x28, 0x38);
  std::vector<float> acc1 = documentedOrderMatmul(a, b1);
  std::vector<float> acc2 = documentedOrderMatmul(a, b2);
  std::vector<double> w1, w2, s1, s2;
  naiveMatmul(a, b1, w1, s1);
  naiveMatmul(a, b2, w2, s2);
  for (ScaleLayout la : {ScaleLayout::Plain, ScaleLayout::Blocked})
    for (ScaleLayout lb : {ScaleLayout::Plain, ScaleLayout::Blocked}) {
      std::vector<float> got(m * n);
      scaledDualMatmul(a.view(la), b1.view(lb), b2.view(lb), got.data());
      for (int64_t i = 0; i < m * n; ++i) {
        // Bitwise: silu and product evaluated in fp32 on fp32 accumulators.
        float want = silu(acc1[i]) * acc2[i];
        ASSERT_EQ(std::memcmp(&got[i], &want, 4), 0) << "element " << i;
        // Against the definition in double.
        double x = w1[i];
        double def = x / (1 + std::exp(-x)) * w2[i];
        ASSERT_NEAR(got[i], def, 1e-5 * (std::fabs(def) + 1)) << i;
      }
    }
}

//===----------------------------------------------------------------------===//
// groupedScaledMatmul
//===----------------------------------------------------------------------===//

TEST(Ops, GroupRowsClampsOffsets) {
  using Rows = std::vector<std::pair<int64_t, int64_t>>;
  // A valid partition, with an empty group and rows left over.
  const int32_t valid[] = {0, 3, 3, 7};
  EXPECT_EQ(groupRows(valid, 3, 10), (Rows{{0, 3}, {3, 3}, {3, 7}}));
  // Negative, decreasing and past-the-end offsets: clamped to [0, rows],
  // then a running maximum, so the groups stay disjoint and in bounds.
  const int32_t bad[] = {30, -5, 150, 90};
  EXPECT_EQ(groupRows(bad, 3, 100), (Rows{{30, 30}, {30, 100}, {100, 100}}));
  const int32_t extreme[] = {-2147483647 - 1, 2147483647, 0};
  EXPECT_EQ(groupRows(extreme, 2, 8), (Rows{{0, 8}, {8, 8}}));
}

TEST(Ops, GroupedEqualsPerGroupMatmul) {
  std::mt19937 rng(10);
  const std::vector<int64_t> groupM = {3, 0, 130, 1, 128, 7};
  const int64_t n = 9, k = 80, kb = k / 16, g = int64_t(groupM.size());
  std::vector<Operand> as, bs;
  for (int64_t i = 0; i < g; ++i) {
    as.push_back(randomOperand(rng, groupM[i], k));
    bs.push_back(randomOperand(rng, n, k));
  }
  for (ScaleLayout la : {ScaleLayout::Plain, ScaleLayout::Blocked})
    for (ScaleLayout lb : {ScaleLayout::Plain, ScaleLayout::Blocked}) {
      std::vector<uint8_t> aData, aScales, bData, bScales;
      int64_t totalM = 0;
      for (int64_t i = 0; i < g; ++i) {
        totalM += groupM[i];
        aData.insert(aData.end(), as[i].data.begin(), as[i].data.end());
        const auto &sa =
            la == ScaleLayout::Plain ? as[i].plain : as[i].blocked;
        ASSERT_EQ(int64_t(sa.size()), scaleBytes(la, groupM[i], kb));
        aScales.insert(aScales.end(), sa.begin(), sa.end());
        bData.insert(bData.end(), bs[i].data.begin(), bs[i].data.end());
        const auto &sb =
            lb == ScaleLayout::Plain ? bs[i].plain : bs[i].blocked;
        bScales.insert(bScales.end(), sb.begin(), sb.end());
      }
      std::vector<float> got(totalM * n, std::nanf(""));
      groupedScaledMatmul(groupM, n, k, aData.data(), aScales.data(),
                          bData.data(), bScales.data(), la, lb, got.data());
      int64_t row = 0;
      for (int64_t i = 0; i < g; ++i) {
        std::vector<float> want(groupM[i] * n);
        scaledMatmul(as[i].view(ScaleLayout::Plain),
                     bs[i].view(ScaleLayout::Plain), want.data());
        std::vector<float> part(got.begin() + row * n,
                                got.begin() + (row + groupM[i]) * n);
        EXPECT_TRUE(sameBits(part, want))
            << "group " << i << " layouts " << int(la) << int(lb);
        std::vector<double> w, s;
        naiveMatmul(as[i], bs[i], w, s);
        expectWithinRoundingBound(part, w, s, k);
        row += groupM[i];
      }
    }
}

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

namespace {

/// Dequantizes with the test's own decoding.
double dequant(const std::vector<uint8_t> &q, const std::vector<uint8_t> &s,
               int64_t k, int64_t r, int64_t kk) {
  uint8_t b = q[r * (k / 2) + kk / 2];
  uint8_t nib = (kk & 1) ? b >> 4 : b & 15;
  return kE2M1[nib] * e4m3(s[r * (k / 16) + kk / 16]);
}

/// Index of the nearest E4M3 code to a >= 0 (ties to even, saturating).
int nearestE4M3(double a) {
  if (a >= 448)
    return 0x7E;
  int best = 0;
  for (int c = 1; c <= 0x7E; ++c) {
    double d = std::fabs(a - e4m3(c)), bd = std::fabs(a - e4m3(best));
    if (d < bd || (d == bd && !(c & 1)))
      best = c;
  }
  return best;
}

} // namespace

TEST(Quantize, PackingOfAHandMadeBlock) {
  std::vector<float> x(16, 0.0f);
  x[0] = 0.5f;  // -> code 0x1, low nibble of byte 0
  x[1] = 6.0f;  // -> code 0x7, high nibble of byte 0
  x[2] = -1.0f; // -> code 0xA, low nibble of byte 1
  x[15] = -3.0f; // -> code 0xD, high nibble of byte 7
  x[5] = -0.0f; // -> code 0x8
  std::vector<uint8_t> q(8, 0xCC), s(1, 0xCC);
  quantize(x.data(), 1, 16, ScaleLayout::Plain, q.data(), s.data());
  EXPECT_EQ(s[0], 0x38); // amax 6 -> scale 1.0
  EXPECT_EQ(q, (std::vector<uint8_t>{0x71, 0x0A, 0x80, 0, 0, 0, 0, 0xD0}));
}

TEST(Quantize, ExactRoundTripForRepresentableInputs) {
  std::mt19937 rng(11);
  const int64_t rows = 37, k = 160, kb = k / 16;
  std::vector<float> x(rows * k);
  std::vector<uint8_t> wantScale(rows * kb), wantQ(rows * k / 2, 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < kb; ++j) {
      int code = 1 + int(rng() % 0x7E); // Any finite positive scale.
      wantScale[r * kb + j] = uint8_t(code);
      double s = e4m3(code);
      int forced = int(rng() % 16);     // One element is +-6: amax = 6s.
      for (int i = 0; i < 16; ++i) {
        uint8_t nib = uint8_t(rng() % 16);
        if (i == forced)
          nib = (rng() & 1) ? 0x7 : 0xF;
        int64_t kk = j * 16 + i;
        x[r * k + kk] = float(kE2M1[nib] * s); // Exact in fp32.
        wantQ[r * (k / 2) + kk / 2] |= uint8_t((kk & 1) ? nib << 4 : nib);
      }
    }
  for (ScaleLayout layout : {ScaleLayout::Plain, ScaleLayout::Blocked}) {
    std::vector<uint8_t> q(rows * k / 2, 0xCD);
    std::vector<uint8_t> s(scaleBytes(layout, rows, kb), 0xCD);
    quantize(x.data(), rows, k, layout, q.data(), s.data());
    std::vector<uint8_t> plainS(rows * kb);
    if (layout == ScaleLayout::Blocked)
      blockedToPlain(s.data(), rows, kb, plainS.data());
    else
      plainS = s;
    EXPECT_EQ(plainS, wantScale);
    EXPECT_EQ(q, wantQ); // Codes, -0 (0x8) included, are reproduced.
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t kk = 0; kk < k; ++kk)
        ASSERT_EQ(dequant(q, plainS, k, r, kk), double(x[r * k + kk]))
            << r << "," << kk;
  }
}

TEST(Quantize, BlockedLayoutZeroPaddingAndSameContent) {
  std::mt19937 rng(12);
  std::normal_distribution<float> nd(0.0f, 3.0f);
  const int64_t rows = 131, k = 48, kb = 3;
  std::vector<float> x(rows * k);
  for (auto &v : x)
    v = nd(rng);
  std::vector<uint8_t> qp(rows * k / 2), sp(rows * kb);
  quantize(x.data(), rows, k, ScaleLayout::Plain, qp.data(), sp.data());
  std::vector<uint8_t> qb(rows * k / 2),
      sb(blockedScaleBytes(rows, kb), 0xEE);
  quantize(x.data(), rows, k, ScaleLayout::Blocked, qb.data(), sb.data());
  EXPECT_EQ(qb, qp);
  std::vector<uint8_t> expect(sb.size());
  plainToBlocked(sp.data(), rows, kb, expect.data());
  EXPECT_EQ(sb, expect); // Includes: every padding byte is zero.
}

TEST(Quantize, ErrorBoundAndNearestChoices) {
  std::mt19937 rng(13);
  const int64_t rows = 64, k = 256, kb = k / 16;
  std::vector<float> x(rows * k);
  for (int64_t r = 0; r < rows; ++r) {
    // Row magnitudes from 1e-5 (subnormal scales) to 1e4 (saturated).
    float mag = std::pow(10.0f, -5.0f + 9.0f * float(r) / float(rows - 1));
    std::normal_distribution<float> nd(0.0f, mag);
    for (int64_t kk = 0; kk < k; ++kk)
      x[r * k + kk] = (rng() % 7 == 0) ? 0.0f : nd(rng);
  }
  std::vector<uint8_t> q(rows * k / 2), s(rows * kb);
  quantize(x.data(), rows, k, ScaleLayout::Plain, q.data(), s.data());
  int64_t saturatedBlocks = 0, subnormalScales = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < kb; ++j) {
      float amax = 0;
      for (int i = 0; i < 16; ++i)
        amax = std::max(amax, std::fabs(x[r * k + j * 16 + i]));
      const float target = amax / 6.0f;
      const int code = s[r * kb + j];
      ASSERT_EQ(code, nearestE4M3(target))
          << "scale of block " << r << "," << j;
      const double sc = e4m3(code);
      saturatedBlocks += code == 0x7E && target > 448;
      subnormalScales += code > 0 && code < 0x08;
      for (int i = 0; i < 16; ++i) {
        const int64_t kk = j * 16 + i;
        const double xv = x[r * k + kk];
        const double got = dequant(q, s, k, r, kk);
        if (sc == 0) {
          ASSERT_EQ(got, 0.0);
          ASSERT_LE(target, std::ldexp(1.0, -10)); // Scale rounded to zero.
          continue;
        }
        // q must be the nearest E2M1 value to y = fl(x / s), saturated.
        const float y = float(xv) / float(sc);
        const double qv = got / sc;
        for (int c = 0; c < 8; ++c)
          ASSERT_LE(std::fabs(std::min<double>(std::fabs(y), 6) -
                              std::fabs(qv)),
                    std::fabs(std::min<double>(std::fabs(y), 6) - kE2M1[c]))
              << "not nearest: x=" << xv << " s=" << sc;
        // Error bound relative to the block scale: half the E2M1 spacing at
        // |y| (0.25 below 2, 0.5 below 4, 1 below 6), or the saturation
        // distance |y| - 6, plus the fp32 rounding of the division.
        const double ay = std::fabs(xv / sc);
        const double steps =
            ay <= 2 ? 0.25 : ay <= 4 ? 0.5 : ay <= 6 ? 1.0 : ay - 6;
        ASSERT_LE(std::fabs(xv - got), sc * (steps + ay * 1e-7))
            << "x=" << xv << " s=" << sc;
        // A normal (non-saturated) scale is within 2^-4 of amax/6, so
        // |y| <= 6.4 and the error stays below one scale unit.
        if (code >= 0x08 && target <= 448) {
          ASSERT_LE(std::fabs(xv - got), sc * (1 + 1e-6));
        }
      }
    }
  EXPECT_GT(saturatedBlocks, 0);  // The sweep reached the saturated regime.
  EXPECT_GT(subnormalScales, 0);  // ... and the subnormal one.
}

TEST(Quantize, ZeroAndTinyBlocks) {
  const int64_t k = 32;
  std::vector<float> x(k, 0.0f);
  // Block 1: amax / 6 == 2^-10 exactly is a tie between 0 and 2^-9 -> 0.
  x[16] = 6.0f * std::ldexp(1.0f, -10);
  x[17] = -1e-4f;
  std::vector<uint8_t> q(k / 2, 0xCC), s(2, 0xCC);
  quantize(x.data(), 1, k, ScaleLayout::Plain, q.data(), s.data());
  EXPECT_EQ(s[0], 0x00);
  EXPECT_EQ(s[1], 0x00);
  for (uint8_t b : q)
    EXPECT_EQ(b, 0x00); // Zero scale: +0 codes even for nonzero inputs.
  // Just above the tie the scale is the smallest subnormal.
  x[16] = std::nextafter(x[16], 1.0f);
  quantize(x.data(), 1, k, ScaleLayout::Plain, q.data(), s.data());
  EXPECT_EQ(s[1], 0x01);
}

TEST(Quantize, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x(48, 0.0f);
  // Block 0: NaN is skipped for amax (3 -> scale 0.5); NaN encodes as +6.
  x[0] = nan;
  x[1] = 3.0f;
  x[2] = -0.0f;
  // Block 1: an infinity saturates the scale to 448.
  x[16] = -inf;
  x[17] = 448.0f;
  x[18] = 1.0f;
  x[15] = nan; // NaN also last in the block, where it could stick.
  // Block 2: only NaN and zeros -> scale 0, data 0.
  x[32] = nan;
  x[47] = nan;
  std::vector<uint8_t> q(24), s(3);
  quantize(x.data(), 1, 48, ScaleLayout::Plain, q.data(), s.data());
  EXPECT_EQ(s[0], 0x30); // 0.5
  EXPECT_EQ(q[0], 0x77); // NaN -> 0x7, 3 / 0.5 = 6 -> 0x7
  EXPECT_EQ(q[1], 0x08); // -0 -> 0x8 in the low nibble
  EXPECT_EQ(q[7], 0x70); // NaN -> 0x7 in the high nibble
  EXPECT_EQ(s[1], 0x7E); // 448
  EXPECT_EQ(q[8], 0x2F); // -inf -> 0xF, 448 / 448 = 1 -> 0x2
  EXPECT_EQ(q[9], 0x00); // 1 / 448 -> 0
  EXPECT_EQ(s[2], 0x00);
  for (int i = 16; i < 24; ++i)
    EXPECT_EQ(q[i], 0x00);
}

//===----------------------------------------------------------------------===//
// compareOutputs (Compare.h)
//===----------------------------------------------------------------------===//

TEST(Compare, ToleranceRuleIsAbsPlusRelative) {
  // atol 1e-3, rtol 1e-2: allowed |diff| for want = 10 is 0.101.
  const float want[3] = {10.0f, 10.0f, 0.0f};
  const float got[3] = {10.1f, 10.102f, 0.0009f};
  CompareResult r = compareOutputs(got, want, 3, 1e-3, 1e-2);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.firstBad, 1);
  EXPECT_EQ(r.firstGot, 10.102f);
  EXPECT_EQ(r.firstWant, 10.0f);
  EXPECT_NEAR(r.maxAbsErr, 0.102, 1e-6);
  EXPECT_NEAR(r.maxRelErr, 0.0102, 1e-7);
  // Uses |want|, not |got|: got = 0, want = 1 with rtol 1 passes, but
  // got = 1, want = 0 (allowed only atol) fails.
  const float one = 1.0f, zero = 0.0f;
  EXPECT_EQ(compareOutputs(&zero, &one, 1, 0.0, 1.0).mismatches, 0);
  EXPECT_EQ(compareOutputs(&one, &zero, 1, 0.0, 1.0).mismatches, 1);
  // Boundary is inclusive.
  const float w2 = 1.0f, g2 = 1.5f;
  EXPECT_EQ(compareOutputs(&g2, &w2, 1, 0.25, 0.25).mismatches, 0);
  EXPECT_EQ(compareOutputs(&g2, &w2, 1, 0.25, 0.2).mismatches, 1);
  // Defaults are 1e-3 / 1e-3.
  const float w3 = 1000.0f, g3ok = 1000.9f, g3bad = 1001.1f;
  EXPECT_EQ(compareOutputs(&g3ok, &w3, 1).mismatches, 0);
  EXPECT_EQ(compareOutputs(&g3bad, &w3, 1).mismatches, 1);
}

TEST(Compare, OverflowEdgeOfTheOutputType) {
  // f16: sums on either side of 65520 round to 65504 and to infinity.
  const float inf = std::numeric_limits<float>::infinity();
  const float edge[2] = {65504.0f, -65504.0f};
  const float over[2] = {inf, -inf};
  // Without the threshold an infinity matches only itself.
  EXPECT_EQ(compareOutputs(over, edge, 2).mismatches, 2);
  // With it: 65520 - 65504 = 16 is within 1e-3 + 1e-3 x 65504, either way
  // round, and counted as widened.
  CompareResult r = compareOutputs(over, edge, 2, 1e-3, 1e-3, nullptr, 65520);
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_EQ(r.widened, 2);
  EXPECT_EQ(
      compareOutputs(edge, over, 2, 1e-3, 1e-3, nullptr, 65520).mismatches, 0);
  // Far below the threshold, with the opposite sign, or against NaN: no.
  const float far = 1000.0f, negEdge = -65504.0f, nan = std::nanf("");
  EXPECT_EQ(
      compareOutputs(&inf, &far, 1, 1e-3, 1e-3, nullptr, 65520).mismatches, 1);
  EXPECT_EQ(
      compareOutputs(&inf, &negEdge, 1, 1e-3, 1e-3, nullptr, 65520).mismatches,
      1);
  EXPECT_EQ(
      compareOutputs(&inf, &nan, 1, 1e-3, 1e-3, nullptr, 65520).mismatches, 1);
  // Both infinite with opposite signs: the sums lie 2 x 65520 apart at
  // least, a match only where the accumulation bound spans that (large
  // products cancelling: seen with MXFP4 scales 2^-27 .. 2^33 and an f16 C).
  const float negInf = -inf;
  EXPECT_EQ(
      compareOutputs(&inf, &negInf, 1, 1e-3, 1e-3, nullptr, 65520).mismatches,
      1);
  const float small = 1.0e5f, large = 1.0e6f;
  EXPECT_EQ(
      compareOutputs(&inf, &negInf, 1, 1e-3, 1e-3, &small, 65520).mismatches,
      1);
  r = compareOutputs(&inf, &negInf, 1, 1e-3, 1e-3, &large, 65520);
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_EQ(r.widened, 1);
  // Without an overflow threshold (an f32 output) never.
  EXPECT_EQ(compareOutputs(&inf, &negInf, 1, 1e-3, 1e-3, &large).mismatches, 1);
}

TEST(Compare, AllMatchingReportsNoFirstBad) {
  const float v[4] = {1.0f, -2.0f, 3.5f, 0.0f};
  CompareResult r = compareOutputs(v, v, 4);
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_EQ(r.firstBad, -1);
  EXPECT_EQ(r.maxAbsErr, 0.0);
  EXPECT_EQ(r.maxRelErr, 0.0);
  EXPECT_EQ(compareOutputs(v, v, 0).mismatches, 0);
}

TEST(Compare, NaNAndInfinityHandling) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  //                     match  bad  bad   match  bad   bad   bad   match
  const float got[8] = {nan, nan, 1.0f, inf, -inf, inf, 1.0f, -inf};
  const float want[8] = {nan, 1.0f, nan, inf, inf, 1e30f, inf, -inf};
  CompareResult r = compareOutputs(got, want, 8, 1e30, 1e30);
  EXPECT_EQ(r.mismatches, 5);
  EXPECT_EQ(r.firstBad, 1);
  EXPECT_TRUE(std::isnan(r.firstGot));
  EXPECT_EQ(r.firstWant, 1.0f);
  // Non-finite pairs do not feed the error maxima.
  EXPECT_EQ(r.maxAbsErr, 0.0);
  EXPECT_EQ(r.maxRelErr, 0.0);
}

// A kernel that forms each product in fp32 (the tensor-core MXFP4 GEMMs)
// gets NaN where products of both signs overflow and the reference, which
// sums a block exactly first, gets an infinity: pairs whose accumulation
// bound overflowed are accepted (and counted) only under
// productsMayOverflow; with a finite bound the strict rules still hold.
TEST(Compare, ProductsMayOverflowWhereTheBoundDoes) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float got[3] = {nan, -inf, nan};
  const float want[3] = {inf, 1.0f, inf};
  const float bound[3] = {inf, inf, 1.0f};
  CompareResult strict = compareOutputs(got, want, 3, 1e-3, 1e-3, bound);
  EXPECT_EQ(strict.mismatches, 3);
  EXPECT_EQ(strict.overflowed, 0);
  CompareResult loose =
      compareOutputs(got, want, 3, 1e-3, 1e-3, bound, 0.0, true);
  EXPECT_EQ(loose.mismatches, 1);
  EXPECT_EQ(loose.firstBad, 2);
  EXPECT_EQ(loose.overflowed, 2);
}

TEST(Quantize, ScaleUsesCorrectlyRoundedFp32Division) {
  // For this amax, amax / 6.0f and amax * (1.0f / 6.0f) are neighbouring
  // floats on either side of an E4M3 rounding boundary, so the two ways of
  // computing amax / 6 give different scale codes; quantize must divide.
  const float amax = std::ldexp(float(0x1c7fffe), -24); // 0x1.c7fffep+0
  const float viaDivision = amax / 6.0f;
  const float viaReciprocal = amax * (1.0f / 6.0f);
  ASSERT_NE(nearestE4M3(viaDivision), nearestE4M3(viaReciprocal));
  std::vector<float> x(16, 0.0f);
  x[3] = -amax;
  std::vector<uint8_t> q(8), s(1);
  quantize(x.data(), 1, 16, ScaleLayout::Plain, q.data(), s.data());
  EXPECT_EQ(s[0], nearestE4M3(viaDivision));
}

TEST(Compare, ExtraToleranceWidensPerElement) {
  // 100 vs 100.3: outside 1e-3 + 1e-3 * 100 = 0.101, inside with 0.25 extra.
  const float got[3] = {100.3f, 5.0f, -7.0f};
  const float want[3] = {100.0f, 5.0f, -7.5f};
  const float extra[3] = {0.25f, 0.0f, 0.25f};
  nvfp4::ref::CompareResult plain =
      nvfp4::ref::compareOutputs(got, want, 3, 1e-3, 1e-3);
  EXPECT_EQ(plain.mismatches, 2);
  nvfp4::ref::CompareResult widened =
      nvfp4::ref::compareOutputs(got, want, 3, 1e-3, 1e-3, extra);
  // Element 2 differs by 0.5 > 1e-3 + 7.5e-3 + 0.25: still a mismatch.
  EXPECT_EQ(widened.mismatches, 1);
  EXPECT_EQ(widened.firstBad, 2);
  EXPECT_EQ(widened.widened, 1);
  EXPECT_NEAR(widened.firstAllowed, 1e-3 + 7.5e-3 + 0.25, 1e-9);
}

// NVFP4's two-level scaling: the block scale is e4m3((amax / 6) / g) and
// the values e2m1(x / (decode(scale) * g)); g = 1 is the single-level
// quantize bit for bit; a zero g gives zero values under saturated scales,
// a NaN g NaN scales and values 0x7 (as the formulas give them).
TEST(Quantize, GlobalScale) {
  std::vector<float> x(16, 0.0f);
  x[0] = 3.0f;   // amax: (3 / 6) / 0.125 = 4, scale code 0x48
  x[1] = 0.75f;  // 0.75 / (4 x 0.125) = 1.5 -> 0x3
  x[2] = -0.25f; // -0.5 -> 0x9
  x[3] = 0.125f; // 0.25: a tie, to the even 0
  std::vector<uint8_t> q(8), s(1);
  quantize(x.data(), 1, 16, ScaleLayout::Plain, q.data(), s.data(), 0.125f);
  EXPECT_EQ(s[0], encodeE4M3(4.0f));
  EXPECT_EQ(q[0], 0x7 | (0x3 << 4));
  EXPECT_EQ(q[1], 0x9 | (0x0 << 4));

  std::mt19937 rng(5);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::vector<float> y(4 * 64);
  for (float &v : y)
    v = normal(rng);
  std::vector<uint8_t> q1(y.size() / 2), s1(y.size() / 16), q2(q1), s2(s1);
  quantize(y.data(), 4, 64, ScaleLayout::Plain, q1.data(), s1.data());
  quantize(y.data(), 4, 64, ScaleLayout::Plain, q2.data(), s2.data(), 1.0f);
  EXPECT_EQ(q1, q2);
  EXPECT_EQ(s1, s2);

  quantize(y.data(), 4, 64, ScaleLayout::Plain, q2.data(), s2.data(), 0.0f);
  for (uint8_t b : q2)
    EXPECT_EQ(b, 0);
  for (uint8_t b : s2)
    EXPECT_EQ(b, 0x7E);
  quantize(y.data(), 4, 64, ScaleLayout::Plain, q2.data(), s2.data(), NAN);
  for (uint8_t b : q2)
    EXPECT_EQ(b, 0x77);
  for (uint8_t b : s2)
    EXPECT_EQ(b, 0x7F);
}
