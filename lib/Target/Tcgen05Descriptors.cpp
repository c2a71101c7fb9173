//===- Tcgen05Descriptors.cpp - sm_100 tcgen05 descriptor encoders --------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Target/Tcgen05Descriptors.h"

using namespace mlir::nvfp4::tcgen05;

namespace {

/// Bits [lo, lo + width) of `v`.
uint64_t field(uint64_t v, unsigned lo, unsigned width) {
  return (v >> lo) & ((uint64_t(1) << width) - 1);
}

bool validSwizzle(uint64_t v) {
  return v == 0 || v == 1 || v == 2 || v == 4 || v == 6;
}

/// A 14-bit byte-offset field: a multiple of 16 below 2^18.
std::string checkOffset(const char *name, uint32_t bytes) {
  if (bytes % 16 != 0 || bytes >= (1u << 18))
    return std::string(name) + " (" + std::to_string(bytes) +
           ") must be a multiple of 16 below 2^18";
  return "";
}

constexpr unsigned kE2M1 = 1; // mxf4 / mxf4nvf4 encoding of e2m1

} // namespace

std::string SmemDescriptor::check() const {
  // The start address is masked to the 256 KiB shared window.
  if (startAddress % 16 != 0)
    return "the start address (" + std::to_string(startAddress) +
           ") must be 16-byte aligned";
  for (std::string error :
       {checkOffset("the leading byte offset", leadingByteOffset),
        checkOffset("the stride byte offset", strideByteOffset)})
    if (!error.empty())
      return error;
  if (baseOffset > 7)
    return "the base offset (" + std::to_string(baseOffset) +
           ") must be below 8";
  if (!validSwizzle(static_cast<uint64_t>(swizzle)))
    return "the swizzle mode must be none, 128B with 32B atoms, 128B, 64B "
           "or 32B";
  return "";
}

uint64_t SmemDescriptor::encode() const {
  return (uint64_t((startAddress & 0x3FFFF) >> 4) << 0) |
         (uint64_t(leadingByteOffset >> 4) << 16) |
         (uint64_t(strideByteOffset >> 4) << 32) | (uint64_t(1) << 46) |
         (uint64_t(baseOffset & 7) << 49) |
         (uint64_t(static_cast<uint8_t>(swizzle)) << 61);
}

std::optional<SmemDescriptor> SmemDescriptor::decode(uint64_t bits) {
  // Reserved bits 14-15, 30-31, 53-60 and the mode bit 52 are 0; 46-48 are
  // 0b001.
  if (field(bits, 14, 2) || field(bits, 30, 2) || field(bits, 46, 3) != 1 ||
      field(bits, 52, 9) || !validSwizzle(field(bits, 61, 3)))
    return std::nullopt;
  SmemDescriptor d;
  d.startAddress = static_cast<uint32_t>(field(bits, 0, 14) << 4);
  d.leadingByteOffset = static_cast<uint32_t>(field(bits, 16, 14) << 4);
  d.strideByteOffset = static_cast<uint32_t>(field(bits, 32, 14) << 4);
  d.baseOffset = static_cast<uint8_t>(field(bits, 49, 3));
  d.swizzle = static_cast<Swizzle>(field(bits, 61, 3));
  return d;
}

std::string Mxf4InstrDescriptor::check() const {
  if (m != 128 && m != 256)
    return "M (" + std::to_string(m) +
           ") must be 128 (cta_group::1) or 256 (cta_group::2)";
  if (n < 8 || n > 256 || n % 8 != 0)
    return "N (" + std::to_string(n) +
           ") must be a multiple of 8 in [8, 256]";
  // block16 (e4m3) scales fill whole 32-bit TMEM words: id 0 only; block32
  // (e8m0) scales may start at byte 0 or 2.
  auto validId = [&](uint8_t id) {
    return id == 0 || (scaleFormat == ScaleFormat::UE8M0 && id == 2);
  };
  if (!validId(scaleIdA) || !validId(scaleIdB))
    return scaleFormat == ScaleFormat::UE4M3
               ? "the scale-factor ids must be 0 with e4m3 (block16) scales"
               : "the scale-factor ids must be 0 or 2 with e8m0 scales";
  return "";
}

uint32_t Mxf4InstrDescriptor::encode() const {
  return (uint32_t(scaleIdB & 3) << 4) | (kE2M1 << 7) | (kE2M1 << 10) |
         (uint32_t(negateA) << 13) | (uint32_t(negateB) << 14) |
         (uint32_t(n >> 3) << 17) |
         (uint32_t(static_cast<uint8_t>(scaleFormat)) << 23) |
         (uint32_t(m >> 7) << 27) | (uint32_t(scaleIdA & 3) << 29);
}

std::optional<Mxf4InstrDescriptor> Mxf4InstrDescriptor::decode(uint32_t bits) {
  // Dense (0-3), e2m1 A (7-9) and B (10-12), K-major (15-16), K = 64 (31),
  // reserved 6 and 24-26.
  if (field(bits, 0, 4) || field(bits, 6, 1) || field(bits, 7, 3) != kE2M1 ||
      field(bits, 10, 3) != kE2M1 || field(bits, 15, 2) ||
      field(bits, 24, 3) || field(bits, 31, 1))
    return std::nullopt;
  Mxf4InstrDescriptor d;
  d.scaleIdB = static_cast<uint8_t>(field(bits, 4, 2));
  d.negateA = field(bits, 13, 1);
  d.negateB = field(bits, 14, 1);
  d.n = static_cast<int64_t>(field(bits, 17, 6)) << 3;
  d.scaleFormat = static_cast<ScaleFormat>(field(bits, 23, 1));
  d.m = static_cast<int64_t>(field(bits, 27, 2)) << 7;
  d.scaleIdA = static_cast<uint8_t>(field(bits, 29, 2));
  if (!d.check().empty())
    return std::nullopt;
  return d;
}

std::optional<uint32_t>
mlir::nvfp4::tcgen05::kMajorAddress(const SmemDescriptor &d, int64_t row,
                                    int64_t kByte) {
  if (row < 0 || kByte < 0 || d.baseOffset != 0)
    return std::nullopt;
  const uint32_t group = static_cast<uint32_t>(row / 8);
  const uint32_t inGroup = static_cast<uint32_t>(row % 8);
  switch (d.swizzle) {
  case Swizzle::Swizzle128B: {
    // The start may sit inside the first 128-byte row of a 1024-byte
    // pattern (an MMA's K step advances it by 32 bytes); the swizzle XORs
    // the absolute address, so the row's bytes must not cross that row.
    if (d.startAddress % 1024 + kByte >= 128)
      return std::nullopt;
    uint32_t linear = d.startAddress + group * d.strideByteOffset +
                      inGroup * 128 + static_cast<uint32_t>(kByte);
    return linear ^ (((linear >> 7) & 7) << 4);
  }
  case Swizzle::None:
    return d.startAddress + group * d.strideByteOffset +
           static_cast<uint32_t>(kByte / 16) * d.leadingByteOffset +
           inGroup * 16 + static_cast<uint32_t>(kByte % 16);
  default:
    return std::nullopt;
  }
}

uint32_t mlir::nvfp4::tcgen05::tma128BAddress(uint32_t base, int64_t row,
                                              int64_t kByte) {
  uint32_t chunk = static_cast<uint32_t>(kByte / 16) ^
                   static_cast<uint32_t>(row % 8);
  return base + static_cast<uint32_t>(row) * 128 + chunk * 16 +
         static_cast<uint32_t>(kByte % 16);
}

/// A descriptor at `address` with a 16-byte leading-dimension offset.
static SmemDescriptor descriptorAt(uint32_t address, uint32_t strideBytes,
                                   Swizzle swizzle) {
  SmemDescriptor d;
  d.startAddress = address;
  d.leadingByteOffset = 16;
  d.strideByteOffset = strideBytes;
  d.swizzle = swizzle;
  return d;
}

SmemDescriptor
mlir::nvfp4::tcgen05::kMajorSwizzled128BDescriptor(uint32_t address) {
  return descriptorAt(address, 1024, Swizzle::Swizzle128B);
}

SmemDescriptor mlir::nvfp4::tcgen05::scaleAtomDescriptor(uint32_t address) {
  return descriptorAt(address, 128, Swizzle::None);
}
