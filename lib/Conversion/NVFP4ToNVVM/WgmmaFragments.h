//===- WgmmaFragments.h - sm_90a wgmma fragments, decoded tiles -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The pieces both sm_90a GEMM lowerings build from (the CTA that decodes A
// itself, GemmSm90.cpp, and the pipeline's wgmma ops, WgmmaOps.cpp): the
// register-A wgmma and its shared-memory descriptor, where a row's scales
// are (either layout), A's tile decoded into the MMA's shared-memory
// layout, a thread's place in the fragments, its rows of B and their
// decode, a chunk's MMAs and the D fragment's store. Private to
// lib/Conversion/NVFP4ToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_WGMMAFRAGMENTS_H
#define NVFP4_CONVERSION_NVFP4TONVVM_WGMMAFRAGMENTS_H

#include "Epilogue.h"
#include "KernelBuilder.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

namespace mlir::nvfp4::sm90 {

/// wgmma.mma_async with A in registers: LLVM 22 has no NVVM op for it
/// (`nvvm.wgmma.mma_async` takes two shared-memory descriptors), so this
/// one helper emits the instruction as inline PTX. Accumulates into `acc`
/// (tile_m / 2 f32 values, tied in and out) the product of the 64 x 16 f16
/// (`bf16`: bf16) fragment `a` (4 x i32 of pairs) and the 16 x n K-major
/// shared-memory matrix of the same type described by `descB`.
SmallVector<Value> wgmmaRegisterA(KernelBuilder &k, ArrayRef<Value> acc,
                                  ArrayRef<Value> a, Value descB, int64_t n,
                                  bool bf16 = false);

/// The sm_90 shared-memory matrix descriptor of a K-major, 128B-swizzled
/// operand whose 8-row groups are 1024 bytes apart (PTX ISA, "Matrix
/// Descriptor Format"; CUTLASS's GmmaDescriptor has the same fields): start
/// address >> 4 in bits 0-13, leading byte offset (unused for swizzled
/// K-major layouts: 1) in 16-29, stride byte offset 1024 >> 4 in 32-45,
/// base offset 0 (1024-byte aligned buffers), swizzle mode 1 (128B) in
/// 62-63. Built in two parts so that the steps of a chunk share one:
/// sharedDescriptorLow is the low word of the descriptor of the 16-byte
/// aligned shared address `smemAddress32`; sharedDescriptor is the
/// descriptor `step` bytes (a multiple of 16) further on. The step is added
/// to the start address field, which cannot carry into bit 14: shared
/// memory ends below 256 KiB. One add a step instead of a mask, shift and
/// merge (ptxas rebuilt those on the uniform datapath for every wgmma:
/// performance.md, "Decode v3").
Value sharedDescriptorLow(KernelBuilder &k, Value smemAddress32);
Value sharedDescriptor(KernelBuilder &k, Value low, int64_t step = 0);

/// Byte `i` of an i32 word, in its low 8 bits.
inline Value byteOf(KernelBuilder &k, Value word, int64_t i) {
  return i ? arith::ShRUIOp::create(k.b, word, k.c32(8 * i)) : word;
}

/// Where the scales of an operand row are: the byte offset of its scales
/// of K chunk 0 (i64) and that of a K chunk's from them. Plain: row-major
/// [batch x] rows x K/16 (MXFP4: K/32). Blocked (the 128x4 atoms of cuBLAS
/// and tcgen05, lib/Reference/Layout.h): atom (row / 128, K / 64 or K /
/// 128) of 512 bytes, row at (row % 32) * 16 + (row % 128 / 32) * 4 inside
/// it; a K chunk of 64 values is one atom's 4 scale columns (NVFP4) or 2
/// of them (MXFP4), so either way a chunk's scales of a row are contiguous
/// bytes.
struct ScaleRows {
  ScaleLayout layout;
  int64_t rows, kBlocks;
  BlockFormat format = BlockFormat::nvfp4();

  Value rowOffset(KernelBuilder &k, Value batch64, Value row32) const {
    ImplicitLocOpBuilder &b = k.b;
    Value row = arith::ExtUIOp::create(b, k.i64, row32);
    if (layout == ScaleLayout::Plain)
      return arith::MulIOp::create(
          b,
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, batch64, k.c64(rows)), row),
          k.c64(kBlocks));
    const int64_t chunks = llvm::divideCeil(kBlocks, 4);
    const int64_t batchBytes =
        BlockFormat::getRowAtoms(rows) * chunks * BlockFormat::kAtomBytes;
    Value atomRow = arith::MulIOp::create(
        b, arith::DivUIOp::create(b, row, k.c64(128)), k.c64(chunks * 512));
    Value inner = arith::AddIOp::create(
        b,
        arith::MulIOp::create(b, arith::RemUIOp::create(b, row, k.c64(32)),
                              k.c64(16)),
        arith::MulIOp::create(
            b,
            arith::DivUIOp::create(
                b, arith::RemUIOp::create(b, row, k.c64(128)), k.c64(32)),
            k.c64(4)));
    return arith::AddIOp::create(
        b, arith::MulIOp::create(b, batch64, k.c64(batchBytes)),
        arith::AddIOp::create(b, atomRow, inner));
  }
  /// The offset of K chunk `chunk64`'s (i64) scales from chunk 0's.
  Value chunkOffset(KernelBuilder &k, Value chunk64) const {
    ImplicitLocOpBuilder &b = k.b;
    const int64_t perChunk = WgmmaMainloopAttr::kTileK / format.blockSize;
    if (layout == ScaleLayout::Plain)
      return arith::MulIOp::create(b, chunk64, k.c64(perChunk));
    if (!format.isMX())
      return arith::MulIOp::create(b, chunk64, k.c64(BlockFormat::kAtomBytes));
    // Two chunks an atom: atom chunk / 2, columns 2 (chunk % 2) ...
    return arith::AddIOp::create(
        b,
        arith::MulIOp::create(b, arith::ShRUIOp::create(b, chunk64, k.c64(1)),
                              k.c64(BlockFormat::kAtomBytes)),
        arith::MulIOp::create(b, arith::AndIOp::create(b, chunk64, k.c64(1)),
                              k.c64(perChunk)));
  }
  /// The scale code of the 16 values from value 16q of a chunk, from the
  /// chunk's first code: q (NVFP4) or q / 2 (MXFP4).
  Value blockOf(KernelBuilder &k, Value q) const {
    return format.isMX() ? Value(arith::ShRUIOp::create(k.b, q, k.c32(1))) : q;
  }
};

/// Registers of one K chunk of A for the rows a thread decodes: 32 bytes
/// (8 words) and 4 scales (one word) per row.
struct AChunk {
  SmallVector<Value> words;
  SmallVector<Value> scales;
};

/// Loads and decodes K chunks of a tile of A's rows into the layout of the
/// GEMM's shared memory (see the file comment). In the CTA's own decode
/// (load, decode) thread `tid` of `threads` decodes tile rows tid, tid +
/// threads, ...; in the pre-pass's (decodeBlock) `threads` is 8 or 4 per
/// tile row. Rows are clamped to the tile and to M on load.
class ATileDecoder {
public:
  ATileDecoder(KernelBuilder &k, Value a, Value sfa, ScaleLayout sfaLayout,
               Value batch, Value mBase, Value tid, int64_t threads,
               WgmmaMainloopAttr plan)
      : k(k), b(k.b), aBase(k.pointer(a)), sfaBase(k.pointer(sfa)),
        batch(batch), mBase(mBase), tid(tid), threads(threads),
        tileM(plan.getTileM()) {
    OperandShape shape = getOperandShape(cast<MemRefType>(a.getType()));
    m = shape.rows;
    rowBytes = shape.k / 2;
    format = BlockFormat::of(sfa.getType());
    scales = ScaleRows{sfaLayout, m, format.getScaleColumns(shape.k), format};
    rowsPerThread = llvm::divideCeil(tileM, threads);
  }

  /// Rows past `row` (i32) read that row instead (a grouped GEMM's tile
  /// ends with its group); never past A's last.
  void clampRowsTo(Value row) { lastRow = row; }

  /// The CTA's own decode (NVFP4 only: the verifier refuses MXFP4 with
  /// stages = 0).
  AChunk load(Value chunk);
  /// Decodes `chunk` and hands every 16-byte slot to `store` with its byte
  /// offset inside the 128B-swizzled shared-memory tile: row i at i * 128,
  /// slot P at (P ^ i % 8) * 16.
  void decode(const AChunk &chunk,
              function_ref<void(Value vec, Value offset)> store);
  /// The pre-pass's form (nvfp4.decode_a_tile, WgmmaMainloopAttr::
  /// getDecodeThreads(): 8 or 4 threads per tile row): a thread loads and
  /// decodes one or two words (8 values each) of a row of `chunk` and hands
  /// each f16x2 pair (MXFP4: bf16x2, a quarter of the values,
  /// decodeWordPairsMX) to `store` with its byte offset in the unswizzled
  /// tile: pair p (MMA step p / 2, K slots 8 (p % 2) ..) of scale block q
  /// at row * 128 + p * 16 + 4q, so that the threads of a row fill each
  /// 16-byte slot of decode().
  void decodeBlock(Value chunk,
                   function_ref<void(Value pair, Value offset)> store);

private:
  /// Tile row `i` (i32) of A, clamped to M (i32), and the address of its
  /// 32 bytes of values of K chunk `chunk64` (i64).
  struct RowChunk {
    Value row, values;
  };
  RowChunk rowChunk(Value i, Value chunk64);
  /// The address of `row`'s 4 scale bytes of K chunk `chunk64`.
  Value chunkScales(Value row, Value chunk64);

  KernelBuilder &k;
  ImplicitLocOpBuilder &b;
  Value aBase, sfaBase, batch, mBase, tid, lastRow;
  int64_t threads, tileM, m, rowBytes, rowsPerThread;
  BlockFormat format = BlockFormat::nvfp4();
  ScaleRows scales;
};

/// Stores a 16-byte vector at a 32-bit shared-memory address.
void storeShared(KernelBuilder &k, Value vec, Value address);

void fenceAsyncShared(KernelBuilder &k);

/// A thread's place in its warpgroup's wgmma fragments: warp w, fragment
/// row group g, quad lane q (t = tid % 128: w = t / 32, g = t % 32 / 4,
/// q = t % 4).
struct FragmentThread {
  Value w, g, q;

  static FragmentThread get(KernelBuilder &k, Value tid) {
    ImplicitLocOpBuilder &b = k.b;
    Value t = arith::AndIOp::create(b, tid, k.c32(127));
    return {arith::ShRUIOp::create(b, t, k.c32(5)),
            arith::ShRUIOp::create(b, arith::AndIOp::create(b, t, k.c32(31)),
                                   k.c32(2)),
            arith::AndIOp::create(b, t, k.c32(3))};
  }

  /// The thread's first fragment row of a warpgroup's 64 rows from `base`:
  /// base + 16w + g (the second is 8 rows further).
  Value firstRow(KernelBuilder &k, Value base) const {
    ImplicitLocOpBuilder &b = k.b;
    return arith::AddIOp::create(
        b, base,
        arith::AddIOp::create(b, arith::MulIOp::create(b, w, k.c32(16)), g));
  }
};

/// A thread's two rows of B (16w + g and 16w + g + 8 of its warpgroup's 64
/// rows from `row`, clamped to N): the addresses of their bytes 8q and of
/// the scale of their block (NVFP4: q; MXFP4: q / 2), and the loads of one
/// K chunk of them.
struct BRows {
  Value bytes[2], scales[2];
  ScaleRows scaleRows;

  BRows(KernelBuilder &k, Value b, Value sfb, ScaleLayout layout, Value batch64,
        Value row, const FragmentThread &ft) {
    ImplicitLocOpBuilder &bb = k.b;
    OperandShape shape = getOperandShape(cast<MemRefType>(b.getType()));
    BlockFormat format = BlockFormat::of(sfb.getType());
    scaleRows = ScaleRows{layout, shape.rows, format.getScaleColumns(shape.k),
                          format};
    Value first = ft.firstRow(k, row);
    Value q64 = arith::ExtUIOp::create(bb, k.i64, ft.q);
    Value block64 =
        arith::ExtUIOp::create(bb, k.i64, scaleRows.blockOf(k, ft.q));
    Value bBase = k.pointer(b), sfbBase = k.pointer(sfb);
    for (int r = 0; r < 2; ++r) {
      Value rr = arith::MinUIOp::create(
          bb, arith::AddIOp::create(bb, first, k.c32(8 * r)),
          k.c32(shape.rows - 1));
      Value global = arith::AddIOp::create(
          bb, arith::MulIOp::create(bb, batch64, k.c64(shape.rows)),
          arith::ExtUIOp::create(bb, k.i64, rr));
      bytes[r] = k.offset(
          bBase, arith::AddIOp::create(
                     bb, arith::MulIOp::create(bb, global, k.c64(shape.k / 2)),
                     arith::MulIOp::create(bb, q64, k.c64(8))));
      scales[r] = k.offset(
          sfbBase,
          arith::AddIOp::create(bb, scaleRows.rowOffset(k, batch64, rr),
                                block64));
    }
  }

  /// Bytes 32 chunk + 8q of the rows (i64 each) and their scale bytes (i8;
  /// the scale offset is 64-bit: 512 x chunk overflows 32 bits past
  /// K = 2^28).
  void load(KernelBuilder &k, Value chunk, Value outBytes[2],
            Value outScales[2]) const {
    ImplicitLocOpBuilder &b = k.b;
    Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
    Value byteOffset = arith::MulIOp::create(b, chunk64, k.c64(32));
    Value scaleOffset = scaleRows.chunkOffset(k, chunk64);
    for (int r = 0; r < 2; ++r) {
      outBytes[r] = k.load(k.i64, k.offset(bytes[r], byteOffset), 8);
      outScales[r] = k.load(k.i8, k.offset(scales[r], scaleOffset), 1);
    }
  }
};

/// wgmma A fragments of one chunk (4 steps x 4 registers) from a thread's
/// raw bytes (i64 per row) and scale codes (i8 per row): f16 pairs of
/// value x scale x 2^-14, or for MXFP4 bf16 pairs of a quarter of the
/// values (decodeWordPairsMX; one multiply a pair where the warp's codes
/// allow it). All 32 lanes of the warp must run it together (MXFP4 votes).
SmallVector<Value> decodeFragments(KernelBuilder &k, const Value bytes[2],
                                   const Value scales[2],
                                   ScaleFormat format = ScaleFormat::NVFP4);

/// The 4 MMAs of one chunk on the decoded tile of N rows of A at
/// `tileAddress` (fence, MMAs, commit group); bf16 operands for MXFP4.
SmallVector<Value> mmaChunk(KernelBuilder &k, SmallVector<Value> acc,
                            ArrayRef<Value> frags, Value tileAddress,
                            int64_t n,
                            ScaleFormat format = ScaleFormat::NVFP4);

/// Thread t's accumulator i is C[m][n] with n = row + 16w + g + 8 ((i >> 1)
/// & 1), m = mBase + 8 (i >> 2) + 2q + (i & 1) (wgmma's D fragment),
/// converted to the output type and stored unless past M or N.
void storeAccumulators(KernelBuilder &k, ArrayRef<Value> acc,
                       const AccumulatorStore &out, Value mBase, Value row,
                       const FragmentThread &ft);

} // namespace mlir::nvfp4::sm90

#endif // NVFP4_CONVERSION_NVFP4TONVVM_WGMMAFRAGMENTS_H
