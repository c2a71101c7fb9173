//===- Tcgen05ModelTest.cpp - one sm_100a GEMM tile through the model -----===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// A 128 x N x 256 NVFP4 tile as the sm_100a GEMM will compute it: A and B
// written to shared memory as TMA writes them (128B swizzle), their scales
// in the blocked 128x4 layout copied to TMEM with tcgen05.cp 32x128b.warpx4,
// four tcgen05.mma (K = 64 each: descriptors advanced by 32 bytes, scale
// columns by 4), the accumulator read with tcgen05.ld 32x32b. Values and
// scales are chosen so that every partial sum is exact in f32, so the
// result must equal the reference bit for bit. Planted errors (a wrong
// swizzle mode, a wrong stride byte offset, B's scales shifted by 32 rows,
// the wrong TMEM column for an odd N = 64 tile) must change it.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Target/Tcgen05Model.h"

#include "nvfp4/Reference/Formats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace mlir::nvfp4;
using namespace mlir::nvfp4::tcgen05;
using nvfp4::ref::decodeE2M1;
using nvfp4::ref::decodeE4M3;
using nvfp4::ref::encodeE4M3;

namespace {

constexpr int64_t kK = 256;
constexpr uint32_t kBaseA = 0x0000, kBaseB = 0x4000, kBaseSfa = 0xC000,
                   kBaseSfb = 0xC800, kSmemBytes = 0xE000;
constexpr uint32_t kDColumn = 0, kSfaColumn = 256, kSfbColumn = 272;
static_assert(kSfbColumn + 8 * 4 <= TensorMemory::kColumns, "TMEM budget");

/// One tile's operands: e2m1 codes [rows][K], e4m3 scale codes [rows][K/16].
struct Operand {
  int64_t rows;
  std::vector<uint8_t> values, scales;
};

Operand randomOperand(int64_t rows, std::mt19937 &rng) {
  Operand o{rows, std::vector<uint8_t>(rows * kK),
            std::vector<uint8_t>(rows * kK / 16)};
  for (uint8_t &v : o.values)
    v = rng() % 16;
  // Scales 0.5, 1 and 2: every partial sum of the tile is exact in f32.
  const uint8_t codes[] = {encodeE4M3(0.5f), encodeE4M3(1.0f),
                           encodeE4M3(2.0f)};
  for (uint8_t &s : o.scales)
    s = codes[rng() % 3];
  return o;
}

/// Writes rows [first, first + count) of `o` as TMA with the 128B swizzle
/// writes a box of 128-byte rows (K = 256 e2m1 values, packed 2 per byte).
void writeValues(SharedMemory &smem, uint32_t base, const Operand &o,
                 int64_t first, int64_t count) {
  for (int64_t r = 0; r < count; ++r)
    for (int64_t byte = 0; byte < kK / 2; ++byte) {
      const uint8_t *v = &o.values[(first + r) * kK + 2 * byte];
      smem.at(tma128BAddress(base, r, byte)) = uint8_t(v[0] | (v[1] << 4));
    }
}

/// Writes the scales of `blocks` 128-row blocks of `o` from row `first`
/// (rows past `o` are zero) in the blocked layout: one 512-byte atom per
/// 128 rows and 4 scale columns (64 values of K), atom (block, kb) at
/// (block * K / 64 + kb) * 512, scale (r, c) at byte (r % 32) * 16 +
/// (r / 32) * 4 + c of its atom.
void writeScales(SharedMemory &smem, uint32_t base, const Operand &o,
                 int64_t first, int64_t blocks) {
  for (int64_t bl = 0; bl < blocks; ++bl)
    for (int64_t kb = 0; kb < kK / 64; ++kb)
      for (int64_t r = 0; r < 128; ++r)
        for (int64_t c = 0; c < 4; ++c) {
          int64_t row = first + 128 * bl + r;
          uint8_t code =
              row < o.rows ? o.scales[row * (kK / 16) + 4 * kb + c] : 0;
          smem.at(base + 512 * (bl * (kK / 64) + kb) + (r % 32) * 16 +
                  (r / 32) * 4 + c) = code;
        }
}

/// The exact tile: sum over K of the decoded products.
std::vector<double> reference(const Operand &a, const Operand &b,
                              int64_t bFirst, int64_t n) {
  std::vector<double> d(128 * n, 0.0);
  for (int64_t m = 0; m < 128; ++m)
    for (int64_t c = 0; c < n; ++c)
      for (int64_t k = 0; k < kK; ++k) {
        int64_t row = bFirst + c;
        d[m * n + c] +=
            double(decodeE2M1(a.values[m * kK + k])) *
            decodeE4M3(a.scales[m * (kK / 16) + k / 16]) *
            decodeE2M1(b.values[row * kK + k]) *
            decodeE4M3(b.scales[row * (kK / 16) + k / 16]);
      }
  return d;
}

/// What a kernel could get wrong, planted one at a time.
struct Plant {
  Swizzle swizzle = Swizzle::Swizzle128B;
  uint32_t strideByteOffset = 1024;
  uint32_t sfbColumnShift = 0;
  bool oddTileOffset = true;
};

/// Runs the tile: B's rows [bFirst, bFirst + n) of a 128-row block whose
/// scales all sit in TMEM (n = 64: the odd tile reads columns + 2).
/// Returns the accumulator as tcgen05.ld 32x32b reads it.
std::vector<double> runTile(const Operand &a, const Operand &b,
                            int64_t bFirst, int64_t n, const Plant &plant,
                            std::string &error) {
  SharedMemory smem(kSmemBytes, 0);
  writeValues(smem, kBaseA, a, 0, 128);
  writeValues(smem, kBaseB, b, bFirst, n);
  // B's scales go in 128-row blocks (N = 64 tiles share one): N_SF rows.
  const int64_t nSf = std::max<int64_t>(128, n);
  const int64_t block = bFirst / 128 * 128;
  writeScales(smem, kBaseSfa, a, 0, 1);
  writeScales(smem, kBaseSfb, b, block, nSf / 128);
  TensorMemory tmem;
  // The scales' copies: one warpx4 copy per 512-byte atom, 4 columns each;
  // K step kk's scales of A at column + 4 kk, of B at + (N_SF / 32) kk
  // (then + 4 per 128-row block).
  auto copy = [&](uint32_t source, uint32_t column) {
    return copy32x128bWarpx4(smem, scaleAtomDescriptor(source).encode(),
                             tmemAddress(0, column), tmem);
  };
  for (int64_t kb = 0; kb < kK / 64; ++kb) {
    error = copy(kBaseSfa + 512 * kb, kSfaColumn + 4 * kb);
    if (!error.empty())
      return {};
    for (int64_t bl = 0; bl < nSf / 128; ++bl) {
      error = copy(kBaseSfb + 512 * (bl * (kK / 64) + kb),
                   kSfbColumn + (nSf / 32) * kb + 4 * bl);
      if (!error.empty())
        return {};
    }
  }
  Mxf4InstrDescriptor instr;
  instr.m = 128;
  instr.n = n;
  const uint32_t oddOffset =
      (n == 64 && bFirst % 128 == 64 && plant.oddTileOffset) ? 2 : 0;
  for (int64_t kk = 0; kk < kK / 64; ++kk) {
    SmemDescriptor da = kMajorSwizzled128BDescriptor(kBaseA + 32 * kk);
    SmemDescriptor db = kMajorSwizzled128BDescriptor(kBaseB + 32 * kk);
    da.swizzle = db.swizzle = plant.swizzle;
    da.strideByteOffset = db.strideByteOffset = plant.strideByteOffset;
    Mxf4Mma mma;
    mma.aDescriptor = da.encode();
    mma.bDescriptor = db.encode();
    mma.instrDescriptor = instr.encode();
    mma.d = tmemAddress(0, kDColumn);
    mma.scaleA = tmemAddress(0, kSfaColumn + 4 * kk);
    mma.scaleB = tmemAddress(0, kSfbColumn + (nSf / 32) * kk + oddOffset +
                                    plant.sfbColumnShift);
    mma.accumulate = kk > 0;
    error = mmaMxf4Nvf4(smem, mma, tmem);
    if (!error.empty())
      return {};
  }
  // The epilogue's 4 warps read their lane quadrant, register c = column.
  std::vector<double> d(128 * n);
  for (int warp = 0; warp < 4; ++warp)
    for (int t = 0; t < 32; ++t)
      for (int64_t c = 0; c < n; ++c)
        d[(32 * warp + t) * n + c] = load32x32b(
            tmem, warp, t, tmemAddress(32 * warp, kDColumn), static_cast<int>(c));
  return d;
}

class Tcgen05Tile : public ::testing::TestWithParam<std::pair<int64_t, int64_t>> {};

TEST_P(Tcgen05Tile, MatchesTheReferenceExactly) {
  auto [n, bFirst] = GetParam();
  std::mt19937 rng(static_cast<unsigned>(n * 1000 + bFirst));
  Operand a = randomOperand(128, rng), b = randomOperand(256, rng);
  std::string error;
  std::vector<double> got = runTile(a, b, bFirst, n, Plant(), error);
  ASSERT_EQ(error, "");
  std::vector<double> want = reference(a, b, bFirst, n);
  int64_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    bad += got[i] != want[i];
  EXPECT_EQ(bad, 0) << "of " << want.size();
}

// N = 128 and 256 (B's rows 0..N-1); N = 64 as the even (rows 0..63) and
// the odd (rows 64..127) tile of a 128-row scale block.
INSTANTIATE_TEST_SUITE_P(Shapes, Tcgen05Tile,
                         ::testing::Values(std::make_pair(int64_t(128), int64_t(0)),
                                           std::make_pair(int64_t(256), int64_t(0)),
                                           std::make_pair(int64_t(64), int64_t(0)),
                                           std::make_pair(int64_t(64), int64_t(64))));

/// How many of the tile's outputs differ from the reference with `plant`.
int64_t mismatches(const Plant &plant, int64_t n, int64_t bFirst) {
  std::mt19937 rng(7);
  Operand a = randomOperand(128, rng), b = randomOperand(256, rng);
  std::string error;
  std::vector<double> got = runTile(a, b, bFirst, n, plant, error);
  if (!error.empty())
    return -1; // Refused: also a detected error.
  std::vector<double> want = reference(a, b, bFirst, n);
  int64_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    bad += got[i] != want[i];
  return bad;
}

TEST(Tcgen05TilePlanted, ErrorsChangeTheResult) {
  EXPECT_EQ(mismatches(Plant(), 64, 64), 0);
  Plant noSwizzle;
  noSwizzle.swizzle = Swizzle::None;
  EXPECT_NE(mismatches(noSwizzle, 128, 0), 0) << "wrong swizzle mode";
  Plant stride;
  stride.strideByteOffset = 512;
  EXPECT_NE(mismatches(stride, 128, 0), 0) << "wrong stride byte offset";
  Plant shifted;
  shifted.sfbColumnShift = 1;
  EXPECT_NE(mismatches(shifted, 128, 0), 0) << "B's scales 32 rows off";
  Plant even;
  even.oddTileOffset = false;
  EXPECT_NE(mismatches(even, 64, 64), 0)
      << "odd N = 64 tile reading the even tile's scale columns";
}

TEST(Tcgen05TilePlanted, InvalidOperandsAreRefused) {
  SharedMemory smem(0x1000, 0);
  TensorMemory tmem;
  SmemDescriptor src = scaleAtomDescriptor(0);
  EXPECT_NE(copy32x128bWarpx4(smem, src.encode(), tmemAddress(32, 0), tmem),
            "")
      << "a warpx4 copy starts at lane 0";
  EXPECT_NE(copy32x128bWarpx4(smem, src.encode(), tmemAddress(0, 510), tmem),
            "");
  Mxf4Mma mma;
  Mxf4InstrDescriptor instr;
  instr.n = 64;
  instr.scaleIdA = 1;
  mma.instrDescriptor = instr.encode();
  mma.aDescriptor = mma.bDescriptor = kMajorSwizzled128BDescriptor(0).encode();
  EXPECT_NE(mmaMxf4Nvf4(smem, mma, tmem), "") << "block16 needs scale id 0";
}

} // namespace
