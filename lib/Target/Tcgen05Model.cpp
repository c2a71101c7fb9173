//===- Tcgen05Model.cpp - host model of the tcgen05 block-scaled MMA ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Target/Tcgen05Model.h"

#include "nvfp4/Reference/Formats.h"

#include <cstring>

using namespace mlir::nvfp4;
using namespace mlir::nvfp4::tcgen05;
using llvm::ArrayRef;
using nvfp4::ref::decodeE2M1;
using nvfp4::ref::decodeE4M3;
using nvfp4::ref::decodeE8M0;

namespace {

uint32_t laneOf(uint32_t address) { return address >> 16; }
uint32_t columnOf(uint32_t address) { return address & 0xFFFF; }

/// Byte `c` of a TMEM cell.
uint8_t byteOf(uint32_t cell, int c) {
  return static_cast<uint8_t>(cell >> (8 * c));
}

/// Reads byte `kByte` of row `row` through `d`, or fails.
bool readK(const SharedMemory &smem, const SmemDescriptor &d, int64_t row,
           int64_t kByte, uint8_t &out) {
  std::optional<uint32_t> address = kMajorAddress(d, row, kByte);
  if (!address || *address >= smem.size())
    return false;
  out = smem[*address];
  return true;
}

} // namespace

std::string tcgen05::copy32x128bWarpx4(const SharedMemory &smem,
                                       uint64_t source, uint32_t destination,
                                       TensorMemory &tmem) {
  std::optional<SmemDescriptor> d = SmemDescriptor::decode(source);
  if (!d)
    return "the source descriptor does not decode";
  if (d->swizzle != Swizzle::None)
    return "the scales' source must not be swizzled";
  if (laneOf(destination) != 0)
    return "a warpx4 copy writes every quadrant: its lane must be 0";
  const uint32_t column = columnOf(destination);
  if (column + 4 > TensorMemory::kColumns)
    return "the copy's 4 columns leave tensor memory";
  for (int r = 0; r < 32; ++r)
    for (int j = 0; j < 16; ++j) {
      uint8_t byte = 0;
      if (!readK(smem, *d, r, j, byte))
        return "the source rows leave shared memory";
      for (int q = 0; q < 4; ++q) {
        uint32_t &cell = tmem.cell(r + 32 * q, column + j / 4);
        int shift = 8 * (j % 4);
        cell = (cell & ~(0xFFu << shift)) | (uint32_t(byte) << shift);
      }
    }
  return "";
}

std::string tcgen05::mmaMxf4Nvf4(const SharedMemory &smem, const Mxf4Mma &mma,
                                 TensorMemory &tmem) {
  return mmaMxf4Nvf4({&smem}, mma, {&tmem});
}

std::string tcgen05::mmaMxf4Nvf4(ArrayRef<const SharedMemory *> smems,
                                 const Mxf4Mma &mma,
                                 ArrayRef<TensorMemory *> tmems) {
  const int64_t group = static_cast<int64_t>(smems.size());
  if ((group != 1 && group != 2) || tmems.size() != static_cast<size_t>(group))
    return "the model covers one CTA or a pair, each with its memories";
  std::optional<SmemDescriptor> a = SmemDescriptor::decode(mma.aDescriptor);
  std::optional<SmemDescriptor> b = SmemDescriptor::decode(mma.bDescriptor);
  std::optional<Mxf4InstrDescriptor> i =
      Mxf4InstrDescriptor::decode(mma.instrDescriptor);
  if (!a || !b)
    return "a shared-memory descriptor does not decode";
  if (!i)
    return "the instruction descriptor does not decode";
  if (i->m != 128 * group)
    return group == 1 ? "cta_group::1 takes M = 128"
                      : "cta_group::2 takes M = 256";
  if (i->n % (8 * group) != 0)
    return "a pair's N must split into halves of whole 8-row groups";
  // (decode() checked the scale ids against the scale format.)
  if (mma.block32 != (i->scaleFormat == ScaleFormat::UE8M0))
    return mma.block32 ? "block32 is paired with ue8m0 scales here (MXFP4)"
                       : "block16 is paired with ue4m3 scales here (NVFP4)";
  // Scale c of a row's 64 values: byte c of the cell (block16) or byte
  // id + c of it (block32: the id's half word).
  const int64_t block = mma.block32 ? 32 : 16;
  auto scaleOf = [&](uint32_t cell, int64_t k, uint8_t id) {
    uint8_t code = byteOf(cell, id + k / block);
    return mma.block32 ? decodeE8M0(code) : decodeE4M3(code);
  };
  const int64_t n = i->n;
  if (laneOf(mma.d) != 0 || laneOf(mma.scaleA) != 0 ||
      laneOf(mma.scaleB) != 0)
    return "the TMEM operands must start at lane 0";
  if (columnOf(mma.d) + n > TensorMemory::kColumns ||
      columnOf(mma.scaleA) + 4 > TensorMemory::kColumns ||
      columnOf(mma.scaleB) + (n + 31) / 32 > TensorMemory::kColumns)
    return "a TMEM operand leaves tensor memory";
  // B's 64 values per row (32 bytes), row c from CTA c / (n / group) of
  // the pair, its row c % (n / group) there, its scales from each CTA's
  // own TMEM (every CTA holds all N rows' scales).
  const int64_t half = n / group;
  auto rowsOfB = [&](int64_t v, std::vector<float> &bv) -> std::string {
    const TensorMemory &tmem = *tmems[v];
    for (int64_t c = 0; c < n; ++c)
      for (int64_t k = 0; k < 64; k += 2) {
        uint8_t byte = 0;
        if (!readK(*smems[c / half], *b, c % half, k / 2, byte))
          return "B's rows leave shared memory or the descriptor's pattern";
        float scale = scaleOf(tmem.cell(c % 32, columnOf(mma.scaleB) + c / 32),
                              k, i->scaleIdB);
        bv[c * 64 + k] = decodeE2M1(byte & 0xF) * scale;
        bv[c * 64 + k + 1] = decodeE2M1(byte >> 4) * scale;
      }
    return "";
  };
  // Each CTA's 128 rows of A (its own shared memory and scales) times B,
  // into its own TMEM.
  for (int64_t v = 0; v < group; ++v) {
    const SharedMemory &smem = *smems[v];
    TensorMemory &tmem = *tmems[v];
    std::vector<float> av(128 * 64), bv(n * 64);
    for (int64_t m = 0; m < 128; ++m)
      for (int64_t k = 0; k < 64; k += 2) {
        uint8_t byte = 0;
        if (!readK(smem, *a, m, k / 2, byte))
          return "A's rows leave shared memory or the descriptor's pattern";
        float scale = scaleOf(tmem.cell(m, columnOf(mma.scaleA) + m / 32), k,
                              i->scaleIdA);
        av[m * 64 + k] = decodeE2M1(byte & 0xF) * scale;
        av[m * 64 + k + 1] = decodeE2M1(byte >> 4) * scale;
      }
    if (std::string error = rowsOfB(v, bv); !error.empty())
      return error;
    for (int64_t m = 0; m < 128; ++m)
      for (int64_t c = 0; c < n; ++c) {
        uint32_t &cell = tmem.cell(m, columnOf(mma.d) + c);
        float acc = 0;
        if (mma.accumulate)
          std::memcpy(&acc, &cell, 4);
        for (int64_t k = 0; k < 64; ++k)
          acc += av[m * 64 + k] * bv[c * 64 + k];
        std::memcpy(&cell, &acc, 4);
      }
  }
  return "";
}

float tcgen05::load32x32b(const TensorMemory &tmem, int warp, int thread,
                          uint32_t address, int reg) {
  uint32_t bits =
      tmem.cell(32 * (warp % 4) + thread, columnOf(address) + reg);
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}
