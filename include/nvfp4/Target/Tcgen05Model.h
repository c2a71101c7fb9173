//===- Tcgen05Model.h - host model of the tcgen05 block-scaled MMA -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// What the sm_100a GEMM relies on, executed on the host so that tests can
// check a kernel's descriptors, tensor-memory (TMEM) addresses and copy
// shapes without a B200 (issue 9). Written from the PTX ISA, cross-checked
// against CUTLASS, Triton and DeepGEMM (docs/research/
// tcgen05-block-scale-facts.md, cited per function):
//
// - TMEM: 128 lanes x 512 columns of 32-bit cells; an address holds the
//   lane in bits 16-31 and the column in bits 0-15.
// - tcgen05.cp.cta_group::1.32x128b.warpx4: 32 rows of 16 bytes from shared
//   memory (a K-major descriptor without swizzle) to lanes r + 32 q for
//   every quadrant q, 4 columns, byte j of a row in byte j % 4 of column
//   j / 4. A 512-byte atom of the blocked 128x4 scale layout (scale (row r,
//   block c) at byte (r % 32) * 16 + (r / 32) * 4 + c) thereby lands where
//   the MMA reads scale (r, c): lane r % 32 (any quadrant), column r / 32,
//   byte c.
// - tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16, M = 128:
//   D[m][n] (+)= sum over the instruction's 64 K values of
//   (A[m][k] x SFA(m, k / 16)) x (B[n][k] x SFB(n, k / 16)); A and B are
//   packed e2m1 (value 2i in the low nibble of byte i) read through their
//   shared-memory descriptors, 32 bytes per row; SFA(m, c) is byte c of
//   the cell at lane m, column col(sfa) + m / 32; SFB(n, c) the same at
//   lane n % 32, column col(sfb) + n / 32; D[m][n] is the f32 cell at lane
//   m, column col(d) + n.
// - ... .block_scale.block32 (scale_vec::2X) with ue8m0 scales (MXFP4): the
//   same with one scale per 32 K values, two per row per instruction, from
//   the cell's half word the scale id selects: SFA(m, c) is byte
//   sfa_id + c (sfa_id 0 or 2) of the cell at lane m, column col(sfa) +
//   m / 32 (PTX ISA 9.7.16.10.7.2.2), and the same for B with sfb_id.
//   A blocked 128x4 atom (4 scales of a row: 128 K values) thereby serves
//   two instructions, scale ids 0 and 2.
// - cta_group::2 (a CTA pair, M = 256): the pair's first CTA issues the
//   MMA; each CTA holds 128 rows of A, half of B's N rows (the first half
//   in the first CTA) and all N rows' scales of B at the same addresses,
//   and its own D; tcgen05.cp.cta_group::2 copies each CTA's shared
//   memory into its own TMEM.
// - tcgen05.ld.sync.aligned.32x32b: warp w reads lanes 32 (w % 4) ..
//   32 (w % 4) + 31, thread t lane 32 (w % 4) + t, register i column
//   col + i.
//
// The model sums each product in K order in f32; the hardware's order is
// not documented, so results are compared exactly only where every partial
// sum is exact.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TARGET_TCGEN05MODEL_H
#define NVFP4_TARGET_TCGEN05MODEL_H

#include "nvfp4/Target/Tcgen05Descriptors.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::nvfp4::tcgen05 {

/// A TMEM address: lane in bits 16-31, column in bits 0-15.
constexpr uint32_t tmemAddress(uint32_t lane, uint32_t column) {
  return (lane << 16) | column;
}

/// The tensor memory of one CTA.
class TensorMemory {
public:
  static constexpr int kLanes = 128, kColumns = 512;
  TensorMemory() : cells(kLanes * kColumns, 0) {}
  uint32_t &cell(int lane, int column) {
    return cells[lane * kColumns + column];
  }
  uint32_t cell(int lane, int column) const {
    return cells[lane * kColumns + column];
  }

private:
  std::vector<uint32_t> cells;
};

/// Shared memory of one CTA, indexed by shared-window address.
using SharedMemory = std::vector<uint8_t>;

/// tcgen05.cp.cta_group::1.32x128b.warpx4 from the shared memory `source`
/// describes (no swizzle, K-major: row r at kMajorAddress(source, r, 0..15))
/// to TMEM address `destination` (its lane must be 0). Returns why the
/// copy is invalid, or "".
std::string copy32x128bWarpx4(const SharedMemory &smem, uint64_t source,
                              uint32_t destination, TensorMemory &tmem);

/// The operands of one tcgen05.mma ... kind::mxf4nvf4.block_scale.block16
/// (or .block32).
struct Mxf4Mma {
  uint64_t aDescriptor = 0, bDescriptor = 0;
  uint32_t instrDescriptor = 0;
  uint32_t d = 0, scaleA = 0, scaleB = 0;
  /// The enable-input-d predicate: accumulate into D (else overwrite).
  bool accumulate = false;
  /// The instruction's .block32 qualifier (one scale per 32 values;
  /// MXFP4), else .block16.
  bool block32 = false;
};

/// Executes `mma` (cta_group::1, M = 128) on `smem` and `tmem`. Returns why
/// the operands are invalid (undecodable descriptors, a shape other than
/// M = 128, a scale format the block size does not take (block16: ue4m3,
/// ids 0; block32: ue8m0, ids 0 or 2), columns past the allocation), or
/// "".
std::string mmaMxf4Nvf4(const SharedMemory &smem, const Mxf4Mma &mma,
                        TensorMemory &tmem);

/// The same for one CTA (`smems` and `tmems` of one each, M = 128) or a
/// CTA pair (tcgen05.mma.cta_group::2, two each, M = 256; the pair's first
/// CTA issues it): CTA v multiplies its own 128 rows of A (its shared
/// memory at the descriptor's address, its TMEM's scales of A) by all N
/// rows of B, rows [v N / 2, (v + 1) N / 2) read from CTA v's shared
/// memory at the descriptor's address (rows 0 .. N / 2 - 1 there), the
/// scales of all N rows from its own TMEM, into its own TMEM's D columns.
/// (PTX ISA 9.7.16: the A, B and D partitions of cta_group::2; CUTLASS's
/// 2x1SM MMA traits give the same split.)
std::string mmaMxf4Nvf4(llvm::ArrayRef<const SharedMemory *> smems,
                        const Mxf4Mma &mma,
                        llvm::ArrayRef<TensorMemory *> tmems);

/// What tcgen05.ld.sync.aligned.32x32b gives thread `thread` of warp `warp`
/// in register `reg` for TMEM address `address` (whose lane must be the
/// warp's quadrant, 32 (warp % 4)).
float load32x32b(const TensorMemory &tmem, int warp, int thread,
                 uint32_t address, int reg);

} // namespace mlir::nvfp4::tcgen05

#endif // NVFP4_TARGET_TCGEN05MODEL_H
