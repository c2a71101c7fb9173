//===- HostBuffer.cpp - host copies of the entry function's memrefs -------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/HostBuffer.h"

#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Support/Npy.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <sys/resource.h>

using namespace mlir;
using namespace mlir::nvfp4;

std::string mlir::nvfp4::typeToString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// A "Key:   N kB" line's bytes from a /proc file, if it has one.
static std::optional<uint64_t> procKiB(const char *file, StringRef key) {
  auto buffer = llvm::MemoryBuffer::getFileAsStream(file);
  if (!buffer)
    return std::nullopt;
  StringRef text = (*buffer)->getBuffer();
  size_t at = text.find(key);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = text.substr(at + key.size()).ltrim(" \t");
  uint64_t kib = 0;
  if (rest.consumeInteger(10, kib))
    return std::nullopt;
  return kib * 1024;
}

std::optional<HostMemory> mlir::nvfp4::availableHostMemory() {
  std::optional<HostMemory> free;
  if (std::optional<uint64_t> bytes = procKiB("/proc/meminfo", "MemAvailable:"))
    free = HostMemory{*bytes, /*addressSpaceLimit=*/false};
  // The process's address-space limit (ulimit -v), where one is set, less
  // what the process already maps: an allocation past it fails however
  // much the machine has free.
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return free;
  const uint64_t mapped = procKiB("/proc/self/status", "VmSize:").value_or(0);
  const uint64_t limit = static_cast<uint64_t>(rl.rlim_cur);
  const uint64_t left = limit > mapped ? limit - mapped : 0;
  if (!free || left < free->bytes)
    return HostMemory{left, /*addressSpaceLimit=*/true};
  return free;
}

static std::string shapeToString(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::optional<uint64_t> HostBuffer::checkedStorageBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  Type e = type.getElementType();
  uint64_t bits = isa<Float4E2M1FNType>(e) ? 4 : e.getIntOrFloatBitWidth();
  uint64_t total = bits;
  for (int64_t d : type.getShape()) {
    if (d < 0 || (d != 0 && total > UINT64_MAX / static_cast<uint64_t>(d)))
      return std::nullopt;
    total *= static_cast<uint64_t>(d);
  }
  return (total + 7) / 8;
}

int64_t HostBuffer::storageBytes(MemRefType type) {
  Type e = type.getElementType();
  int64_t n = type.getNumElements();
  if (isa<Float4E2M1FNType>(e))
    return n / 2;
  return n * static_cast<int64_t>(e.getIntOrFloatBitWidth() / 8);
}

std::string HostBuffer::npyDescr(MemRefType type) {
  Type e = type.getElementType();
  if (isa<Float4E2M1FNType, Float8E4M3FNType, Float8E8M0FNUType>(e))
    return "|u1";
  if (e.isF16())
    return "<f2";
  if (e.isBF16())
    return "<u2";
  if (e.isInteger(32))
    return "<i4";
  return "<f4";
}

SmallVector<int64_t> HostBuffer::npyShape(MemRefType type) {
  SmallVector<int64_t> shape(type.getShape());
  if (isa<Float4E2M1FNType>(type.getElementType()))
    shape.back() /= 2;
  return shape;
}

HostBuffer::HostBuffer(MemRefType type)
    : type(type), bytes(static_cast<size_t>(storageBytes(type)), 0) {}

/// Element `i` of an adversarial block of 16 of kind `kind`, with the
/// block's `magnitude` m, a normal draw and random bits:
/// 0: every e2m1 rounding boundary of the block's scale (amax 6m makes
///    the scale m without a global scale, so t x m is an exact tie) and
///    its neighbours one f32 ulp away, signs mixed;
/// 1: all zeros; 2: one infinity; 3: one NaN (both at element `at`);
/// 4: a subnormal e4m3 scale without a global scale (amax / 6 in
///    [2^-9, 2^-6));
/// 5: a scale that saturates at 448 (amax above 2688);
/// MXFP4 blocks (of 32) also draw
/// 6: fp32 subnormals (the smallest e8m0 scales, and values that scale
///    to subnormals);
/// 7: values near fp32's largest (the largest e8m0 scales).
static float adversarialValue(int kind, int i, int at, float m, float draw,
                              uint64_t bits) {
  static const float ties[] = {0.25f, 0.75f, 1.25f, 1.75f,
                               2.5f,  3.5f,  5.0f};
  const float sign = bits & 0x100 ? -1.0f : 1.0f;
  switch (kind) {
  case 0: {
    if (i == 0)
      return 6.0f * m;
    float tie = ties[(i - 1) % 7] * m;
    if (i >= 8 && i < 15)
      tie = std::nextafter(tie, i % 2 ? 0.0f : 16.0f * m);
    return sign * tie;
  }
  case 1:
    return 0.0f;
  case 2:
  case 3:
    if (at == i)
      return kind == 2 ? sign * std::numeric_limits<float>::infinity()
                       : std::numeric_limits<float>::quiet_NaN();
    return m * draw;
  case 4:
    return std::ldexp(draw, -7);
  case 5:
    return std::ldexp(draw, 12);
  case 6:
    return std::ldexp(draw, -135);
  default:
    return std::ldexp(draw, 125);
  }
}

void HostBuffer::fillRandom(const RandomOptions &options, uint64_t streamId) {
  std::mt19937_64 rng(options.seed * 0x9E3779B97F4A7C15ull + streamId + 1);
  Type e = type.getElementType();
  if (isa<Float4E2M1FNType>(e)) {
    for (uint8_t &b : bytes)
      b = static_cast<uint8_t>(rng());
    return;
  }
  if (isa<Float8E4M3FNType, Float8E8M0FNUType>(e)) {
    const bool e8m0 = isa<Float8E8M0FNUType>(e);
    std::uniform_int_distribution<int> code(
        e8m0 ? options.minE8M0 : 0,
        e8m0 ? options.maxE8M0 : options.maxScaleCode);
    for (uint8_t &b : bytes)
      b = static_cast<uint8_t>(code(rng));
    return;
  }
  // i32 (a grouped GEMM's offsets): no random draw means anything; they
  // keep the constructor's zeros and the runner writes them from group
  // sizes.
  if (e.isInteger(32))
    return;
  // Floating-point inputs (quantize): a normal draw times a per-16-block
  // magnitude over 2^-8 .. 2^8, with exact zeros and ties sprinkled in;
  // and one block in 8 adversarial (adversarialBlock).
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> binade(-8, 8);
  std::vector<float> values(static_cast<size_t>(type.getNumElements()));
  float magnitude = 1.0f;
  int kind = -1, at = 0;
  const size_t block = options.valueBlock;
  const int kinds = block == 32 ? 8 : 6;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i % block == 0) {
      magnitude = std::ldexp(1.0f, binade(rng));
      kind = rng() % 8 == 0 ? static_cast<int>(rng() % kinds) : -1;
      at = static_cast<int>(rng() % block);
    }
    if (kind >= 0 && values.size() % block == 0) {
      // Ties cycle over the block's elements after its first (6m).
      const int element = static_cast<int>(i % block);
      const int cycled = element == 0 ? 0 : (element - 1) % 15 + 1;
      values[i] = adversarialValue(kind, cycled, at == element ? cycled : -1,
                                   magnitude, normal(rng), rng());
      continue;
    }
    uint64_t pick = rng() % 64;
    if (pick == 0)
      values[i] = 0.0f;
    else if (pick == 1)
      values[i] = magnitude * 0.75f; // a value that lands on a tie
    else
      values[i] = magnitude * normal(rng);
  }
  fromFloats(values);
}

bool HostBuffer::loadNpy(const std::string &path, std::string &error) {
  ::nvfp4::npy::Array array;
  if (!::nvfp4::npy::read(path, array, error))
    return false;
  std::string want = npyDescr(type);
  SmallVector<int64_t> wantShape = npyShape(type);
  auto normalize = [](const std::string &d) {
    return d == "<u1" ? std::string("|u1") : d;
  };
  if (normalize(array.descr) != want) {
    error = "'" + path + "' has dtype '" + array.descr + "', but " +
            typeToString(type) + " needs '" + want + "'";
    if (isa<Float4E2M1FNType>(type.getElementType()))
      error += " (packed e2m1 bytes, two values per byte)";
    return false;
  }
  if (ArrayRef<int64_t>(array.shape) != ArrayRef<int64_t>(wantShape)) {
    error = "'" + path + "' has shape " + shapeToString(array.shape) +
            ", but " + typeToString(type) + " needs " +
            shapeToString(wantShape);
    if (isa<Float4E2M1FNType>(type.getElementType()))
      error += " (the last dimension holds K/2 packed bytes)";
    return false;
  }
  if (array.bytes.size() != bytes.size()) {
    error = "'" + path + "' holds " + std::to_string(array.bytes.size()) +
            " bytes of data, expected " + std::to_string(bytes.size());
    return false;
  }
  bytes = std::move(array.bytes);
  return true;
}

bool HostBuffer::saveNpy(const std::string &path, std::string &error) const {
  ::nvfp4::npy::Array array;
  array.descr = npyDescr(type);
  SmallVector<int64_t> shape = npyShape(type);
  array.shape.assign(shape.begin(), shape.end());
  array.bytes = bytes;
  return ::nvfp4::npy::write(path, array, error);
}

std::vector<float> HostBuffer::toFloats() const {
  Type e = type.getElementType();
  size_t n = static_cast<size_t>(type.getNumElements());
  std::vector<float> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (e.isF32()) {
      std::memcpy(&out[i], &bytes[4 * i], 4);
    } else {
      uint16_t bits;
      std::memcpy(&bits, &bytes[2 * i], 2);
      out[i] = e.isF16() ? ::nvfp4::ref::halfToFloat(bits)
                         : ::nvfp4::ref::bf16ToFloat(bits);
    }
  }
  return out;
}

void HostBuffer::fromFloats(ArrayRef<float> values) {
  Type e = type.getElementType();
  for (size_t i = 0; i < values.size(); ++i) {
    if (e.isF32()) {
      std::memcpy(&bytes[4 * i], &values[i], 4);
    } else {
      uint16_t bits = e.isF16() ? ::nvfp4::ref::floatToHalf(values[i])
                                : ::nvfp4::ref::floatToBF16(values[i]);
      std::memcpy(&bytes[2 * i], &bits, 2);
    }
  }
}
