//===- Tcgen05DescriptorsTest.cpp - tcgen05 descriptor encoders -----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Known encodings (derived from the PTX ISA tables and matching CUTLASS's
// and Triton's encoders, see Tcgen05Descriptors.h), round trips, and the
// descriptors the decoder must refuse.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Target/Tcgen05Descriptors.h"

#include <gtest/gtest.h>

using namespace mlir::nvfp4::tcgen05;

namespace {

TEST(Tcgen05InstrDescriptor, KnownNvfp4Encodings) {
  // M = 128, e2m1 x e2m1, K-major, dense, scale ids 0.
  Mxf4InstrDescriptor d;
  d.m = 128;
  d.n = 64;
  EXPECT_EQ(d.encode(), 0x08100480u);
  d.n = 128;
  EXPECT_EQ(d.encode(), 0x08200480u);
  d.scaleFormat = ScaleFormat::UE8M0;
  EXPECT_EQ(d.encode(), 0x08A00480u);
  d.n = 64;
  EXPECT_EQ(d.encode(), 0x08900480u);
}

TEST(Tcgen05InstrDescriptor, MatchesThePtxTableForEveryShape) {
  // PTX Table 44: A type bits 7-9, B type 10-12 (e2m1 = 1), N >> 3 at
  // 17-22, scale type at 23, M >> 7 at 27-28.
  for (int64_t m : {128, 256})
    for (int64_t n = 8; n <= 256; n += 8)
      for (ScaleFormat f : {ScaleFormat::UE4M3, ScaleFormat::UE8M0}) {
        Mxf4InstrDescriptor d;
        d.m = m;
        d.n = n;
        d.scaleFormat = f;
        ASSERT_EQ(d.check(), "");
        uint32_t want = (1u << 7) | (1u << 10) | (uint32_t(n >> 3) << 17) |
                        (uint32_t(f == ScaleFormat::UE8M0) << 23) |
                        (uint32_t(m >> 7) << 27);
        EXPECT_EQ(d.encode(), want) << "M " << m << " N " << n;
        std::optional<Mxf4InstrDescriptor> back =
            Mxf4InstrDescriptor::decode(d.encode());
        ASSERT_TRUE(back.has_value());
        EXPECT_TRUE(*back == d);
      }
}

TEST(Tcgen05InstrDescriptor, FieldsRoundTrip) {
  Mxf4InstrDescriptor d;
  d.n = 200;
  d.scaleFormat = ScaleFormat::UE8M0;
  d.scaleIdA = 2;
  d.scaleIdB = 2;
  d.negateA = true;
  d.negateB = true;
  ASSERT_EQ(d.check(), "");
  EXPECT_EQ(d.encode() & (1u << 13), 1u << 13);
  EXPECT_EQ(d.encode() & (1u << 14), 1u << 14);
  EXPECT_EQ((d.encode() >> 29) & 3u, 2u);
  EXPECT_EQ((d.encode() >> 4) & 3u, 2u);
  std::optional<Mxf4InstrDescriptor> back =
      Mxf4InstrDescriptor::decode(d.encode());
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(*back == d);
}

TEST(Tcgen05InstrDescriptor, RejectsWhatMxf4nvf4CannotRun) {
  Mxf4InstrDescriptor d;
  d.m = 64;
  EXPECT_EQ(d.check(), "M (64) must be 128 (cta_group::1) or 256 (cta_group::2)");
  d.m = 128;
  d.n = 60;
  EXPECT_EQ(d.check(), "N (60) must be a multiple of 8 in [8, 256]");
  d.n = 264;
  EXPECT_NE(d.check(), "");
  d.n = 64;
  d.scaleIdB = 2;
  EXPECT_EQ(d.check(),
            "the scale-factor ids must be 0 with e4m3 (block16) scales");

  uint32_t good = Mxf4InstrDescriptor{}.encode();
  // e2m1 encoded as the f8f6f4 kinds do (5) is another kind's descriptor.
  EXPECT_FALSE(Mxf4InstrDescriptor::decode((good & ~(7u << 7)) | (5u << 7)));
  // Transposed (MN-major) A or B, sparsity, K = 96, M = 64 (M >> 7 = 0).
  for (uint32_t bit : {15u, 16u, 2u, 31u})
    EXPECT_FALSE(Mxf4InstrDescriptor::decode(good | (1u << bit))) << bit;
  EXPECT_FALSE(Mxf4InstrDescriptor::decode(good & ~(3u << 27)));
}

TEST(Tcgen05SmemDescriptor, KnownEncodingOf128BSwizzledKMajorTile) {
  // A K-major tile of 128-byte rows, 128B-swizzled, 8-row groups 1024
  // bytes apart, at shared address 0x400; the leading byte offset is 16
  // (ignored for swizzled K-major layouts; CUTLASS writes 1 encoded).
  SmemDescriptor d;
  d.startAddress = 0x400;
  d.leadingByteOffset = 16;
  d.strideByteOffset = 1024;
  d.swizzle = Swizzle::Swizzle128B;
  ASSERT_EQ(d.check(), "");
  EXPECT_EQ(d.encode(), 0x4000404000010040ull);
  // The sm_90 wgmma descriptor of the same tile (the Hopper lowering's:
  // 2-bit swizzle 1 = 128B at bits 62-63, no version bit) differs only in
  // bit 46.
  uint64_t sm90 = (0x400 >> 4) | (uint64_t(1) << 16) |
                  (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
  EXPECT_EQ(d.encode() & ~(uint64_t(1) << 46), sm90);
}

TEST(Tcgen05SmemDescriptor, FieldsRoundTripAndBadBitsAreRefused) {
  for (Swizzle s : {Swizzle::None, Swizzle::Swizzle128BAtom32B,
                    Swizzle::Swizzle128B, Swizzle::Swizzle64B,
                    Swizzle::Swizzle32B}) {
    SmemDescriptor d;
    d.startAddress = 0x3FFF0;
    d.leadingByteOffset = 0x3FFF0;
    d.strideByteOffset = 2048;
    d.baseOffset = 5;
    d.swizzle = s;
    ASSERT_EQ(d.check(), "");
    std::optional<SmemDescriptor> back = SmemDescriptor::decode(d.encode());
    ASSERT_TRUE(back.has_value());
    EXPECT_TRUE(*back == d);
  }
  uint64_t good = SmemDescriptor{}.encode();
  EXPECT_FALSE(SmemDescriptor::decode(good & ~(uint64_t(1) << 46)))
      << "an sm_90 descriptor lacks the version bit";
  EXPECT_FALSE(SmemDescriptor::decode(good | (uint64_t(1) << 52)))
      << "absolute leading offsets are sm_103a only";
  EXPECT_FALSE(SmemDescriptor::decode(good | (uint64_t(3) << 61)))
      << "swizzle 3 is invalid";
  EXPECT_FALSE(SmemDescriptor::decode(good | (uint64_t(1) << 14)));

  SmemDescriptor bad;
  bad.startAddress = 8;
  EXPECT_EQ(bad.check(), "the start address (8) must be 16-byte aligned");
  bad.startAddress = 0;
  bad.strideByteOffset = 1 << 18;
  EXPECT_EQ(bad.check(), "the stride byte offset (262144) must be a multiple "
                         "of 16 below 2^18");
}

TEST(Tcgen05Model, DescriptorReadsWhatTmaWrote128B) {
  // A 128-row tile of 128-byte K-major rows (256 e2m1 values of K), TMA-
  // written with the 128B swizzle at 0x2000 and read through the descriptor
  // the GEMM would build: every byte lands where the descriptor looks.
  const uint32_t base = 0x2000;
  SmemDescriptor d;
  d.startAddress = base;
  d.leadingByteOffset = 16;
  d.strideByteOffset = 1024;
  d.swizzle = Swizzle::Swizzle128B;
  std::optional<SmemDescriptor> decoded = SmemDescriptor::decode(d.encode());
  ASSERT_TRUE(decoded.has_value());
  for (int64_t row = 0; row < 128; ++row)
    for (int64_t k = 0; k < 128; ++k) {
      std::optional<uint32_t> read = kMajorAddress(*decoded, row, k);
      ASSERT_TRUE(read.has_value());
      ASSERT_EQ(*read, tma128BAddress(base, row, k))
          << "row " << row << " byte " << k;
    }
}

TEST(Tcgen05Model, PlantedDescriptorErrorsMisread) {
  // The negative tests a model must pass: a wrong swizzle mode, a wrong
  // stride byte offset, and a start address off the 1024-byte pattern all
  // read bytes other than the ones TMA wrote.
  const uint32_t base = 0x2000;
  auto mismatches = [&](SmemDescriptor d) {
    int64_t bad = 0;
    for (int64_t row = 0; row < 64; ++row)
      for (int64_t k = 0; k < 128; ++k) {
        std::optional<uint32_t> read = kMajorAddress(d, row, k);
        bad += !read || *read != tma128BAddress(base, row, k);
      }
    return bad;
  };
  SmemDescriptor good;
  good.startAddress = base;
  good.leadingByteOffset = 16;
  good.strideByteOffset = 1024;
  good.swizzle = Swizzle::Swizzle128B;
  EXPECT_EQ(mismatches(good), 0);
  SmemDescriptor noSwizzle = good;
  noSwizzle.swizzle = Swizzle::None;
  EXPECT_GT(mismatches(noSwizzle), 0);
  SmemDescriptor wrongStride = good;
  wrongStride.strideByteOffset = 512;
  EXPECT_GT(mismatches(wrongStride), 0);
  SmemDescriptor offPattern = good;
  offPattern.startAddress = base + 128;
  EXPECT_GT(mismatches(offPattern), 0);
}

} // namespace
