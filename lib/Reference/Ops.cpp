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

/// Returns the byte size of the scales of one operand.
int64_t operandScaleBytes(const ScaledMatrix &m) {
  return scaleBytes(m.layout, m.rows, m.k / kBlockSize);
}

} // namespace

float ScaledMatrix::value(int64_t r, int64_t kk) const {
  assert(r >= 0 && r < rows && kk >= 0 && kk < k && "index out of range");
  uint8_t byte = data[r * (k / 2) + kk / 2];
  uint8_t nibble = (kk & 1) ? (byte >> 4) : (byte & 0xF);
  int64_t kb = k / kBlockSize;
  uint8_t scale = scales[scaleOffset(layout, r, kk / kBlockSize, rows, kb)];
  return decodeE2M1(nibble) * decodeE4M3(scale);
}

void decodeRow(const ScaledMatrix &m, int64_t r, float *out) {
  assert(m.k % kBlockSize == 0 && "K must be a multiple of 16");
  int64_t kb = m.k / kBlockSize;
  const uint8_t *rowData = m.data + r * (m.k / 2);
  for (int64_t j = 0; j < kb; ++j) {
    float s = decodeE4M3(m.scales[scaleOffset(m.layout, r, j, m.rows, kb)]);
    const uint8_t *bytes = rowData + j * (kBlockSize / 2);
    float *dst = out + j * kBlockSize;
    for (int i = 0; i < kBlockSize / 2; ++i) {
      dst[2 * i] = kE2M1Values[bytes[i] & 0xF] * s;
      dst[2 * i + 1] = kE2M1Values[bytes[i] >> 4] * s;
    }
  }
}

void scaledMatmul(const ScaledMatrix &a, const ScaledMatrix &b, float *c) {
  assert(a.k == b.k && "operands disagree on K");
  assert(a.k % kBlockSize == 0 && "K must be a multiple of 16");
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
      decodeRow(resident, r0 + i, residentRows.data() + i * k);
    // Streamed rows [begin, end) against the resident chunk.
    auto dotRows = [&, r0, count](int64_t begin, int64_t end) {
      std::vector<float> streamedRow(static_cast<size_t>(k));
      for (int64_t s = begin; s < end; ++s) {
        decodeRow(streamed, s, streamedRow.data());
        for (int64_t i = 0; i < count; ++i) {
          // blockDot is symmetric (each product is exact and commutative),
          // so the result does not depend on which operand is resident.
          float v =
              blockDot(residentRows.data() + i * k, streamedRow.data(), k);
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
                         ScaleLayout layoutB, float *c) {
  assert(k % kBlockSize == 0 && "K must be a multiple of 16");
  const int64_t kb = k / kBlockSize;
  const int64_t bScaleStride = scaleBytes(layoutB, n, kb);
  int64_t rowOffset = 0;      // Rows of A (and C) before this group.
  int64_t aScaleOffset = 0;   // Byte offset of this group's A scales.
  for (size_t g = 0; g < groupM.size(); ++g) {
    const int64_t mg = groupM[g];
    assert(mg >= 0 && "negative group size");
    ScaledMatrix a{aData + rowOffset * (k / 2), aScales + aScaleOffset, mg, k,
                   layoutA};
    ScaledMatrix b{bData + static_cast<int64_t>(g) * n * (k / 2),
                   bScales + static_cast<int64_t>(g) * bScaleStride, n, k,
                   layoutB};
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

void quantize(const float *x, int64_t rows, int64_t k, ScaleLayout layout,
              uint8_t *q, uint8_t *scales, float global) {
  assert(k % kBlockSize == 0 && "K must be a multiple of 16");
  const int64_t kb = k / kBlockSize;
  if (layout == ScaleLayout::Blocked && rows > 0 && kb > 0)
    std::memset(scales, 0, static_cast<size_t>(blockedScaleBytes(rows, kb)));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < kb; ++j) {
      const float *block = x + r * k + j * kBlockSize;
      float amax = 0.0f;
      for (int i = 0; i < kBlockSize; ++i) {
        float mag = std::fabs(block[i]);
        if (mag > amax) // False for NaN: NaN elements are skipped.
          amax = mag;
      }
      const uint8_t code =
          amax == 0.0f ? 0 : encodeE4M3((amax / 6.0f) / global);
      const float s = decodeE4M3(code) * global;
      scales[scaleOffset(layout, r, j, rows, kb)] = code;
      uint8_t *out = q + r * (k / 2) + j * (kBlockSize / 2);
      for (int i = 0; i < kBlockSize / 2; ++i) {
        uint8_t lo = 0, hi = 0;
        if (s != 0.0f) {
          lo = encodeE2M1(block[2 * i] / s);
          hi = encodeE2M1(block[2 * i + 1] / s);
        }
        out[i] = static_cast<uint8_t>(lo | (hi << 4));
      }
    }
  }
}

} // namespace ref
} // namespace nvfp4
