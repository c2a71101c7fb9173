//===- Ops.cpp - Reference semantics of the NVFP4 ops -----------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// The products decode operands to fp32 rows once and reuse them: the operand
// with fewer rows is kept decoded (in chunks bounded by kMaxResidentFloats)
// while the rows of the other operand are decoded one at a time and dotted
// with every resident row. Large products split the streamed rows over the
// machine's hardware threads: every output element is still one blockDot,
// so the result is bit-identical to the single-threaded one. (nvfp4-run
// checks every GPU run against it, so its time is part of every benchmark
// and GPU test call.)
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Reference/Ops.h"

#include "nvfp4/Reference/Formats.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>
#include <thread>

namespace nvfp4 {
namespace ref {

namespace {

/// Upper bound on the number of decoded floats kept resident by the
/// products (64 MiB).
constexpr int64_t kMaxResidentFloats = int64_t(16) << 20;

/// Products use one thread per this many multiply-adds (up to the
/// hardware's).
constexpr int64_t kMinParallelMacs = int64_t(1) << 22;

/// E2M1 value for every low-nibble code.
constexpr float kE2M1Values[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,
                                   4.0f,  6.0f,  -0.0f, -0.5f, -1.0f, -1.5f,
                                   -2.0f, -3.0f, -4.0f, -6.0f};

/// Returns the dot product of two decoded rows of length k (a multiple of
/// 16) with the accumulation order documented in Ops.h: exact per-block
/// partial sums (here summed as a fixed tree, which the compiler can
/// vectorize), added in increasing k order.
float blockDot(const float *x, const float *y, int64_t k) {
  float total = 0.0f;
  for (int64_t base = 0; base < k; base += kBlockSize) {
    float p[kBlockSize];
    for (int j = 0; j < kBlockSize; ++j)
      p[j] = x[base + j] * y[base + j];
    for (int j = 0; j < 8; ++j)
      p[j] += p[j + 8];
    for (int j = 0; j < 4; ++j)
      p[j] += p[j + 4];
    p[0] += p[2];
    p[1] += p[3];
    total += p[0] + p[1];
  }
  return total;
}

/// MXFP4's dot product of two rows of unscaled e2m1 values with their
/// E8M0 scale codes per 32 elements (see Ops.h): each block's exact sum
/// scaled with one rounding, the blocks added in increasing k order.
float blockDotMX(const float *x, const uint8_t *cx, const float *y,
                 const uint8_t *cy, int64_t k) {
  float total = 0.0f;
  for (int64_t j = 0; j < k / 32; ++j) {
    float p[32];
    for (int i = 0; i < 32; ++i)
      p[i] = x[32 * j + i] * y[32 * j + i];
    for (int width = 16; width >= 1; width /= 2)
      for (int i = 0; i < width; ++i)
        p[i] += p[i + width];
    if (cx[j] == 0xFF || cy[j] == 0xFF)
      total += std::numeric_limits<float>::quiet_NaN();
    else
      total += std::ldexp(p[0], static_cast<int>(cx[j]) + cy[j] - 254);
  }
  return total;
}

/// Decodes row `r` of an MXFP4 operand without its scales: e2m1 values to
/// `values` (m.k floats) and the row's scale codes to `codes`.
void decodeRowMX(const ScaledMatrix &m, int64_t r, float *values,
                 uint8_t *codes) {
  const int64_t kb = m.scaleColumns();
  const uint8_t *bytes = m.data + r * (m.k / 2);
  for (int64_t i = 0; i < m.k / 2; ++i) {
    values[2 * i] = kE2M1Values[bytes[i] & 0xF];
    values[2 * i + 1] = kE2M1Values[bytes[i] >> 4];
  }
  for (int64_t j = 0; j < kb; ++j)
    codes[j] = m.scales[scaleOffset(m.layout, r, j, m.rows, kb)];
}

/// Returns the byte size of the scales of one operand.
int64_t operandScaleBytes(const ScaledMatrix &m) {
  return scaleBytes(m.layout, m.rows, m.scaleColumns());
}

} // namespace

float decodeScale(ScaleFormat format, uint8_t code) {
  return format == ScaleFormat::MXFP4 ? decodeE8M0(code) : decodeE4M3(code);
}

float ScaledMatrix::value(int64_t r, int64_t kk) const {
  assert(r >= 0 && r < rows && kk >= 0 && kk < k && "index out of range");
  uint8_t byte = data[r * (k / 2) + kk / 2];
  uint8_t nibble = (kk & 1) ? (byte >> 4) : (byte & 0xF);
  const int64_t kb = scaleColumns(), block = blockSizeOf(format);
  uint8_t scale = scales[scaleOffset(layout, r, kk / block, rows, kb)];
  return decodeE2M1(nibble) * decodeScale(format, scale);
}

void decodeRow(const ScaledMatrix &m, int64_t r, float *out) {
  const int64_t block = blockSizeOf(m.format);
  assert(m.k % block == 0 && "K must be a multiple of the block size");
  const int64_t kb = m.scaleColumns();
  const uint8_t *rowData = m.data + r * (m.k / 2);
  for (int64_t j = 0; j < kb; ++j) {
    float s = decodeScale(
        m.format, m.scales[scaleOffset(m.layout, r, j, m.rows, kb)]);
    const uint8_t *bytes = rowData + j * (block / 2);
    float *dst = out + j * block;
    for (int i = 0; i < block / 2; ++i) {
      dst[2 * i] = kE2M1Values[bytes[i] & 0xF] * s;
      dst[2 * i + 1] = kE2M1Values[bytes[i] >> 4] * s;
    }
  }
}

void scaledMatmul(const ScaledMatrix &a, const ScaledMatrix &b, float *c) {
  assert(a.k == b.k && "operands disagree on K");
  assert(a.format == b.format && "operands disagree on the scale format");
  assert(a.k % blockSizeOf(a.format) == 0 && "K not of whole blocks");
  const bool mx = a.format == ScaleFormat::MXFP4;
  const int64_t m = a.rows, n = b.rows, k = a.k;
  if (m == 0 || n == 0)
    return;
  if (k == 0) {
    std::fill(c, c + m * n, 0.0f);
    return;
  }
  // Keep the operand with fewer rows decoded; stream the other.
  const bool residentIsA = a.rows <= b.rows;
  const ScaledMatrix &resident = residentIsA ? a : b;
  const ScaledMatrix &streamed = residentIsA ? b : a;
  const int64_t chunkRows =
      std::max<int64_t>(1, std::min(resident.rows, kMaxResidentFloats / k));
  std::vector<float> residentRows(static_cast<size_t>(chunkRows * k));
  // MXFP4: the rows' scale codes, beside their unscaled values.
  const int64_t kb = resident.scaleColumns();
  std::vector<uint8_t> residentCodes(mx ? static_cast<size_t>(chunkRows * kb)
                                        : 0);
  auto decode = [&](const ScaledMatrix &m, int64_t r, float *values,
                    uint8_t *codes) {
    if (mx)
      decodeRowMX(m, r, values, codes);
    else
      decodeRow(m, r, values);
  };
  auto dot = [&](const float *x, const uint8_t *cx, const float *y,
                 const uint8_t *cy) {
    return mx ? blockDotMX(x, cx, y, cy, k) : blockDot(x, y, k);
  };
  // One thread per kMinParallelMacs multiply-adds, at most one per hardware
  // thread (at least two, so that large products take the same path on
  // every machine) and one per streamed row.
  const int64_t maxThreads = std::min<int64_t>(
      std::max(2u, std::thread::hardware_concurrency()), streamed.rows);
  const int64_t threads =
      std::clamp<int64_t>(m * n * k / kMinParallelMacs, 1, maxThreads);
  auto rangeStart = [&](int64_t t) { return streamed.rows * t / threads; };
  for (int64_t r0 = 0; r0 < resident.rows; r0 += chunkRows) {
    const int64_t count = std::min(chunkRows, resident.rows - r0);
    for (int64_t i = 0; i < count; ++i)
      decode(resident, r0 + i, residentRows.data() + i * k,
             residentCodes.data() + (mx ? i * kb : 0));
    // Streamed rows [begin, end) against the resident chunk.
    auto dotRows = [&, r0, count](int64_t begin, int64_t end) {
      std::vector<float> streamedRow(static_cast<size_t>(k));
      std::vector<uint8_t> streamedCodes(mx ? static_cast<size_t>(kb) : 0);
      for (int64_t s = begin; s < end; ++s) {
        decode(streamed, s, streamedRow.data(), streamedCodes.data());
        for (int64_t i = 0; i < count; ++i) {
          // The dot products are symmetric (each product is exact and
          // commutative), so the result does not depend on which operand
          // is resident.
          float v = dot(residentRows.data() + i * k,
                        residentCodes.data() + (mx ? i * kb : 0),
                        streamedRow.data(), streamedCodes.data());
          if (residentIsA)
            c[(r0 + i) * n + s] = v;
          else
            c[s * n + (r0 + i)] = v;
        }
      }
    };
    // Workers take the first threads - 1 ranges and this thread the last,
    // or every range left when no more threads can be started. Whatever
    // throws, every started worker is joined first.
    std::vector<std::thread> workers;
    auto joinAll = [&] {
      for (std::thread &worker : workers)
        worker.join();
    };
    try {
      int64_t t = 0;
      for (; t + 1 < threads; ++t) {
        try {
          workers.emplace_back(dotRows, rangeStart(t), rangeStart(t + 1));
        } catch (const std::system_error &) {
          break;
        }
      }
      dotRows(rangeStart(t), streamed.rows);
    } catch (...) {
      joinAll();
      throw;
    }
    joinAll();
  }
}

void batchedScaledMatmul(int64_t batches, const ScaledMatrix &a,
                         const ScaledMatrix &b, float *c) {
  const int64_t aData = a.rows * (a.k / 2), bData = b.rows * (b.k / 2);
  const int64_t aScales = operandScaleBytes(a), bScales = operandScaleBytes(b);
  for (int64_t l = 0; l < batches; ++l) {
    ScaledMatrix al = a, bl = b;
    al.data += l * aData;
    al.scales += l * aScales;
    bl.data += l * bData;
    bl.scales += l * bScales;
    scaledMatmul(al, bl, c + l * a.rows * b.rows);
  }
}

void scaledDualMatmul(const ScaledMatrix &a, const ScaledMatrix &b1,
                      const ScaledMatrix &b2, float *c) {
  assert(b1.rows == b2.rows && b1.k == b2.k && "b1 and b2 differ in shape");
  const int64_t size = a.rows * b1.rows;
  std::vector<float> acc2(static_cast<size_t>(size));
  scaledMatmul(a, b1, c);
  scaledMatmul(a, b2, acc2.data());
  for (int64_t i = 0; i < size; ++i)
    c[i] = silu(c[i]) * acc2[static_cast<size_t>(i)];
}

void groupedScaledMatmul(const std::vector<int64_t> &groupM, int64_t n,
                         int64_t k, const uint8_t *aData,
                         const uint8_t *aScales, const uint8_t *bData,
                         const uint8_t *bScales, ScaleLayout layoutA,
                         ScaleLayout layoutB, float *c, ScaleFormat format) {
  assert(k % blockSizeOf(format) == 0 && "K not of whole blocks");
  const int64_t kb = k / blockSizeOf(format);
  const int64_t bScaleStride = scaleBytes(layoutB, n, kb);
  int64_t rowOffset = 0;      // Rows of A (and C) before this group.
  int64_t aScaleOffset = 0;   // Byte offset of this group's A scales.
  for (size_t g = 0; g < groupM.size(); ++g) {
    const int64_t mg = groupM[g];
    assert(mg >= 0 && "negative group size");
    ScaledMatrix a{aData + rowOffset * (k / 2), aScales + aScaleOffset, mg, k,
                   layoutA, format};
    ScaledMatrix b{bData + static_cast<int64_t>(g) * n * (k / 2),
                   bScales + static_cast<int64_t>(g) * bScaleStride, n, k,
                   layoutB, format};
    scaledMatmul(a, b, c + rowOffset * n);
    rowOffset += mg;
    // Plain: one (sum M, kb) array, so the offset is the row offset times kb;
    // Blocked: one region per group.
    aScaleOffset += scaleBytes(layoutA, mg, kb);
  }
}

std::vector<std::pair<int64_t, int64_t>>
groupRows(const int32_t *offsets, int64_t groups, int64_t rows) {
  std::vector<std::pair<int64_t, int64_t>> out;
  auto clamp = [&](int32_t o) {
    return std::min<int64_t>(std::max<int64_t>(o, 0), rows);
  };
  int64_t begin = clamp(offsets[0]);
  for (int64_t g = 0; g < groups; ++g) {
    int64_t end = std::max(begin, clamp(offsets[g + 1]));
    out.emplace_back(begin, end);
    begin = end;
  }
  return out;
}

namespace {

/// The loop both quantizations share: for every `block`-value block of the
/// rows, its amax (NaN elements skipped, like fmaxf) and the block's
/// block / 2 bytes of `q` go to `quantizeBlock`, which fills them and
/// returns the block's scale code, stored in `layout` (the blocked
/// layout's padding zero).
template <typename Fn>
void quantizeBlocks(const float *x, int64_t rows, int64_t k, int64_t block,
                    ScaleLayout layout, uint8_t *q, uint8_t *scales,
                    Fn quantizeBlock) {
  assert(k % block == 0 && "K must be a multiple of the block size");
  const int64_t kb = k / block;
  if (layout == ScaleLayout::Blocked && rows > 0 && kb > 0)
    std::memset(scales, 0, static_cast<size_t>(blockedScaleBytes(rows, kb)));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < kb; ++j) {
      const float *values = x + r * k + j * block;
      float amax = 0.0f;
      for (int64_t i = 0; i < block; ++i) {
        float mag = std::fabs(values[i]);
        if (mag > amax) // False for NaN: NaN elements are skipped.
          amax = mag;
      }
      scales[scaleOffset(layout, r, j, rows, kb)] =
          quantizeBlock(values, amax, q + r * (k / 2) + j * (block / 2));
    }
  }
}

} // namespace

void quantize(const float *x, int64_t rows, int64_t k, ScaleLayout layout,
              uint8_t *q, uint8_t *scales, float global) {
  quantizeBlocks(
      x, rows, k, kBlockSize, layout, q, scales,
      [&](const float *values, float amax, uint8_t *out) -> uint8_t {
        const uint8_t code =
            amax == 0.0f ? 0 : encodeE4M3((amax / 6.0f) / global);
        const float s = decodeE4M3(code) * global;
        for (int i = 0; i < kBlockSize / 2; ++i) {
          uint8_t lo = 0, hi = 0;
          if (s != 0.0f) {
            lo = encodeE2M1(values[2 * i] / s);
            hi = encodeE2M1(values[2 * i + 1] / s);
          }
          out[i] = static_cast<uint8_t>(lo | (hi << 4));
        }
        return code;
      });
}

void quantizeMX(const float *x, int64_t rows, int64_t k, ScaleLayout layout,
                uint8_t *q, uint8_t *scales, MXRounding rounding) {
  quantizeBlocks(
      x, rows, k, 32, layout, q, scales,
      [&](const float *values, float amax, uint8_t *out) -> uint8_t {
        const uint8_t code = encodeE8M0Scale(amax, rounding);
        // 2^(127 - code) is a normal or subnormal fp32 for every code, and
        // a product by it rounds like the exact quotient x / 2^(code - 127).
        const float inverse = std::ldexp(1.0f, 127 - code);
        for (int i = 0; i < 16; ++i)
          out[i] = static_cast<uint8_t>(
              encodeE2M1(values[2 * i] * inverse) |
              (encodeE2M1(values[2 * i + 1] * inverse) << 4));
        return code;
      });
}

} // namespace ref
} // namespace nvfp4
