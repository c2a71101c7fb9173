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
// The same tile in MXFP4 (e8m0 scales per 32 values, .block32): an atom
// holds 128 K values' scales, so one copy serves two MMAs, the second
// reading the cells' upper half words (scale id 2). Planted errors (scale
// id 0 for both, each MMA reading its own atom's columns as NVFP4 does, a
// .block16 instruction on ue8m0 scales) must change or refuse it.
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
using nvfp4::ref::decodeE8M0;
using nvfp4::ref::encodeE4M3;

namespace {

constexpr int64_t kK = 256;
constexpr uint32_t kBaseA = 0x0000, kBaseB = 0x4000, kBaseSfa = 0xC000,
                   kBaseSfb = 0xC800, kSmemBytes = 0xE000;
constexpr uint32_t kDColumn = 0, kSfaColumn = 256, kSfbColumn = 272;
static_assert(kSfbColumn + 8 * 4 <= TensorMemory::kColumns, "TMEM budget");

/// One tile's operands: e2m1 codes [rows][K], scale codes [rows][K/block]
/// (e4m3 per 16 values, or MXFP4's e8m0 per 32).
struct Operand {
  int64_t rows;
  std::vector<uint8_t> values, scales;
  int64_t block = 16;
  bool mx() const { return block == 32; }
  float scale(int64_t row, int64_t k) const {
    uint8_t code = scales[row * (kK / block) + k / block];
    return mx() ? decodeE8M0(code) : decodeE4M3(code);
  }
};

Operand randomOperand(int64_t rows, std::mt19937 &rng, bool mx = false) {
  const int64_t block = mx ? 32 : 16;
  Operand o{rows, std::vector<uint8_t>(rows * kK),
            std::vector<uint8_t>(rows * kK / block), block};
  for (uint8_t &v : o.values)
    v = rng() % 16;
  // Scales 0.5, 1 and 2: every partial sum of the tile is exact in f32.
  const uint8_t e4m3[] = {encodeE4M3(0.5f), encodeE4M3(1.0f),
                          encodeE4M3(2.0f)};
  const uint8_t e8m0[] = {126, 127, 128};
  for (uint8_t &s : o.scales)
    s = (mx ? e8m0 : e4m3)[rng() % 3];
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

/// The blocked layout's atoms along K: 4 scale columns each (64 values of
/// K for NVFP4, 128 for MXFP4).
int64_t atomsK(const Operand &o) { return kK / (4 * o.block); }

/// Writes the scales of `blocks` 128-row blocks of `o` from row `first`
/// (rows past `o` are zero) in the blocked layout: one 512-byte atom per
/// 128 rows and 4 scale columns, atom (block, kb) at (block * atomsK +
/// kb) * 512, scale (r, c) at byte (r % 32) * 16 + (r / 32) * 4 + c of its
/// atom.
void writeScales(SharedMemory &smem, uint32_t base, const Operand &o,
                 int64_t first, int64_t blocks) {
  const int64_t columns = kK / o.block;
  for (int64_t bl = 0; bl < blocks; ++bl)
    for (int64_t kb = 0; kb < atomsK(o); ++kb)
      for (int64_t r = 0; r < 128; ++r)
        for (int64_t c = 0; c < 4; ++c) {
          int64_t row = first + 128 * bl + r;
          uint8_t code = row < o.rows ? o.scales[row * columns + 4 * kb + c] : 0;
          smem.at(base + 512 * (bl * atomsK(o) + kb) + (r % 32) * 16 +
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
        d[m * n + c] += double(decodeE2M1(a.values[m * kK + k])) *
                        a.scale(m, k) * decodeE2M1(b.values[row * kK + k]) *
                        b.scale(row, k);
      }
  return d;
}

/// What a kernel could get wrong, planted one at a time.
struct Plant {
  Swizzle swizzle = Swizzle::Swizzle128B;
  uint32_t strideByteOffset = 1024;
  uint32_t sfbColumnShift = 0;
  bool oddTileOffset = true;
  /// MXFP4: the scale id of an atom's second MMA (its upper half words),
  /// whether each MMA reads the atom its K step would have as NVFP4, and
  /// the instruction's .block32.
  uint8_t secondScaleId = 2;
  bool atomPerMma = false;
  bool block32 = true;
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
  // atom kb's scales of A at column + 4 kb, of B at + (N_SF / 32) kb
  // (then + 4 per 128-row block).
  auto copy = [&](uint32_t source, uint32_t column) {
    return copy32x128bWarpx4(smem, scaleAtomDescriptor(source).encode(),
                             tmemAddress(0, column), tmem);
  };
  for (int64_t kb = 0; kb < atomsK(a); ++kb) {
    error = copy(kBaseSfa + 512 * kb, kSfaColumn + 4 * kb);
    if (!error.empty())
      return {};
    for (int64_t bl = 0; bl < nSf / 128; ++bl) {
      error = copy(kBaseSfb + 512 * (bl * atomsK(b) + kb),
                   kSfbColumn + (nSf / 32) * kb + 4 * bl);
      if (!error.empty())
        return {};
    }
  }
  Mxf4InstrDescriptor instr;
  instr.m = 128;
  instr.n = n;
  if (a.mx())
    instr.scaleFormat = ScaleFormat::UE8M0;
  // K step kk reads atom kk (NVFP4) or kk / 2 with scale id 0 or 2
  // (MXFP4).
  const int64_t mmasPerAtom = a.mx() && !plant.atomPerMma ? 2 : 1;
  const uint32_t oddOffset =
      (n == 64 && bFirst % 128 == 64 && plant.oddTileOffset) ? 2 : 0;
  for (int64_t kk = 0; kk < kK / 64; ++kk) {
    SmemDescriptor da = kMajorSwizzled128BDescriptor(kBaseA + 32 * kk);
    SmemDescriptor db = kMajorSwizzled128BDescriptor(kBaseB + 32 * kk);
    da.swizzle = db.swizzle = plant.swizzle;
    da.strideByteOffset = db.strideByteOffset = plant.strideByteOffset;
    const int64_t atom = kk / mmasPerAtom;
    if (a.mx())
      instr.scaleIdA = instr.scaleIdB = kk % 2 ? plant.secondScaleId : 0;
    Mxf4Mma mma;
    mma.aDescriptor = da.encode();
    mma.bDescriptor = db.encode();
    mma.instrDescriptor = instr.encode();
    mma.block32 = a.mx() && plant.block32;
    mma.d = tmemAddress(0, kDColumn);
    mma.scaleA = tmemAddress(0, kSfaColumn + 4 * atom);
    mma.scaleB = tmemAddress(0, kSfbColumn + (nSf / 32) * atom + oddOffset +
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

/// A random tile (NVFP4, or MXFP4 with `mx`) unplanted: every output
/// equals the reference.
void expectTileExact(int64_t n, int64_t bFirst, bool mx) {
  std::mt19937 rng(static_cast<unsigned>(n * 1000 + bFirst + mx));
  Operand a = randomOperand(128, rng, mx), b = randomOperand(256, rng, mx);
  std::string error;
  std::vector<double> got = runTile(a, b, bFirst, n, Plant(), error);
  ASSERT_EQ(error, "");
  std::vector<double> want = reference(a, b, bFirst, n);
  int64_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i)
    bad += got[i] != want[i];
  EXPECT_EQ(bad, 0) << "of " << want.size();
}

TEST_P(Tcgen05Tile, MatchesTheReferenceExactly) {
  auto [n, bFirst] = GetParam();
  expectTileExact(n, bFirst, /*mx=*/false);
}

// N = 128 and 256 (B's rows 0..N-1); N = 64 as the even (rows 0..63) and
// the odd (rows 64..127) tile of a 128-row scale block.
INSTANTIATE_TEST_SUITE_P(Shapes, Tcgen05Tile,
                         ::testing::Values(std::make_pair(int64_t(128), int64_t(0)),
                                           std::make_pair(int64_t(256), int64_t(0)),
                                           std::make_pair(int64_t(64), int64_t(0)),
                                           std::make_pair(int64_t(64), int64_t(64))));

TEST_P(Tcgen05Tile, MXFP4MatchesTheReferenceExactly) {
  auto [n, bFirst] = GetParam();
  expectTileExact(n, bFirst, /*mx=*/true);
}

/// How many of the tile's outputs differ from the reference with `plant`.
int64_t mismatches(const Plant &plant, int64_t n, int64_t bFirst,
                   bool mx = false) {
  std::mt19937 rng(7);
  Operand a = randomOperand(128, rng, mx), b = randomOperand(256, rng, mx);
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

TEST(Tcgen05TilePlanted, MXFP4ErrorsChangeTheResult) {
  EXPECT_EQ(mismatches(Plant(), 128, 0, true), 0);
  EXPECT_EQ(mismatches(Plant(), 64, 64, true), 0);
  Plant sameHalf;
  sameHalf.secondScaleId = 0;
  EXPECT_NE(mismatches(sameHalf, 128, 0, true), 0)
      << "an atom's second MMA reading its first's scales (scale id 0)";
  Plant ownAtom;
  ownAtom.atomPerMma = true;
  EXPECT_NE(mismatches(ownAtom, 128, 0, true), 0)
      << "each MMA reading its own atom's columns, as with NVFP4";
  Plant block16;
  block16.block32 = false;
  EXPECT_EQ(mismatches(block16, 128, 0, true), -1)
      << "a .block16 instruction on ue8m0 scales is refused";
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
