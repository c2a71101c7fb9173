//===- TmemOccupancy.h - CTAs per SM against TMEM's columns ------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// An SM's tensor memory has 512 columns, and every CTA of a tcgen05 kernel
// allocates its plan's columns (a power of two) with tcgen05.alloc, which
// waits while too few are free. CTAs that share an SM beyond 512 columns
// therefore run one after another at best; inside a cluster, whose CTAs
// wait for each other (an on-chip split-K's exchange), the waiting CTA can
// hold up the one it waits for: a deadlock. Nothing in a launch limits the
// CTAs per SM directly, but shared memory does: a kernel keeps at most
// 512 / columns CTAs on an SM by asking for enough dynamic shared memory
// that no more fit. The plan pads its shared bytes to that
// (Tcgen05MainloopAttr::getSharedBytes) and the launch's verifier checks it
// (NVFP4Dialect::verifyOperationAttribute).
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_TMEMOCCUPANCY_H
#define NVFP4_DIALECT_NVFP4_TMEMOCCUPANCY_H

#include <cstdint>

namespace mlir::nvfp4::tmem {

/// An sm_100a SM's shared memory (228 KiB), of which each resident CTA
/// reserves 1 KiB besides its own.
constexpr int64_t kSmSharedBytes = 228 * 1024;
constexpr int64_t kCtaReservedSharedBytes = 1024;
constexpr int64_t kColumns = 512;

/// CTAs of `sharedBytes` dynamic shared memory an SM holds at once, by
/// shared memory alone.
constexpr int64_t ctasPerSmByShared(int64_t sharedBytes) {
  return kSmSharedBytes / (sharedBytes + kCtaReservedSharedBytes);
}

/// The least dynamic shared memory, a multiple of 1 KiB, with which CTAs
/// that allocate `columns` TMEM columns never share an SM beyond its 512.
constexpr int64_t minSharedBytesFor(int64_t columns) {
  const int64_t ctas = kColumns / columns;
  const int64_t bytes =
      kSmSharedBytes / (ctas + 1) - kCtaReservedSharedBytes + 1;
  return (bytes + 1023) / 1024 * 1024;
}

static_assert(ctasPerSmByShared(minSharedBytesFor(512)) == 1 &&
                  ctasPerSmByShared(minSharedBytesFor(512) - 1024) == 2,
              "512-column CTAs must be alone on their SM");
static_assert(ctasPerSmByShared(minSharedBytesFor(256)) == 2 &&
                  ctasPerSmByShared(minSharedBytesFor(128)) == 4,
              "256- and 128-column CTAs at most 2 and 4 to an SM");

} // namespace mlir::nvfp4::tmem

#endif // NVFP4_DIALECT_NVFP4_TMEMOCCUPANCY_H
