//===- GemmSm90.cpp - nvfp4.gemm_tile on Hopper tensor cores (wgmma)
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The sm_90a GEMM CTA. A and B are swapped for the MMA: 64 rows of B (the
// weights) per warpgroup are wgmma's M, `tile_m` rows of A (the
// activations) are its N. Every product e2m1 x e4m3 is exact in f16, so an
// f16 wgmma with fp32 accumulators computes each product exactly.
//
// - B is decoded in registers straight into wgmma's A fragment (the
//   register form of wgmma: no shared memory for the weights). Thread t of
//   a warpgroup (w = t / 32, g = t % 32 / 4, q = t % 4) holds rows 16w + g
//   and 16w + g + 8 of the fragment; at MMA step s its four registers hold
//   the K slots {2q, 2q + 1} and {2q + 8, 2q + 9} of those rows. The K order
//   inside each 64-wide chunk is permuted so that these slots are pairs 2s
//   and 2s + 1 of scale block q, where pair t (0..7) of a block is its
//   values 8 (t / 4) + t % 4 and 8 (t / 4) + t % 4 + 4 (the pairing the
//   decode makes cheapest): over the 4 steps of a chunk, thread q reads the
//   8 contiguous bytes 8q .. 8q + 7 of each of its rows, exactly the 16
//   values of scale block q.
// - A is decoded by the whole CTA into one of two 128B-swizzled shared-
//   memory buffers (wgmma's descriptor operand, K-major) in the same
//   permuted K order: position 16s + k of a row holds real K
//   16 (k % 8 / 2) + 8 (t / 4) + t % 4 + 4 (k % 2), t = 2s + k / 8. Row i's
//   16-byte chunk P sits at byte i * 128 + (P ^ (i % 8)) * 16 (the 128B
//   swizzle), so with s = P / 2, o = P % 2 it holds pair 2s + o of scale
//   blocks q = 0..3.
// - Decode (decodeWordPairs): byte permutes look up the f16 patterns of
//   the e2m1 values (their low bytes are zero) and place them; one logic op
//   merges the signs; one exact f16x2 multiply by the e4m3 scale (converted
//   with cvt.rn.f16x2.e4m3x2) gives value x scale.
// - stages = 0, the K loop: chunk c's MMAs (4 x wgmma m64n<tile_m>k16)
//   run while the CTA decodes chunk c + 1 of A into the other buffer; B is
//   loaded one chunk ahead and A two chunks ahead, in registers.
// - stages > 0, the ring: nvfp4-software-pipeline writes the K loop out
//   (lib/Transforms/SoftwarePipeline.cpp) with the ring ops (Ring.cpp) and
//   the per-thread wgmma ops lowered here: nvfp4.wgmma.load_b (a thread's
//   raw chunk of B from global memory) or read_b (the same from a ring
//   slot, plans with b_tma), decode_b (its fragments), mma (a chunk's 4
//   MMAs on a ring slot), reduce_k_groups and store.
// - Epilogue: thread t's accumulator i is C[m][n] with n = 16w + g +
//   8 ((i >> 1) & 1), m = 8 (i >> 2) + 2q + (i & 1) (wgmma's D fragment),
//   converted to C's type and stored; rows and columns past M and N are
//   loaded clamped and not stored. With split-K (split_k > 1) the CTA takes
//   K chunks [split x chunks / split_k, ...) and stores fp32 to its split's
//   copy of C in `partials` (nvfp4.sum_splits adds them).
// - Scales are read in either layout (ScaleRows): plain, or the blocked
//   128x4 atoms, of which a 64-value K chunk is one column group.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "Fp4Decode.h"
#include "KernelBuilder.h"
#include "Lowerings.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// wgmma.mma_async with A in registers: LLVM 22 has no NVVM op for it
/// (`nvvm.wgmma.mma_async` takes two shared-memory descriptors), so this
/// one helper emits the instruction as inline PTX. Accumulates into `acc`
/// (tile_m / 2 f32 values, tied in and out) the product of the 64 x 16 f16
/// fragment `a` (4 x i32 of f16 pairs) and the 16 x n K-major
/// shared-memory matrix described by `descB`.
SmallVector<Value> wgmmaRegisterA(KernelBuilder &k, ArrayRef<Value> acc,
                                  ArrayRef<Value> a, Value descB, int64_t n) {
  ImplicitLocOpBuilder &b = k.b;
  MLIRContext *ctx = b.getContext();
  const int64_t count = n / 2;
  std::string asmString = "wgmma.mma_async.sync.aligned.m64n" +
                          std::to_string(n) + "k16.f32.f16.f16 {";
  std::string constraints;
  for (int64_t i = 0; i < count; ++i) {
    asmString += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=f,";
  }
  // scale-d is a predicate operand: true (D += A * B), set from the
  // immediate operand after the descriptor.
  asmString = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(count + 5) +
              ", 0;\n" + asmString;
  asmString += "}, {$" + std::to_string(count) + ", $" +
               std::to_string(count + 1) + ", $" + std::to_string(count + 2) +
               ", $" + std::to_string(count + 3) + "}, $" +
               std::to_string(count + 4) + ", p, 1, 1, 0;\n}";
  constraints += "r,r,r,r,l,n";
  for (int64_t i = 0; i < count; ++i)
    constraints += "," + std::to_string(i);
  SmallVector<Value> operands(a.begin(), a.end());
  operands.push_back(descB);
  operands.push_back(LLVM::ConstantOp::create(b, k.i32, 1));
  llvm::append_range(operands, acc);
  SmallVector<Type> fields(count, k.f32);
  auto result = LLVM::InlineAsmOp::create(
      b, LLVM::LLVMStructType::getLiteral(ctx, fields), operands,
      b.getStringAttr(asmString), b.getStringAttr(constraints),
      /*has_side_effects=*/b.getUnitAttr(), /*is_align_stack=*/UnitAttr(),
      LLVM::TailCallKindAttr::get(ctx, LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT), ArrayAttr());
  SmallVector<Value> out;
  for (int64_t i = 0; i < count; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, result.getResult(0), i));
  return out;
}

/// The sm_90 shared-memory matrix descriptor of a K-major, 128B-swizzled
/// operand whose 8-row groups are 1024 bytes apart (PTX ISA, "Matrix
/// Descriptor Format"; CUTLASS's GmmaDescriptor has the same fields): start
/// address >> 4 in bits 0-13, leading byte offset (unused for swizzled
/// K-major layouts: 1) in 16-29, stride byte offset 1024 >> 4 in 32-45,
/// base offset 0 (1024-byte aligned buffers), swizzle mode 1 (128B) in
/// 62-63.
Value sharedDescriptor(KernelBuilder &k, Value smemAddress32) {
  ImplicitLocOpBuilder &b = k.b;
  Value start = arith::ExtUIOp::create(
      b, k.i64,
      arith::ShRUIOp::create(
          b, arith::AndIOp::create(b, smemAddress32, k.c32(0x3FFFF)),
          k.c32(4)));
  constexpr uint64_t kFixed =
      (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(b, start, k.c64(static_cast<int64_t>(kFixed)));
}

/// Byte `i` of an i32 word, in its low 8 bits.
Value byteOf(KernelBuilder &k, Value word, int64_t i) {
  return i ? arith::ShRUIOp::create(k.b, word, k.c32(8 * i)) : word;
}

/// Where the scales of an operand row are: the byte offset of its 4 scales
/// of K chunk 0 (i64) and the distance between consecutive K chunks. Plain:
/// row-major [batch x] rows x K/16. Blocked (the 128x4 atoms of cuBLAS and
/// tcgen05, lib/Reference/Layout.h): atom (row / 128, chunk) of 512 bytes,
/// row at (row % 32) * 16 + (row % 128 / 32) * 4 inside it; a K chunk of 64
/// values is exactly one atom column group (4 scales), so either way a
/// chunk's 4 scales of a row are 4 contiguous bytes.
struct ScaleRows {
  ScaleLayout layout;
  int64_t rows, kBlocks;

  Value rowOffset(KernelBuilder &k, Value batch64, Value row32) const {
    ImplicitLocOpBuilder &b = k.b;
    Value row = arith::ExtUIOp::create(b, k.i64, row32);
    if (layout == ScaleLayout::Plain)
      return arith::MulIOp::create(
          b,
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, batch64, k.c64(rows)), row),
          k.c64(kBlocks));
    const int64_t chunks = kBlocks / 4;
    const int64_t batchBytes = llvm::divideCeil(rows, 128) * chunks * 512;
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
  int64_t chunkStride() const { return layout == ScaleLayout::Plain ? 4 : 512; }
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
    scales = ScaleRows{sfaLayout, m, shape.k / 16};
    rowsPerThread = llvm::divideCeil(tileM, threads);
  }

  AChunk load(Value chunk);
  /// Decodes `chunk` and hands every 16-byte slot to `store` with its byte
  /// offset inside the 128B-swizzled shared-memory tile: row i at i * 128,
  /// slot P at (P ^ i % 8) * 16.
  void decode(const AChunk &chunk,
              function_ref<void(Value vec, Value offset)> store);
  /// The pre-pass's form (nvfp4.decode_a_tile, WgmmaMainloopAttr::
  /// getDecodeThreads(): 8 or 4 threads per tile row): a thread loads and
  /// decodes one or two words (8 values each) of a row of `chunk` and hands
  /// each f16x2 pair to `store` with its byte offset in the unswizzled
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
  Value aBase, sfaBase, batch, mBase, tid;
  int64_t threads, tileM, m, rowBytes, rowsPerThread;
  ScaleRows scales;
};

ATileDecoder::RowChunk ATileDecoder::rowChunk(Value i, Value chunk64) {
  // Rows past M read row M - 1: the GEMM masks them.
  Value row = arith::MinUIOp::create(b, arith::AddIOp::create(b, mBase, i),
                                     k.c32(m - 1));
  Value global =
      arith::AddIOp::create(b, arith::MulIOp::create(b, batch, k.c64(m)),
                            arith::ExtUIOp::create(b, k.i64, row));
  Value values =
      k.offset(aBase, arith::AddIOp::create(
                          b, arith::MulIOp::create(b, global, k.c64(rowBytes)),
                          arith::MulIOp::create(b, chunk64, k.c64(32))));
  return {row, values};
}

Value ATileDecoder::chunkScales(Value row, Value chunk64) {
  return k.offset(sfaBase, arith::AddIOp::create(
                               b, scales.rowOffset(k, batch, row),
                               arith::MulIOp::create(
                                   b, chunk64, k.c64(scales.chunkStride()))));
}

AChunk ATileDecoder::load(Value chunk) {
  AChunk c;
  Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
  for (int64_t r = 0; r < rowsPerThread; ++r) {
    Value i = arith::AddIOp::create(b, tid, k.c32(r * threads));
    RowChunk at =
        rowChunk(arith::MinUIOp::create(b, i, k.c32(tileM - 1)), chunk64);
    for (int h = 0; h < 2; ++h) {
      Value v = k.load(k.v4i32, k.offset(at.values, k.c64(16 * h)), 16);
      for (int e = 0; e < 4; ++e)
        c.words.push_back(k.extract(v, e));
    }
    c.scales.push_back(k.load(k.i32, chunkScales(at.row, chunk64), 4));
  }
  return c;
}

void ATileDecoder::decodeBlock(Value chunk,
                               function_ref<void(Value, Value)> store) {
  // `parts` threads per row (8 or 4), each `words` words (8 values each)
  // of the row's 8: part j holds words j * words ...
  const int64_t parts = threads / tileM, words = 8 / parts;
  assert(threads == parts * tileM && (parts == 4 || parts == 8) &&
         "WgmmaMainloopAttr::getDecodeThreads: 8 or 4 threads per tile row");
  Value i = arith::DivUIOp::create(b, tid, k.c32(parts));
  Value j = arith::RemUIOp::create(b, tid, k.c32(parts));
  Value firstWord = arith::MulIOp::create(b, j, k.c32(words));
  Value q = arith::ShRUIOp::create(b, firstWord, k.c32(1));
  Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
  RowChunk at = rowChunk(i, chunk64);
  // One word as an i32 (a 1-element vector would lose ld.global.nc).
  Type valuesType = words == 1 ? k.i32 : Type(VectorType::get({words}, k.i32));
  Value values = k.load(
      valuesType,
      k.offset(at.values,
               arith::ExtUIOp::create(
                   b, k.i64, arith::MulIOp::create(b, firstWord, k.c32(4)))),
      4 * words);
  // The scale of block q (words 2q and 2q + 1).
  Value code = arith::ExtUIOp::create(
      b, k.i32,
      k.load(k.i8,
             k.offset(chunkScales(at.row, chunk64),
                      arith::ExtUIOp::create(b, k.i64, q)),
             1));
  Value scale = scaleSplat(k, code);
  // Word v = 2q + h gives pairs 4h .. 4h + 3 of block q, element q of
  // 16-byte slots 4h .. 4h + 3 (decode()'s slot p, element qq).
  Value base = arith::AddIOp::create(
      b, arith::MulIOp::create(b, i, k.c32(128)),
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, q, k.c32(4)),
          arith::MulIOp::create(
              b, arith::AndIOp::create(b, firstWord, k.c32(1)), k.c32(64))));
  for (int64_t w = 0; w < words; ++w) {
    SmallVector<Value, 4> pairs =
        decodeWordPairs(k, words == 1 ? values : k.extract(values, w), scale);
    for (int64_t p = 0; p < 4; ++p)
      store(pairs[p], arith::AddIOp::create(b, base, k.c32(64 * w + 16 * p)));
  }
}

void ATileDecoder::decode(const AChunk &chunk,
                          function_ref<void(Value, Value)> store) {
  for (int64_t r = 0; r < rowsPerThread; ++r) {
    Value i = arith::AddIOp::create(b, tid, k.c32(r * threads));
    auto emitRow = [&] {
      SmallVector<Value> scales;
      for (int64_t qq = 0; qq < 4; ++qq)
        scales.push_back(scaleSplat(k, byteOf(k, chunk.scales[r], qq)));
      ArrayRef<Value> words = ArrayRef<Value>(chunk.words).slice(8 * r, 8);
      // Word v holds bytes 4v .. 4v + 3, all of scale block v / 2.
      SmallVector<Value> pairs;
      for (int64_t v = 0; v < 8; ++v)
        llvm::append_range(pairs, decodeWordPairs(k, words[v], scales[v / 2]));
      Value rowOffset = arith::MulIOp::create(b, i, k.c32(128));
      Value rowSwizzle = arith::AndIOp::create(b, i, k.c32(7));
      for (int64_t p = 0; p < 8; ++p) {
        // Slot p holds MMA step s = p / 2, K slots 8 (p % 2) .. + 7: pair
        // 2s + p % 2 of scale blocks q = 0..3 (pairs 8q .. 8q + 7).
        int64_t s = p / 2, o = p % 2;
        Value vec = LLVM::PoisonOp::create(b, k.v4i32);
        for (int64_t qq = 0; qq < 4; ++qq) {
          vec = LLVM::InsertElementOp::create(b, vec, pairs[8 * qq + 2 * s + o],
                                              k.c32(qq));
        }
        Value slot = arith::XOrIOp::create(b, k.c32(p), rowSwizzle);
        store(vec,
              arith::AddIOp::create(b, rowOffset,
                                    arith::MulIOp::create(b, slot, k.c32(16))));
      }
    };
    if ((r + 1) * threads <= tileM) {
      emitRow();
      continue;
    }
    Value inTile =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, i, k.c32(tileM));
    auto ifOp = scf::IfOp::create(b, inTile, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emitRow();
  }
}

/// Stores a 16-byte vector at a 32-bit shared-memory address.
void storeShared(KernelBuilder &k, Value vec, Value address) {
  LLVM::StoreOp::create(k.b, vec,
                        LLVM::IntToPtrOp::create(k.b, k.sharedPtr, address),
                        16);
}

void fenceAsyncShared(KernelBuilder &k) {
  NVVM::FenceProxyOp::create(
      k.b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(k.b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

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
/// their scales of block q, and the loads of one K chunk of them.
struct BRows {
  Value bytes[2], scales[2];
  int64_t scaleChunkStride;

  BRows(KernelBuilder &k, Value b, Value sfb, ScaleLayout layout, Value batch64,
        Value row, const FragmentThread &ft) {
    ImplicitLocOpBuilder &bb = k.b;
    OperandShape shape = getOperandShape(cast<MemRefType>(b.getType()));
    ScaleRows scaleRows{layout, shape.rows, shape.k / 16};
    scaleChunkStride = scaleRows.chunkStride();
    Value first = ft.firstRow(k, row);
    Value q64 = arith::ExtUIOp::create(bb, k.i64, ft.q);
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
          arith::AddIOp::create(bb, scaleRows.rowOffset(k, batch64, rr), q64));
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
    Value scaleOffset =
        arith::MulIOp::create(b, chunk64, k.c64(scaleChunkStride));
    for (int r = 0; r < 2; ++r) {
      outBytes[r] = k.load(k.i64, k.offset(bytes[r], byteOffset), 8);
      outScales[r] = k.load(k.i8, k.offset(scales[r], scaleOffset), 1);
    }
  }
};

/// wgmma A fragments of one chunk (4 steps x 4 registers) from a thread's
/// raw bytes (i64 per row) and scale codes (i8 per row).
SmallVector<Value> decodeFragments(KernelBuilder &k, const Value bytes[2],
                                   const Value scales[2]) {
  ImplicitLocOpBuilder &b = k.b;
  SmallVector<Value> decoded[2];
  for (int r = 0; r < 2; ++r) {
    Value scale = scaleSplat(k, arith::ExtUIOp::create(b, k.i32, scales[r]));
    Value lo = arith::TruncIOp::create(b, k.i32, bytes[r]);
    Value hi = arith::TruncIOp::create(
        b, k.i32, arith::ShRUIOp::create(b, bytes[r], k.c64(32)));
    llvm::append_range(decoded[r], decodeWordPairs(k, lo, scale));
    llvm::append_range(decoded[r], decodeWordPairs(k, hi, scale));
  }
  // decoded[r][t]: pair t of row r's scale block.
  SmallVector<Value> frags;
  for (int64_t s = 0; s < 4; ++s) {
    frags.push_back(decoded[0][2 * s]);     // row g,     K slots 2q, 2q+1
    frags.push_back(decoded[1][2 * s]);     // row g + 8, K slots 2q, 2q+1
    frags.push_back(decoded[0][2 * s + 1]); // row g,     K slots 2q+8, 2q+9
    frags.push_back(decoded[1][2 * s + 1]); // row g + 8, K slots 2q+8, 2q+9
  }
  return frags;
}

/// The 4 MMAs of one chunk on the decoded tile of N rows of A at
/// `tileAddress` (fence, MMAs, commit group).
SmallVector<Value> mmaChunk(KernelBuilder &k, SmallVector<Value> acc,
                            ArrayRef<Value> frags, Value tileAddress,
                            int64_t n) {
  ImplicitLocOpBuilder &b = k.b;
  NVVM::WgmmaFenceAlignedOp::create(b);
  for (int64_t s = 0; s < 4; ++s) {
    // Step s: K halves 16s .. 16s + 15 of every row, 32 bytes into the
    // swizzle atom (the hardware swizzles the absolute address).
    Value desc = sharedDescriptor(
        k, arith::AddIOp::create(b, tileAddress, k.c32(32 * s)));
    acc = wgmmaRegisterA(k, acc, frags.slice(4 * s, 4), desc, n);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  return acc;
}

/// Thread t's accumulator i is C[m][n] with n = row + 16w + g + 8 ((i >> 1)
/// & 1), m = mBase + 8 (i >> 2) + 2q + (i & 1) (wgmma's D fragment),
/// converted to the output type and stored unless past M or N.
void storeAccumulators(KernelBuilder &k, ArrayRef<Value> acc,
                       const AccumulatorStore &out, Value mBase, Value row,
                       const FragmentThread &ft) {
  ImplicitLocOpBuilder &b = k.b;
  Value row0 = arith::AddIOp::create(
      b, row,
      arith::AddIOp::create(b, arith::MulIOp::create(b, ft.w, k.c32(16)),
                            ft.g));
  Value col0 =
      arith::AddIOp::create(b, mBase, arith::MulIOp::create(b, ft.q, k.c32(2)));
  for (auto [i, value] : llvm::enumerate(acc)) {
    int64_t idx = static_cast<int64_t>(i);
    Value nIdx = arith::AddIOp::create(b, row0, k.c32(8 * ((idx >> 1) & 1)));
    Value mIdx =
        arith::AddIOp::create(b, col0, k.c32(8 * (idx >> 2) + (idx & 1)));
    storeElement(k, out, value, mIdx, nIdx);
  }
}

/// The CTA of a plan without a ring (stages = 0): it decodes A itself into
/// two static shared-memory buffers, decode of chunk c + 1 overlapping the
/// MMAs of chunk c. (Plans with a ring are written out by
/// nvfp4-software-pipeline and lowered op by op below.)
class GemmSm90Emitter {
public:
  GemmSm90Emitter(GemmTileOp op, ImplicitLocOpBuilder &b)
      : op(op), b(b), k(b), plan(op.getWgmmaMainloop()) {
    OperandShape a = getOperandShape(op.getA().getType());
    m = a.rows;
    n = getOperandShape(op.getB().getType()).rows;
    tileM = plan.getTileM();
    threads = plan.getThreadsPerCta();
    chunks = a.k / WgmmaMainloopAttr::kTileK;
  }

  LogicalResult emit(RewriterBase &rewriter);

private:
  /// Registers of one K chunk of B for this thread.
  struct BChunk {
    Value bytes[2]; // i64
    Value scales[2]; // i8
  };

  BChunk loadB(Value chunk) {
    BChunk c;
    bRows->load(k, chunk, c.bytes, c.scales);
    return c;
  }
  SmallVector<Value> emitDecodingLoop(RewriterBase &rewriter);
  Value clampChunk(Value c) {
    return arith::MinUIOp::create(b, c, k.c32(chunks - 1));
  }

  GemmTileOp op;
  ImplicitLocOpBuilder &b;
  KernelBuilder k;
  WgmmaMainloopAttr plan;
  int64_t m, n, tileM, threads, chunks;
  Value tid, batch, mBase;
  std::optional<BRows> bRows;
};

SmallVector<Value> GemmSm90Emitter::emitDecodingLoop(RewriterBase &rewriter) {
  // Two buffers of tile_m decoded rows (128 bytes per row per chunk),
  // 1024-byte aligned: the 128B swizzle works on absolute addresses.
  Value smem =
      k.sharedBuffer(rewriter, op, "__nvfp4_gemm_a",
                     plan.getSharedBytes(/*scratch=*/0), /*alignment=*/1024);
  Value smemAddress = LLVM::PtrToIntOp::create(b, k.i32, smem);
  auto bufferAddress = [&](Value chunk) -> Value {
    Value parity = arith::AndIOp::create(b, chunk, k.c32(1));
    return arith::AddIOp::create(
        b, smemAddress,
        arith::MulIOp::create(b, parity, k.c32(plan.getATileBytes())));
  };
  ATileDecoder decoder(k, op.getA(), op.getSfa(), op.getSfaLayout(), batch,
                       mBase, tid, threads, plan);
  auto storeA = [&](const AChunk &chunk, Value buffer) {
    decoder.decode(chunk, [&](Value vec, Value offset) {
      storeShared(k, vec, arith::AddIOp::create(b, buffer, offset));
    });
  };

  // Prologue: B's chunk 0, A's chunks 0 and 1; chunk 0 of A decoded.
  BChunk b0 = loadB(k.c32(0));
  AChunk a0 = decoder.load(k.c32(0));
  AChunk a1 = decoder.load(clampChunk(k.c32(1)));
  storeA(a0, bufferAddress(k.c32(0)));
  fenceAsyncShared(k);
  gpu::BarrierOp::create(b);

  // Loop-carried: the accumulators, B's chunk c, A's chunk c + 1.
  const int64_t accCount = tileM / 2;
  const int64_t aWords = a1.words.size();
  SmallVector<Value> init(accCount, k.cf32(0.0f));
  auto pack = [&](const BChunk &bc, const AChunk &ac) {
    SmallVector<Value> v = {bc.bytes[0], bc.bytes[1], bc.scales[0],
                            bc.scales[1]};
    llvm::append_range(v, ac.words);
    llvm::append_range(v, ac.scales);
    return v;
  };
  llvm::append_range(init, pack(b0, a1));
  auto loop = scf::ForOp::create(b, k.c32(0), k.c32(chunks), k.c32(1), init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value c = loop.getInductionVar();
  auto args = loop.getRegionIterArgs();
  SmallVector<Value> acc(args.begin(), args.begin() + accCount);
  auto rest = args.drop_front(accCount);
  BChunk bc{{rest[0], rest[1]}, {rest[2], rest[3]}};
  AChunk ac;
  ac.words.assign(rest.begin() + 4, rest.begin() + 4 + aWords);
  ac.scales.assign(rest.begin() + 4 + aWords, rest.end());
  Value next = arith::AddIOp::create(b, c, k.c32(1));
  // Loads of B's chunk c + 1 and A's chunk c + 2.
  BChunk bNext = loadB(clampChunk(next));
  AChunk aNext =
      decoder.load(clampChunk(arith::AddIOp::create(b, c, k.c32(2))));
  // Chunk c's MMAs, then A's chunk c + 1 into the other buffer while they
  // run; both buffers are free again after the wait and the barrier.
  acc = mmaChunk(k, acc, decodeFragments(k, bc.bytes, bc.scales),
                 bufferAddress(c), tileM);
  storeA(ac, bufferAddress(next));
  fenceAsyncShared(k);
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
  gpu::BarrierOp::create(b);
  SmallVector<Value> yield(acc);
  llvm::append_range(yield, pack(bNext, aNext));
  scf::YieldOp::create(b, yield);
  return SmallVector<Value>(loop.getResults().take_front(accCount));
}

LogicalResult GemmSm90Emitter::emit(RewriterBase &rewriter) {
  if (!op->getParentOfType<gpu::GPUModuleOp>())
    return op.emitOpError() << "must be inside a gpu.module (its shared "
                               "memory is a module global); run nvfp4-tile";
  tid = k.threadIdX();
  Value warpgroup = arith::ShRUIOp::create(b, tid, k.c32(7));
  FragmentThread ft = FragmentThread::get(k, tid);
  batch = arith::IndexCastUIOp::create(b, k.i64, op.getBatch());
  mBase = arith::IndexCastUIOp::create(b, k.i32, op.getMBase());
  Value row = arith::AddIOp::create(
      b, arith::IndexCastUIOp::create(b, k.i32, op.getNBase()),
      arith::MulIOp::create(b, warpgroup, k.c32(64)));
  bRows.emplace(k, op.getB(), op.getSfb(), op.getSfbLayout(), batch, row, ft);
  SmallVector<Value> acc = emitDecodingLoop(rewriter);
  AccumulatorStore out =
      accumulatorStore(k, op.getC(), Value(), op.getBatch(), Value());
  out.maskM = m % tileM != 0;
  out.maskN = n % plan.getTileN() != 0;
  storeAccumulators(k, acc, out, mBase, row, ft);
  return success();
}

struct DecodeATileLowering : OpRewritePattern<DecodeATileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DecodeATileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    WgmmaMainloopAttr plan = op.getPlan();
    OperandShape a = getOperandShape(op.getA().getType());
    Value tid = k.threadIdX();
    Value batch = arith::IndexCastUIOp::create(b, k.i64, op.getBatch());
    Value mBase = arith::IndexCastUIOp::create(b, k.i32, op.getMBase());
    Value chunk = arith::IndexCastUIOp::create(b, k.i32, op.getChunk());
    ATileDecoder decoder(k, op.getA(), op.getSfa(), op.getSfaLayout(), batch,
                         mBase, tid, plan.getDecodeThreads(), plan);
    Value row =
        buildATileRow(b, plan, llvm::divideCeil(a.rows, plan.getTileM()),
                      a.k / WgmmaMainloopAttr::kTileK,
                      arith::TruncIOp::create(b, k.i32, batch), mBase, chunk);
    Value tile =
        k.offset(k.pointer(op.getTiles()),
                 arith::MulIOp::create(b, arith::ExtUIOp::create(b, k.i64, row),
                                       k.c64(kATileRowBytes)));
    decoder.decodeBlock(chunk, [&](Value pair, Value offset) {
      LLVM::StoreOp::create(
          b, pair, k.offset(tile, arith::ExtUIOp::create(b, k.i64, offset)), 4);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct GemmTileSm90Lowering : OpRewritePattern<GemmTileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GemmTileOp op,
                                PatternRewriter &rewriter) const override {
    WgmmaMainloopAttr plan = op.getWgmmaMainloop();
    if (!plan || plan.getStages() > 0)
      return op.emitOpError()
             << "has a ring (stages = "
             << (plan ? plan.getStages() : op.getTcgen05Mainloop().getStages())
             << "): run nvfp4-software-pipeline before the conversion";
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    GemmSm90Emitter emitter(op, b);
    if (failed(emitter.emit(rewriter)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pipeline's wgmma consumer ops (nvfp4-software-pipeline)
//===----------------------------------------------------------------------===//

struct WgmmaLoadBLowering : OpConversionPattern<WgmmaLoadBOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaLoadBOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    FragmentThread ft = FragmentThread::get(k, k.threadIdX());
    BRows rows(k, op.getB(), op.getSfb(), op.getSfbLayout(),
               arith::IndexCastUIOp::create(b, k.i64, op.getBatch()),
               op.getRow(), ft);
    Value bytes[2], scales[2];
    rows.load(k, op.getChunk(), bytes, scales);
    rewriter.replaceOp(op, {bytes[0], bytes[1], scales[0], scales[1]});
    return success();
  }
};

struct WgmmaReadBLowering : OpConversionPattern<WgmmaReadBOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaReadBOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    FragmentThread ft = FragmentThread::get(k, k.threadIdX());
    Value slot = ringSlotAddress(k, op.getRing().getType(), adaptor.getRing(),
                                 adaptor.getSlot());
    Value bBase = arith::AddIOp::create(b, slot, k.c32(op.getBOffset()));
    Value sfbBase = arith::AddIOp::create(b, slot, k.c32(op.getSfbOffset()));
    Value first = ft.firstRow(k, adaptor.getRow());
    auto sharedAt = [&](Value address) {
      return LLVM::IntToPtrOp::create(b, k.sharedPtr, address);
    };
    Value bytes[2], scales[2];
    for (int r = 0; r < 2; ++r) {
      Value row = arith::AddIOp::create(b, first, k.c32(8 * r));
      // Row r's 32 bytes, this thread's 8 of them (conflict-free: a warp
      // reads 8 consecutive rows, 256 contiguous bytes).
      Value byteAddress = arith::AddIOp::create(
          b, bBase,
          arith::AddIOp::create(b, arith::MulIOp::create(b, row, k.c32(32)),
                                arith::MulIOp::create(b, ft.q, k.c32(8))));
      bytes[r] = k.load(k.i64, sharedAt(byteAddress), 8, /*invariant=*/false);
      // The scale code: word sfb_word of 16 bytes a row (plain), or in the
      // 128 x 4 atom
      // (blocked): row i of the atom at (i % 32) x 16 + (i / 32) x 4.
      Value scaleOffset;
      if (op.getSfbLayout() == ScaleLayout::Blocked) {
        Value atomRow = arith::AddIOp::create(b, row, adaptor.getAtomRow());
        scaleOffset = arith::AddIOp::create(
            b,
            arith::MulIOp::create(
                b, arith::AndIOp::create(b, atomRow, k.c32(31)), k.c32(16)),
            arith::MulIOp::create(
                b, arith::ShRUIOp::create(b, atomRow, k.c32(5)), k.c32(4)));
      } else {
        scaleOffset = arith::AddIOp::create(
            b, arith::MulIOp::create(b, row, k.c32(16)),
            arith::MulIOp::create(b, adaptor.getSfbWord(), k.c32(4)));
      }
      Value scaleAddress = arith::AddIOp::create(
          b, sfbBase, arith::AddIOp::create(b, scaleOffset, ft.q));
      scales[r] = k.load(k.i8, sharedAt(scaleAddress), 1, /*invariant=*/false);
    }
    rewriter.replaceOp(op, {bytes[0], bytes[1], scales[0], scales[1]});
    return success();
  }
};

struct WgmmaDecodeBLowering : OpConversionPattern<WgmmaDecodeBOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaDecodeBOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Value bytes[2] = {adaptor.getBytes0(), adaptor.getBytes1()};
    Value scales[2] = {adaptor.getScale0(), adaptor.getScale1()};
    rewriter.replaceOp(op, k.pack(op.getFragments().getType(),
                                  decodeFragments(k, bytes, scales)));
    return success();
  }
};

struct WgmmaMmaLowering : OpConversionPattern<WgmmaMmaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Value tile = ringSlotAddress(k, op.getRing().getType(), adaptor.getRing(),
                                 adaptor.getSlot());
    VectorType accType = op.getAcc().getType();
    SmallVector<Value> acc =
        mmaChunk(k, k.unpack(adaptor.getAcc()), k.unpack(adaptor.getFragments()),
                 tile, 2 * accType.getNumElements());
    rewriter.replaceOp(op, k.pack(accType, acc));
    return success();
  }
};

/// The named barrier of the K groups' reduction (0 is the CTA's).
constexpr int64_t kReductionBarrier = 1;

struct WgmmaReduceKGroupsLowering : OpConversionPattern<WgmmaReduceKGroupsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaReduceKGroupsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    const int64_t groupThreads = op.getWarpgroups() * 128;
    SmallVector<Value> acc = k.unpack(adaptor.getAcc());
    const int64_t accCount = acc.size();
    Value tid = k.threadIdX();
    Value kGroup = arith::DivUIOp::create(b, tid, k.c32(groupThreads));
    Value t = arith::RemUIOp::create(b, tid, k.c32(groupThreads));
    // Groups 1.. hand their sums to group 0 through the ring's memory
    // (every copy has landed and every MMA that read it is complete once
    // all threads pass this barrier): element i of thread t of group g at
    // ((g - 1) * accCount + i) * T + t floats, T threads per group, so a
    // warp's stores and loads are contiguous. The barrier counts the K
    // groups' threads only (named barrier 1): a producer warpgroup, if the
    // CTA has one, does not take part.
    auto groupsBarrier = [&] {
      NVVM::BarrierOp::create(
          b, Type(), k.c32(kReductionBarrier),
          k.c32(op.getGroups() * groupThreads), NVVM::BarrierReductionAttr(),
          Value());
    };
    groupsBarrier();
    auto partial = [&](Value group, int64_t i) -> Value {
      Value index = arith::AddIOp::create(
          b,
          arith::MulIOp::create(
              b,
              arith::AddIOp::create(
                  b, arith::MulIOp::create(b, group, k.c32(accCount)),
                  k.c32(i)),
              k.c32(groupThreads)),
          t);
      Value address = arith::AddIOp::create(
          b, adaptor.getRing(), arith::MulIOp::create(b, index, k.c32(4)));
      return LLVM::IntToPtrOp::create(b, k.sharedPtr, address);
    };
    Value isLater =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, kGroup, k.c32(0));
    {
      auto ifOp = scf::IfOp::create(b, isLater, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value group = arith::SubIOp::create(b, kGroup, k.c32(1));
      for (int64_t i = 0; i < accCount; ++i)
        LLVM::StoreOp::create(b, acc[i], partial(group, i), 4);
    }
    groupsBarrier();
    for (int64_t gi = 1; gi < static_cast<int64_t>(op.getGroups()); ++gi)
      for (int64_t i = 0; i < accCount; ++i)
        acc[i] = arith::AddFOp::create(
            b, acc[i],
            LLVM::LoadOp::create(b, k.f32, partial(k.c32(gi - 1), i), 4));
    rewriter.replaceOp(op, k.pack(op.getAcc().getType(), acc));
    return success();
  }
};

struct WgmmaStoreLowering : OpConversionPattern<WgmmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    AccumulatorStore out = accumulatorStore(k, op.getC(), op.getPartials(),
                                            op.getBatch(), op.getSplit());
    // The tile's columns start at a multiple of its N (m is), so only a
    // ragged M needs masks; rows are masked unless N is a multiple of 64
    // (the op requires row < N: its warpgroup's rows then all exist).
    const int64_t tileM = 2 * op.getAcc().getType().getNumElements();
    out.maskM = out.m % tileM != 0;
    out.maskN = out.n % 64 != 0;
    SmallVector<Value> acc = k.unpack(adaptor.getAcc());
    FragmentThread ft = FragmentThread::get(k, k.threadIdX());
    if (!op.getStaging()) {
      storeAccumulators(k, acc, out, op.getM(), op.getRow(), ft);
      rewriter.eraseOp(op);
      return success();
    }
    // Staged (the verifier checked the shape): 16-byte stores need C's base
    // plus the tile's first column 16-byte aligned, which C's type and the
    // op's `row` do not promise; otherwise the fragment's own stores.
    Value address = arith::AddIOp::create(
        b, LLVM::PtrToIntOp::create(b, k.i64, out.base),
        arith::ExtUIOp::create(
            b, k.i64, arith::MulIOp::create(b, op.getRow(), k.c32(out.bytes))));
    Value aligned = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, address, k.c64(15)), k.c64(0));
    auto ifOp = scf::IfOp::create(b, aligned, /*withElseRegion=*/true);
    b.setInsertionPointToStart(ifOp.thenBlock());
    storeStaged(k, op, adaptor.getStaging(), acc, out, ft);
    b.setInsertionPointToStart(ifOp.elseBlock());
    storeAccumulators(k, acc, out, op.getM(), op.getRow(), ft);
    rewriter.eraseOp(op);
    return success();
  }

  /// wgmma.store `staged`: the warpgroup's fragments into its tile in the
  /// ring (row i of C's tile at i x stride, stride = 64 x bytes + 16: the
  /// four rows 2q + e a warp's store touches fall 8 banks apart), its named
  /// barrier, then each thread 16 bytes of a row, 8 (f16, bf16) or 16 (f32)
  /// threads a row: every warp instruction writes whole 128-byte lines.
  static void storeStaged(KernelBuilder &k, WgmmaStoreOp op, Value ringBase,
                          ArrayRef<Value> acc, const AccumulatorStore &out,
                          const FragmentThread &ft) {
    ImplicitLocOpBuilder &b = k.b;
    const int64_t tileM = 2 * static_cast<int64_t>(acc.size());
    const int64_t bytes = out.bytes;
    const int64_t stride = 64 * bytes + 16;
    Value tid = k.threadIdX();
    // The storing threads are the first 128 x `warpgroups` of the CTA; the
    // remainder keeps any other thread inside the verified area.
    Value warpgroup = b.createOrFold<arith::RemUIOp>(
        arith::ShRUIOp::create(b, tid, k.c32(7)), k.c32(*op.getWarpgroups()));
    Value tile = arith::AddIOp::create(
        b, ringBase,
        arith::AddIOp::create(
            b, k.c32(*op.getStagingOffset()),
            arith::MulIOp::create(
                b, warpgroup,
                k.c32(WgmmaStoreOp::getStagedTileBytes(acc.size(), bytes)))));
    auto sharedAt = [&](Value a) {
      return LLVM::IntToPtrOp::create(b, k.sharedPtr, a);
    };
    // Accumulator i is C[8 (i / 4) + 2q + i % 2][16w + g + 8 ((i / 2) % 2)]
    // of the warpgroup's tile (storeAccumulators).
    Value column0 = arith::AddIOp::create(
        b, arith::MulIOp::create(b, ft.w, k.c32(16)), ft.g);
    Value row0 = arith::MulIOp::create(b, ft.q, k.c32(2));
    for (auto [i, value] : llvm::enumerate(acc)) {
      int64_t idx = static_cast<int64_t>(i);
      Value row =
          arith::AddIOp::create(b, row0, k.c32(8 * (idx >> 2) + (idx & 1)));
      Value column =
          arith::AddIOp::create(b, column0, k.c32(8 * ((idx >> 1) & 1)));
      Value at = arith::AddIOp::create(
          b, tile,
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, row, k.c32(stride)),
              arith::MulIOp::create(b, column, k.c32(bytes))));
      Value converted = out.type.isF32()
                            ? value
                            : arith::TruncFOp::create(b, out.type, value);
      LLVM::StoreOp::create(b, converted, sharedAt(at), bytes);
    }
    NVVM::BarrierOp::create(b, Type(),
                            arith::AddIOp::create(b, warpgroup, k.c32(2)),
                            k.c32(128), NVVM::BarrierReductionAttr(), Value());
    const int64_t perRow = 64 * bytes / 16;
    const int64_t rowsPerPass = 128 / perRow;
    Value t = arith::AndIOp::create(b, tid, k.c32(127));
    Value piece = arith::RemUIOp::create(b, t, k.c32(perRow));
    Value firstRow = arith::DivUIOp::create(b, t, k.c32(perRow));
    Value rowBase64 = arith::AddIOp::create(
        b, arith::MulIOp::create(b, out.batch64, k.c64(out.m)),
        arith::ExtUIOp::create(b, k.i64, op.getM()));
    Value column64 = arith::ExtUIOp::create(
        b, k.i64,
        arith::AddIOp::create(
            b, arith::MulIOp::create(b, op.getRow(), k.c32(bytes)),
            arith::MulIOp::create(b, piece, k.c32(16))));
    // A tile of fewer rows than a whole number of passes (8 mod 16 rows in
    // f16 or bf16): its last pass stores only the rows that exist.
    const int64_t passes = llvm::divideCeil(tileM, rowsPerPass);
    for (int64_t p = 0; p < passes; ++p) {
      Value row = arith::AddIOp::create(b, firstRow, k.c32(p * rowsPerPass));
      std::optional<OpBuilder::InsertionGuard> partial;
      if ((p + 1) * rowsPerPass > tileM) {
        partial.emplace(b);
        auto ifOp = scf::IfOp::create(
            b,
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row,
                                  k.c32(tileM)),
            /*withElseRegion=*/false);
        b.setInsertionPointToStart(ifOp.thenBlock());
      }
      Value vec =
          k.load(k.v4i32,
                 sharedAt(arith::AddIOp::create(
                     b, tile,
                     arith::AddIOp::create(
                         b, arith::MulIOp::create(b, row, k.c32(stride)),
                         arith::MulIOp::create(b, piece, k.c32(16))))),
                 16, /*invariant=*/false);
      Value global = arith::AddIOp::create(
          b,
          arith::MulIOp::create(
              b,
              arith::AddIOp::create(b, rowBase64,
                                    arith::ExtUIOp::create(b, k.i64, row)),
              k.c64(out.n * bytes)),
          column64);
      LLVM::StoreOp::create(b, vec, k.offset(out.base, global), 16);
    }
  }
};

} // namespace

void mlir::nvfp4::populateGemmSm90Patterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<GemmTileSm90Lowering, DecodeATileLowering>(
      patterns.getContext());
  patterns
      .add<WgmmaLoadBLowering, WgmmaReadBLowering, WgmmaDecodeBLowering,
           WgmmaMmaLowering, WgmmaReduceKGroupsLowering, WgmmaStoreLowering>(
          converter, patterns.getContext());
}
