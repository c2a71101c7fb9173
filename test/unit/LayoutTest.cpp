//===- LayoutTest.cpp - Tests of the block-scale layouts --------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Reference/Layout.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

using namespace nvfp4::ref;

namespace {

/// The blocked offset written as the row-major linearization of the 5-d
/// index (rowBlock, colBlock, r % 32, (r % 128) / 32, c % 4) over the extents
/// (ceil(rows/128), ceil(kb/4), 32, 4, 4) -- the cuBLAS description of the
/// layout, independent of the implementation's formula.
int64_t viewOffset(int64_t r, int64_t c, int64_t kb) {
  const int64_t colBlocks = (kb + 3) / 4;
  const int64_t idx[5] = {r / 128, c / 4, r % 32, (r % 128) / 32, c % 4};
  const int64_t ext[5] = {0, colBlocks, 32, 4, 4};
  int64_t off = idx[0];
  for (int d = 1; d < 5; ++d)
    off = off * ext[d] + idx[d];
  return off;
}

/// (rows, kb) shapes exercised by the round-trip tests.
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 1},   {1, 4},   {3, 5},    {31, 2},  {32, 4},  {33, 3},
    {127, 7}, {128, 4}, {129, 4},  {130, 9}, {200, 1}, {256, 8},
    {300, 13}, {384, 448}, {7, 1024}};

} // namespace

TEST(Layout, BlockedBytes) {
  EXPECT_EQ(blockedScaleBytes(1, 1), 512);
  EXPECT_EQ(blockedScaleBytes(128, 4), 512);
  EXPECT_EQ(blockedScaleBytes(129, 4), 1024);
  EXPECT_EQ(blockedScaleBytes(128, 5), 1024);
  EXPECT_EQ(blockedScaleBytes(130, 10), 256 * 12);
  EXPECT_EQ(blockedScaleBytes(7168, 1024), 7168 * 1024);
  EXPECT_EQ(blockedScaleBytes(0, 5), 0);
  EXPECT_EQ(blockedScaleBytes(5, 0), 0);
  EXPECT_EQ(scaleBytes(ScaleLayout::Plain, 130, 10), 1300);
  EXPECT_EQ(scaleBytes(ScaleLayout::Blocked, 130, 10), 3072);
}

TEST(Layout, BlockedOffsetHandComputed) {
  EXPECT_EQ(blockedScaleOffset(0, 0, 4), 0);
  EXPECT_EQ(blockedScaleOffset(0, 1, 4), 1);
  EXPECT_EQ(blockedScaleOffset(0, 3, 4), 3);
  EXPECT_EQ(blockedScaleOffset(1, 0, 4), 16);
  EXPECT_EQ(blockedScaleOffset(31, 0, 4), 496);
  EXPECT_EQ(blockedScaleOffset(32, 0, 4), 4);
  EXPECT_EQ(blockedScaleOffset(64, 0, 4), 8);
  EXPECT_EQ(blockedScaleOffset(96, 0, 4), 12);
  EXPECT_EQ(blockedScaleOffset(127, 3, 4), 511);
  EXPECT_EQ(blockedScaleOffset(0, 4, 8), 512);      // Next k-block atom.
  EXPECT_EQ(blockedScaleOffset(128, 0, 8), 1024);   // Next row-block: 2 atoms.
  EXPECT_EQ(blockedScaleOffset(33, 5, 8), 533);     // 512 + 16 + 4 + 1.
  EXPECT_EQ(blockedScaleOffset(200, 6, 10), 2186);  // Atom 4: 2048+128+8+2.
  EXPECT_EQ(blockedScaleOffset(128, 0, 1), 512);    // kb padded to 4.
  EXPECT_EQ(blockedScaleOffset(5, 2, 3), 82);       // 5*16 + 2.
  EXPECT_EQ(scaleOffset(ScaleLayout::Plain, 5, 2, 10, 3), 17);
  EXPECT_EQ(scaleOffset(ScaleLayout::Blocked, 5, 2, 10, 3), 82);
}

TEST(Layout, BlockedOffsetMatchesFiveDimensionalView) {
  for (auto [rows, kb] : kShapes)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < kb; ++c)
        ASSERT_EQ(blockedScaleOffset(r, c, kb), viewOffset(r, c, kb))
            << "r=" << r << " c=" << c << " kb=" << kb;
}

TEST(Layout, BlockedOffsetsAreABijectionOntoThePaddedArray) {
  for (auto [rows, kb] : kShapes) {
    const int64_t paddedRows = (rows + 127) / 128 * 128;
    const int64_t paddedKb = (kb + 3) / 4 * 4;
    const int64_t bytes = blockedScaleBytes(rows, kb);
    ASSERT_EQ(bytes, paddedRows * paddedKb);
    std::vector<int> hits(static_cast<size_t>(bytes), 0);
    for (int64_t r = 0; r < paddedRows; ++r)
      for (int64_t c = 0; c < paddedKb; ++c) {
        int64_t off = blockedScaleOffset(r, c, paddedKb);
        ASSERT_GE(off, 0);
        ASSERT_LT(off, bytes);
        ++hits[static_cast<size_t>(off)];
      }
    for (int64_t i = 0; i < bytes; ++i)
      ASSERT_EQ(hits[static_cast<size_t>(i)], 1)
          << "offset " << i << " rows=" << rows << " kb=" << kb;
  }
}

TEST(Layout, RoundTripAndZeroPadding) {
  std::mt19937 rng(7);
  for (auto [rows, kb] : kShapes) {
    std::vector<uint8_t> plain(static_cast<size_t>(rows * kb));
    for (auto &b : plain)
      b = static_cast<uint8_t>(1 + rng() % 255); // Never zero.
    const int64_t bytes = blockedScaleBytes(rows, kb);
    std::vector<uint8_t> blocked(static_cast<size_t>(bytes), 0xAB);
    plainToBlocked(plain.data(), rows, kb, blocked.data());

    std::vector<bool> used(static_cast<size_t>(bytes), false);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < kb; ++c) {
        int64_t off = viewOffset(r, c, kb);
        ASSERT_EQ(blocked[off], plain[r * kb + c]) << "r=" << r << " c=" << c;
        used[static_cast<size_t>(off)] = true;
      }
    int64_t padding = 0;
    for (int64_t i = 0; i < bytes; ++i)
      if (!used[static_cast<size_t>(i)]) {
        ++padding;
        ASSERT_EQ(blocked[i], 0) << "padding byte " << i << " not zero";
      }
    EXPECT_EQ(padding, bytes - rows * kb);

    std::vector<uint8_t> back(plain.size(), 0);
    blockedToPlain(blocked.data(), rows, kb, back.data());
    EXPECT_EQ(back, plain) << "rows=" << rows << " kb=" << kb;
  }
}

TEST(Layout, BlockedToPlainIgnoresPadding) {
  const int64_t rows = 3, kb = 2;
  std::vector<uint8_t> blocked(static_cast<size_t>(blockedScaleBytes(rows, kb)),
                               0xEE);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < kb; ++c)
      blocked[viewOffset(r, c, kb)] = static_cast<uint8_t>(10 * r + c);
  std::vector<uint8_t> plain(rows * kb);
  blockedToPlain(blocked.data(), rows, kb, plain.data());
  EXPECT_EQ(plain, (std::vector<uint8_t>{0, 1, 10, 11, 20, 21}));
}

// The sm_100a GEMM's padded form: from either layout, the scales land where
// the wider array's blocked layout puts them and every other byte is zero.
TEST(Layout, ToBlockedPaddedFromEitherLayout) {
  std::mt19937 rng(11);
  for (auto [rows, kb] : kShapes) {
    const int64_t kbOut = (kb + 15) / 16 * 16 + 16;
    std::vector<uint8_t> plain(static_cast<size_t>(rows * kb));
    for (auto &b : plain)
      b = static_cast<uint8_t>(1 + rng() % 255); // Never zero.
    std::vector<uint8_t> blocked(static_cast<size_t>(blockedScaleBytes(rows, kb)));
    plainToBlocked(plain.data(), rows, kb, blocked.data());
    const int64_t bytes = blockedScaleBytes(rows, kbOut);
    for (ScaleLayout from : {ScaleLayout::Plain, ScaleLayout::Blocked}) {
      std::vector<uint8_t> out(static_cast<size_t>(bytes), 0xAB);
      toBlockedPadded(from == ScaleLayout::Plain ? plain.data()
                                                 : blocked.data(),
                      from, rows, kb, kbOut, out.data());
      int64_t nonZero = 0;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < kb; ++c)
          ASSERT_EQ(out[blockedScaleOffset(r, c, kbOut)], plain[r * kb + c])
              << "r=" << r << " c=" << c;
      for (uint8_t b : out)
        nonZero += b != 0;
      EXPECT_EQ(nonZero, rows * kb) << "rows=" << rows << " kb=" << kb;
    }
  }
}
