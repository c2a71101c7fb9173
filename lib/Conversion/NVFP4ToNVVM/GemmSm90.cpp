//===- GemmSm90.cpp - nvfp4.gemm_tile on Hopper tensor cores (wgmma)
//-------===//
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
// - stages > 0, the ring (emitRingLoop): A's tiles, decoded once by the
//   pre-pass, stream by cp.async.bulk into `stages` slots with a full and an
//   empty mbarrier each; k_split K groups of warpgroups take chunks g,
//   g + k_split, ...; a round issues its MMAs, waits with wait_group 1
//   (the previous round complete), releases the previous round's slot (its
//   group's first warpgroup refills it) and decodes the next fragments of
//   B, loaded b_prefetch rounds ahead; the loop is unrolled by two (two
//   fragment sets, so ptxas does not serialize the wgmmas). docs/design.md
//   says why each piece is there.
// - Epilogue: thread t's accumulator i is C[m][n] with n = 16w + g +
//   8 ((i >> 1) & 1), m = 8 (i >> 2) + 2q + (i & 1) (wgmma's D fragment),
//   converted to C's type and stored; rows and columns past M and N are
//   loaded clamped and not stored. With split-K (split_k > 1) the CTA takes
//   K chunks [split x chunks / split_k, ...) and stores fp32 to its split's
//   copy of C in `partials` (nvfp4.sum_splits adds them).
// - Scales are read in either layout (ScaleRows): plain, or the blocked
//   128x4 atoms, of which a 64-value K chunk is one column group.
// - The ring's first copy of A waits for the pre-pass (griddepcontrol.wait,
//   after B's first loads), so a programmatic dependent launch overlaps the
//   GEMM's start with the pre-pass.
//
//===----------------------------------------------------------------------===//

#include "Fp4Decode.h"
#include "KernelBuilder.h"
#include "Lowerings.h"

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
/// GEMM's shared memory (see the file comment). Thread `tid` of `threads`
/// decodes tile rows tid, tid + threads, ...; rows are clamped to the tile
/// and to M on load.
class ATileDecoder {
public:
  ATileDecoder(KernelBuilder &k, Value a, Value sfa, ScaleLayout sfaLayout,
               Value batch, Value mBase, Value tid, int64_t threads,
               GemmPlanAttr plan)
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
  /// offset inside the tile (row i at i * 128, slot P at (P ^ i % 8) * 16).
  void decode(const AChunk &chunk,
              function_ref<void(Value vec, Value offset)> store);

private:
  KernelBuilder &k;
  ImplicitLocOpBuilder &b;
  Value aBase, sfaBase, batch, mBase, tid;
  int64_t threads, tileM, m, rowBytes, rowsPerThread;
  ScaleRows scales;
};

AChunk ATileDecoder::load(Value chunk) {
  AChunk c;
  Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
  for (int64_t r = 0; r < rowsPerThread; ++r) {
    Value i = arith::AddIOp::create(b, tid, k.c32(r * threads));
    i = arith::MinUIOp::create(b, i, k.c32(tileM - 1));
    Value row = arith::MinUIOp::create(b, arith::AddIOp::create(b, mBase, i),
                                       k.c32(m - 1));
    Value global =
        arith::AddIOp::create(b, arith::MulIOp::create(b, batch, k.c64(m)),
                              arith::ExtUIOp::create(b, k.i64, row));
    Value base = k.offset(
        aBase, arith::AddIOp::create(
                   b, arith::MulIOp::create(b, global, k.c64(rowBytes)),
                   arith::MulIOp::create(b, chunk64, k.c64(32))));
    for (int h = 0; h < 2; ++h) {
      Value v = k.load(k.v4i32, k.offset(base, k.c64(16 * h)), 16);
      for (int e = 0; e < 4; ++e)
        c.words.push_back(k.extract(v, e));
    }
    Value scaleAddress = k.offset(
        sfaBase,
        arith::AddIOp::create(
            b, scales.rowOffset(k, batch, row),
            arith::MulIOp::create(b, chunk64, k.c64(scales.chunkStride()))));
    c.scales.push_back(k.load(k.i32, scaleAddress, 4));
  }
  return c;
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
      Value swizzle = arith::AndIOp::create(b, i, k.c32(7));
      for (int64_t p = 0; p < 8; ++p) {
        // Slot p holds MMA step s = p / 2, K slots 8 (p % 2) .. + 7: pair
        // 2s + p % 2 of scale blocks q = 0..3 (pairs 8q .. 8q + 7).
        int64_t s = p / 2, o = p % 2;
        Value vec = LLVM::PoisonOp::create(b, k.v4i32);
        for (int64_t qq = 0; qq < 4; ++qq) {
          vec = LLVM::InsertElementOp::create(b, vec, pairs[8 * qq + 2 * s + o],
                                              k.c32(qq));
        }
        Value slot = arith::XOrIOp::create(b, k.c32(p), swizzle);
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
  auto smemPtr = LLVM::LLVMPointerType::get(k.b.getContext(), /*shared*/ 3);
  LLVM::StoreOp::create(k.b, vec,
                        LLVM::IntToPtrOp::create(k.b, smemPtr, address), 16);
}

void fenceAsyncShared(KernelBuilder &k) {
  NVVM::FenceProxyOp::create(
      k.b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(k.b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

/// The byte offset of decoded tile (batch, m tile, chunk) in the pre-pass
/// workspace, as an i64.
Value aTileOffset(KernelBuilder &k, GemmPlanAttr plan, int64_t mTiles,
                  int64_t chunks, Value batch64, Value mBase32, Value chunk32) {
  ImplicitLocOpBuilder &b = k.b;
  Value mTile = arith::ExtUIOp::create(
      b, k.i64, arith::DivUIOp::create(b, mBase32, k.c32(plan.getTileM())));
  Value tile = arith::AddIOp::create(
      b,
      arith::MulIOp::create(
          b,
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, batch64, k.c64(mTiles)), mTile),
          k.c64(chunks)),
      arith::ExtUIOp::create(b, k.i64, chunk32));
  return arith::MulIOp::create(b, tile, k.c64(plan.getATileBytes()));
}

class GemmSm90Emitter {
public:
  GemmSm90Emitter(GemmTileOp op, ImplicitLocOpBuilder &b)
      : op(op), b(b), k(b), plan(op.getPlan()) {
    OperandShape a = getOperandShape(op.getA().getType());
    m = a.rows;
    kDim = a.k;
    n = getOperandShape(op.getB().getType()).rows;
    tileM = plan.getTileM();
    threads = plan.getThreadsPerCta();
    // With split-K, this CTA's share of the chunks (from chunkBase on).
    totalChunks = kDim / GemmPlanAttr::kTileK;
    chunks = totalChunks / plan.getSplitK();
    rowBytes = kDim / 2;
    sfbRows = ScaleRows{op.getSfbLayout(), n, kDim / 16};
    outType = op.getC().getType().getElementType();
    outBytes = outType.getIntOrFloatBitWidth() / 8;
  }

  LogicalResult emit(RewriterBase &rewriter);

private:
  /// Registers of one K chunk of B for this thread: 8 bytes of each of its
  /// two rows and their scales.
  struct BChunk {
    Value bytes[2]; // i64
    Value scale[2]; // i8
  };

  BChunk loadB(Value chunk);
  /// wgmma A fragments of one chunk: 4 steps x 4 registers.
  SmallVector<Value> fragments(const BChunk &chunk);
  /// The 4 MMAs of one chunk on the decoded A tile at `tileAddress`.
  SmallVector<Value> mmaChunk(SmallVector<Value> acc, ArrayRef<Value> frags,
                              Value tileAddress);
  void epilogue(ArrayRef<Value> acc);
  /// stages = 0: the CTA decodes A into two static buffers.
  SmallVector<Value> emitDecodingLoop(RewriterBase &rewriter);
  /// stages > 0: A's decoded tiles stream through a ring of bulk copies.
  SmallVector<Value> emitRingLoop(RewriterBase &rewriter);
  using SlotFn = function_ref<Value(Value)>;
  /// Fills a slot with a chunk's tile (chunk, slot).
  using CopyFn = function_ref<void(Value, Value)>;
  /// The MMA loop of a warpgroup; returns its accumulators.
  SmallVector<Value> emitRingMainLoop(SlotFn slotAddress, SlotFn full,
                                      SlotFn empty, CopyFn issueCopy,
                                      function_ref<void()> startRing);

  Value clampChunk(Value c) {
    return arith::MinUIOp::create(b, c, k.c32(chunks - 1));
  }
  /// K chunk `c` of this CTA's split in the whole K.
  Value globalChunk(Value c) {
    return chunkBase ? arith::AddIOp::create(b, c, chunkBase) : c;
  }

  GemmTileOp op;
  ImplicitLocOpBuilder &b;
  KernelBuilder k;
  GemmPlanAttr plan;
  int64_t m, n, kDim, tileM, threads, chunks, totalChunks, rowBytes, outBytes;
  /// How B's scales are laid out.
  ScaleRows sfbRows;
  /// The first K chunk of this CTA's split (i32; null without split-K).
  Value chunkBase;
  /// The epilogue's batch index into its output: the batch, or with
  /// split-K split * batches + batch of the partials (i64).
  Value outBatch;
  Type outType;

  /// warpgroup: this thread's 64-row tile of B in the CTA; kGroup: its
  /// share of K (k_split).
  Value tid, warpgroup, kGroup, w, g, q, batch;
  /// The addresses of bytes 8q and of scale byte q of this thread's two
  /// rows of B (clamped to N).
  Value bRowBase[2], sfbRowBase[2];
  Value bBase, sfbBase, cBase;
  Value mBase, nBase;
};

GemmSm90Emitter::BChunk GemmSm90Emitter::loadB(Value chunk) {
  BChunk c;
  chunk = globalChunk(chunk);
  // Bytes 32 chunk + 8q of the rows, scale byte chunk x the layout's chunk
  // stride + q (64-bit: 512 x chunk overflows 32 bits past K = 2^28).
  Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
  Value bytes = arith::MulIOp::create(b, chunk64, k.c64(32));
  Value scales =
      arith::MulIOp::create(b, chunk64, k.c64(sfbRows.chunkStride()));
  for (int r = 0; r < 2; ++r) {
    c.bytes[r] = k.load(k.i64, k.offset(bRowBase[r], bytes), 8);
    c.scale[r] = k.load(k.i8, k.offset(sfbRowBase[r], scales), 1);
  }
  return c;
}

SmallVector<Value> GemmSm90Emitter::fragments(const BChunk &chunk) {
  // Per row: the 8 bytes as two words; the scale as an f16x2 splat.
  Value words[2][2], scales[2];
  for (int r = 0; r < 2; ++r) {
    words[r][0] = arith::TruncIOp::create(b, k.i32, chunk.bytes[r]);
    words[r][1] = arith::TruncIOp::create(
        b, k.i32, arith::ShRUIOp::create(b, chunk.bytes[r], k.c64(32)));
    scales[r] = scaleSplat(k, arith::ExtUIOp::create(b, k.i32, chunk.scale[r]));
  }
  SmallVector<Value> decoded[2];
  for (int r = 0; r < 2; ++r)
    for (int h = 0; h < 2; ++h)
      llvm::append_range(decoded[r],
                         decodeWordPairs(k, words[r][h], scales[r]));
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

SmallVector<Value> GemmSm90Emitter::mmaChunk(SmallVector<Value> acc,
                                             ArrayRef<Value> frags,
                                             Value tileAddress) {
  NVVM::WgmmaFenceAlignedOp::create(b);
  for (int64_t s = 0; s < 4; ++s) {
    // Step s: K halves 16s .. 16s + 15 of every row, 32 bytes into the
    // swizzle atom (the hardware swizzles the absolute address).
    Value desc = sharedDescriptor(
        k, arith::AddIOp::create(b, tileAddress, k.c32(32 * s)));
    acc = wgmmaRegisterA(k, acc, frags.slice(4 * s, 4), desc, tileM);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  return acc;
}
void GemmSm90Emitter::epilogue(ArrayRef<Value> acc) {
  const bool maskM = m % tileM != 0, maskN = n % plan.getTileN() != 0;
  Value row0 = arith::AddIOp::create(
      b, nBase,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, warpgroup, k.c32(64)),
          arith::AddIOp::create(b, arith::MulIOp::create(b, w, k.c32(16)), g)));
  Value col0 =
      arith::AddIOp::create(b, mBase, arith::MulIOp::create(b, q, k.c32(2)));
  for (auto [i, value] : llvm::enumerate(acc)) {
    int64_t idx = static_cast<int64_t>(i);
    Value nIdx = arith::AddIOp::create(b, row0, k.c32(8 * ((idx >> 1) & 1)));
    Value mIdx =
        arith::AddIOp::create(b, col0, k.c32(8 * (idx >> 2) + (idx & 1)));
    Value store;
    if (maskN)
      store =
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, nIdx, k.c32(n));
    if (maskM) {
      Value inM =
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, mIdx, k.c32(m));
      store = store ? arith::AndIOp::create(b, store, inM) : inM;
    }
    auto emitStore = [&] {
      Value global = arith::AddIOp::create(
          b,
          arith::MulIOp::create(
              b,
              arith::AddIOp::create(
                  b, arith::MulIOp::create(b, outBatch, k.c64(m)),
                  arith::ExtUIOp::create(b, k.i64, mIdx)),
              k.c64(n)),
          arith::ExtUIOp::create(b, k.i64, nIdx));
      Value out =
          outType.isF32() ? value : arith::TruncFOp::create(b, outType, value);
      LLVM::StoreOp::create(
          b, out,
          k.offset(cBase, arith::MulIOp::create(b, global, k.c64(outBytes))),
          outBytes);
    };
    if (!store) {
      emitStore();
      continue;
    }
    auto ifOp = scf::IfOp::create(b, store, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emitStore();
  }
}

SmallVector<Value> GemmSm90Emitter::emitDecodingLoop(RewriterBase &rewriter) {
  // Two buffers of tile_m decoded rows (128 bytes per row per chunk),
  // 1024-byte aligned: the 128B swizzle works on absolute addresses.
  Value smem = k.sharedBuffer(rewriter, op, "__nvfp4_gemm_a",
                              plan.getSharedBytes(), /*alignment=*/1024);
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
    SmallVector<Value> v = {bc.bytes[0], bc.bytes[1], bc.scale[0], bc.scale[1]};
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
  acc = mmaChunk(acc, fragments(bc), bufferAddress(c));
  storeA(ac, bufferAddress(next));
  fenceAsyncShared(k);
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
  gpu::BarrierOp::create(b);
  SmallVector<Value> yield(acc);
  llvm::append_range(yield, pack(bNext, aNext));
  scf::YieldOp::create(b, yield);
  return SmallVector<Value>(loop.getResults().take_front(accCount));
}

SmallVector<Value> GemmSm90Emitter::emitRingLoop(RewriterBase &rewriter) {
  const int64_t stages = plan.getStages();
  const int64_t kSplit = plan.getKSplit();
  const int64_t tileBytes = plan.getATileBytes();
  const int64_t mTiles = llvm::divideCeil(m, tileM);
  MLIRContext *ctx = b.getContext();
  // Dynamic shared memory, its base rounded up to 1024 bytes (the 128B
  // swizzle works on absolute addresses); the slots' full and empty
  // mbarriers follow them.
  Value dynamic = k.dynamicSharedMemory(rewriter, op, "__nvfp4_dynamic_smem");
  Value base32 = LLVM::PtrToIntOp::create(b, k.i32, dynamic);
  Value ring = arith::AndIOp::create(
      b, arith::AddIOp::create(b, base32, k.c32(1023)), k.c32(~1023));
  const int64_t dataBytes =
      std::max(stages * tileBytes, plan.getReductionBytes());
  auto smemPtr = LLVM::LLVMPointerType::get(ctx, /*shared*/ 3);
  auto slotAddress = [&](Value slot) -> Value {
    return arith::AddIOp::create(
        b, ring, arith::MulIOp::create(b, slot, k.c32(tileBytes)));
  };
  // full[slot]: the tile landed (one arrive with the byte count, completed
  // by the copy); empty[slot]: the `warpgroups` warpgroups that read it are
  // done with it (one arrive each). Chunk c uses slot c % stages, and
  // stages is a multiple of k_split, so a slot only ever holds chunks of
  // one K group: the warpgroups of that group refill it themselves.
  auto barrier = [&](Value slot, int64_t which) -> Value {
    Value address = arith::AddIOp::create(
        b,
        arith::AddIOp::create(b, ring, k.c32(dataBytes + 8 * stages * which)),
        arith::MulIOp::create(b, slot, k.c32(8)));
    return LLVM::IntToPtrOp::create(b, smemPtr, address);
  };
  auto full = [&](Value slot) { return barrier(slot, 0); };
  auto empty = [&](Value slot) { return barrier(slot, 1); };
  Value tilesBase = k.pointer(op.getATiles());
  // Fills `slot` (chunk % stages) with the decoded tile of `chunk`; the
  // copy completes on the slot's full mbarrier.
  auto issueCopy = [&](Value chunk, Value slot) {
    Value bar = full(slot);
    NVVM::MBarrierArriveExpectTxOp::create(
        b, Type(), bar, k.c32(tileBytes),
        NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA),
        b.getBoolAttr(false), Value());
    Value src =
        k.offset(tilesBase, aTileOffset(k, plan, mTiles, totalChunks, batch,
                                        mBase, globalChunk(chunk)));
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        b, LLVM::IntToPtrOp::create(b, smemPtr, slotAddress(slot)), src, bar,
        k.c32(tileBytes), Value(), Value());
  };
  Value isThread0 =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid, k.c32(0));
  {
    // Thread 0 initializes the barriers.
    auto ifOp = scf::IfOp::create(b, isThread0, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (int64_t s = 0; s < stages; ++s) {
      NVVM::MBarrierInitOp::create(b, full(k.c32(s)), k.c32(1), Value());
      NVVM::MBarrierInitOp::create(b, empty(k.c32(s)),
                                   k.c32(plan.getWarpgroups()), Value());
    }
    NVVM::FenceMbarrierInitOp::create(b);
  }
  gpu::BarrierOp::create(b);
  // Once B's first loads are in flight: wait for the pre-pass (a no-op
  // unless launched as a programmatic dependent launch, which lets all of
  // the above overlap the pre-pass), then thread 0 fills every slot once.
  auto startRing = [&] {
    NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
    auto ifOp = scf::IfOp::create(b, isThread0, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (int64_t s = 0; s < std::min(stages, chunks); ++s)
      issueCopy(k.c32(s), k.c32(s));
  };
  SmallVector<Value> acc =
      emitRingMainLoop(slotAddress, full, empty, issueCopy, startRing);

  if (kSplit == 1)
    return acc;
  const int64_t accCount = tileM / 2;
  // K groups 1.. hand their partial sums to group 0 through the ring's
  // memory (every copy has landed and every MMA that read it is complete
  // once all threads pass this barrier): element i of thread t of group g
  // at ((g - 1) * accCount + i) * T + t floats, T threads per group, so a
  // warp's stores and loads are contiguous.
  gpu::BarrierOp::create(b);
  const int64_t groupThreads = plan.getWarpgroups() * 128;
  Value t = arith::RemUIOp::create(b, tid, k.c32(groupThreads));
  auto partial = [&](Value group, int64_t i) -> Value {
    Value index = arith::AddIOp::create(
        b,
        arith::MulIOp::create(
            b,
            arith::AddIOp::create(
                b, arith::MulIOp::create(b, group, k.c32(accCount)), k.c32(i)),
            k.c32(groupThreads)),
        t);
    Value address = arith::AddIOp::create(
        b, ring, arith::MulIOp::create(b, index, k.c32(4)));
    return LLVM::IntToPtrOp::create(b, smemPtr, address);
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
  gpu::BarrierOp::create(b);
  for (int64_t gi = 1; gi < kSplit; ++gi)
    for (int64_t i = 0; i < accCount; ++i)
      acc[i] = arith::AddFOp::create(
          b, acc[i],
          LLVM::LoadOp::create(b, k.f32, partial(k.c32(gi - 1), i), 4));
  return acc;
}

SmallVector<Value>
GemmSm90Emitter::emitRingMainLoop(SlotFn slotAddress, SlotFn full, SlotFn empty,
                                  CopyFn issueCopy,
                                  function_ref<void()> startRing) {
  const int64_t kSplit = plan.getKSplit();
  const int64_t accCount = tileM / 2;
  const int64_t inFlight = plan.getBPrefetch() - 1;
  // This warpgroup's K group takes chunks kGroup, kGroup + k_split, ...:
  // `count` rounds (warpgroup-uniform; 0 when K has fewer chunks than
  // groups).
  Value count = arith::DivUIOp::create(
      b, arith::SubIOp::create(b, k.c32(chunks + kSplit - 1), kGroup),
      k.c32(kSplit));
  auto chunkOf = [&](Value round) -> Value {
    return arith::AddIOp::create(
        b, arith::MulIOp::create(b, round, k.c32(kSplit)), kGroup);
  };
  auto raw = [](const BChunk &c) {
    return SmallVector<Value>{c.bytes[0], c.bytes[1], c.scale[0], c.scale[1]};
  };
  const int64_t stages = plan.getStages();
  Value isLeader = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq, arith::AndIOp::create(b, tid, k.c32(127)),
      k.c32(0));
  Value isFirstOfGroup =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, warpgroup, k.c32(0));
  // The ring position of a round: its chunk's slot is ring * k_split +
  // kGroup, the use of the slot has phase parity `phase`; ring counts
  // modulo stages / k_split, carried through the loop rather than divided.
  const int64_t ringRounds = stages / kSplit;
  struct Position {
    Value ring, phase;
  };
  auto slotAt = [&](Position p) -> Value {
    return arith::AddIOp::create(
        b, arith::MulIOp::create(b, p.ring, k.c32(kSplit)), kGroup);
  };
  auto step = [&](Position p, int64_t delta) -> Position {
    // delta = +1 or -1: wrapping flips the phase.
    Value wraps = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, p.ring,
                                        k.c32(delta > 0 ? ringRounds - 1 : 0));
    Value moved = arith::AddIOp::create(b, p.ring, k.c32(delta));
    Value wrapped = k.c32(delta > 0 ? 0 : ringRounds - 1);
    return {arith::SelectOp::create(b, wraps, wrapped, moved),
            arith::XOrIOp::create(b, p.phase,
                                  arith::ExtUIOp::create(b, k.i32, wraps))};
  };
  // The MMAs of a round (its chunk exists): wait for the tile, issue them.
  auto issue = [&](Position at, ArrayRef<Value> acc, ArrayRef<Value> frags) {
    Value slot = slotAt(at);
    NVVM::MBarrierTryWaitParityOp::create(b, full(slot), at.phase,
                                          k.c32(0x989680));
    return mmaChunk(SmallVector<Value>(acc), frags, slotAddress(slot));
  };
  // Loop-carried: the accumulators, this warpgroup's fragments of B for
  // round r, its raw B chunks of rounds r + 1 .. r + b_prefetch - 1 (the
  // loads in flight).
  SmallVector<Value> init(accCount, k.cf32(0.0f));
  llvm::append_range(init, fragments(loadB(clampChunk(chunkOf(k.c32(0))))));
  for (int64_t i = 1; i <= inFlight; ++i)
    llvm::append_range(init, raw(loadB(clampChunk(chunkOf(k.c32(i))))));
  startRing();
  // Round r of a pair: issue its MMAs, wait until only they are in flight
  // (round r - 1's are complete), release round r - 1's slot, decode the
  // next round's fragments into the registers round r - 1 read while round
  // r's MMAs run. Unrolled by two so that the fragments alternate between
  // two sets of values: the ones decoded during round 2i are new values,
  // and only those decoded during round 2i + 1 return to the loop-carried
  // registers, whose last reader (round 2i) is complete by then. (With one
  // set, the register allocator gives the next fragments the registers of
  // the in-flight ones and ptxas serializes the wgmmas, C7513.)
  auto round = [&](Value r, bool first, Position &at, SmallVector<Value> &acc,
                   SmallVector<Value> &frags, SmallVector<Value> &pending) {
    BChunk after = loadB(
        clampChunk(chunkOf(arith::AddIOp::create(b, r, k.c32(inFlight + 1)))));
    acc = issue(at, acc, frags);
    NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(1));
    Value release = isLeader;
    if (first)
      release = arith::AndIOp::create(
          b, release,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, r, k.c32(0)));
    {
      // Round r - 1's slot is free once every warpgroup of the K group
      // released it; the group's first warpgroup then refills it with the
      // group's chunk stages / k_split rounds later (that chunk + stages).
      auto ifOp = scf::IfOp::create(b, release, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Position before = step(at, -1);
      Value slot = slotAt(before);
      NVVM::MBarrierArriveOp::create(b, Type(), empty(slot), Value());
      // Round r - 1's chunk plus stages.
      Value refill =
          arith::AddIOp::create(b, chunkOf(r), k.c32(stages - kSplit));
      Value refills = arith::AndIOp::create(
          b, isFirstOfGroup,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, refill,
                                k.c32(chunks)));
      auto refillIf = scf::IfOp::create(b, refills, /*withElseRegion=*/false);
      b.setInsertionPointToStart(refillIf.thenBlock());
      NVVM::MBarrierTryWaitParityOp::create(b, empty(slot), before.phase,
                                            k.c32(0x989680));
      issueCopy(refill, slot);
    }
    at = step(at, +1);
    frags =
        fragments(BChunk{{pending[0], pending[1]}, {pending[2], pending[3]}});
    pending.erase(pending.begin(), pending.begin() + 4);
    llvm::append_range(pending, raw(after));
  };
  init.push_back(k.c32(0)); // ring
  init.push_back(k.c32(0)); // phase
  Value pairs = arith::DivUIOp::create(b, count, k.c32(2));
  auto loop = scf::ForOp::create(
      b, k.c32(0), arith::MulIOp::create(b, pairs, k.c32(2)), k.c32(2), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = loop.getInductionVar();
    auto args = loop.getRegionIterArgs();
    SmallVector<Value> acc(args.begin(), args.begin() + accCount);
    SmallVector<Value> frags(args.begin() + accCount,
                             args.begin() + accCount + 16);
    SmallVector<Value> pending(args.begin() + accCount + 16, args.end() - 2);
    Position at{args[args.size() - 2], args.back()};
    round(r, /*first=*/true, at, acc, frags, pending);
    round(arith::AddIOp::create(b, r, k.c32(1)), /*first=*/false, at, acc,
          frags, pending);
    SmallVector<Value> yield(acc);
    llvm::append_range(yield, frags);
    llvm::append_range(yield, pending);
    yield.push_back(at.ring);
    yield.push_back(at.phase);
    scf::YieldOp::create(b, yield);
  }
  // An odd count leaves one round (its fragments are decoded); it waits for
  // its MMAs inside the branch, so no accumulator is read in flight.
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
  auto results = loop.getResults();
  SmallVector<Value> acc(results.begin(), results.begin() + accCount);
  SmallVector<Value> frags(results.begin() + accCount,
                           results.begin() + accCount + 16);
  Value odd = arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                                    arith::AndIOp::create(b, count, k.c32(1)),
                                    k.c32(0));
  SmallVector<Type> accTypes(accCount, k.f32);
  auto tail = scf::IfOp::create(b, accTypes, odd, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(tail.thenBlock());
  Position at{results[results.size() - 2], results.back()};
  SmallVector<Value> last = issue(at, acc, frags);
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
  scf::YieldOp::create(b, last);
  b.setInsertionPointToStart(tail.elseBlock());
  scf::YieldOp::create(b, acc);
  return SmallVector<Value>(tail.getResults());
}

LogicalResult GemmSm90Emitter::emit(RewriterBase &rewriter) {
  if (!op->getParentOfType<gpu::GPUModuleOp>())
    return op.emitOpError() << "must be inside a gpu.module (its shared "
                               "memory is a module global); run nvfp4-tile";
  tid = arith::IndexCastUIOp::create(
      b, k.i32, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  Value wgIndex = arith::ShRUIOp::create(b, tid, k.c32(7));
  warpgroup = arith::RemUIOp::create(b, wgIndex, k.c32(plan.getWarpgroups()));
  kGroup = arith::DivUIOp::create(b, wgIndex, k.c32(plan.getWarpgroups()));
  Value t = arith::AndIOp::create(b, tid, k.c32(127));
  w = arith::ShRUIOp::create(b, t, k.c32(5));
  g = arith::ShRUIOp::create(b, arith::AndIOp::create(b, t, k.c32(31)),
                             k.c32(2));
  q = arith::AndIOp::create(b, t, k.c32(3));
  batch = arith::IndexCastUIOp::create(b, k.i64, op.getBatch());
  mBase = arith::IndexCastUIOp::create(b, k.i32, op.getMBase());
  nBase = arith::IndexCastUIOp::create(b, k.i32, op.getNBase());
  bBase = k.pointer(op.getB());
  sfbBase = k.pointer(op.getSfb());
  cBase = k.pointer(op.getC());
  outBatch = batch;
  if (plan.getSplitK() > 1) {
    // This CTA's share of K, and its fp32 partial tile instead of C.
    Value split = arith::IndexCastUIOp::create(b, k.i32, op.getSplit());
    chunkBase = arith::MulIOp::create(b, split, k.c32(chunks));
    int64_t batches = getOperandShape(op.getA().getType()).batch;
    outBatch = arith::AddIOp::create(
        b,
        arith::MulIOp::create(b, arith::ExtUIOp::create(b, k.i64, split),
                              k.c64(batches)),
        batch);
    cBase = k.pointer(op.getPartials());
    outType = k.f32;
    outBytes = 4;
  }
  Value row = arith::AddIOp::create(
      b, nBase,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, warpgroup, k.c32(64)),
          arith::AddIOp::create(b, arith::MulIOp::create(b, w, k.c32(16)), g)));
  for (int r = 0; r < 2; ++r) {
    Value rr = arith::MinUIOp::create(
        b, arith::AddIOp::create(b, row, k.c32(8 * r)), k.c32(n - 1));
    Value bRow =
        arith::AddIOp::create(b, arith::MulIOp::create(b, batch, k.c64(n)),
                              arith::ExtUIOp::create(b, k.i64, rr));
    Value q64 = arith::ExtUIOp::create(b, k.i64, q);
    bRowBase[r] = k.offset(
        bBase, arith::AddIOp::create(
                   b, arith::MulIOp::create(b, bRow, k.c64(rowBytes)),
                   arith::MulIOp::create(b, q64, k.c64(8))));
    sfbRowBase[r] = k.offset(
        sfbBase,
        arith::AddIOp::create(b, sfbRows.rowOffset(k, batch, rr), q64));
  }
  SmallVector<Value> acc = plan.getStages() > 0 ? emitRingLoop(rewriter)
                                                : emitDecodingLoop(rewriter);
  if (plan.getKSplit() == 1) {
    epilogue(acc);
    return success();
  }
  // K group 0 holds the sums.
  auto ifOp = scf::IfOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, kGroup, k.c32(0)),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  epilogue(acc);
  return success();
}

struct DecodeATileLowering : OpRewritePattern<DecodeATileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DecodeATileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    // The GEMM that reads the tiles may be scheduled now (it waits for
    // this grid's completion before its first copy of a tile).
    NVVM::GriddepcontrolOp::create(b,
                                   NVVM::GridDepActionKind::launch_dependents);
    GemmPlanAttr plan = op.getPlan();
    OperandShape a = getOperandShape(op.getA().getType());
    Value tid = arith::IndexCastUIOp::create(
        b, k.i32, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
    Value batch = arith::IndexCastUIOp::create(b, k.i64, op.getBatch());
    Value mBase = arith::IndexCastUIOp::create(b, k.i32, op.getMBase());
    Value chunk = arith::IndexCastUIOp::create(b, k.i32, op.getChunk());
    ATileDecoder decoder(k, op.getA(), op.getSfa(), op.getSfaLayout(), batch,
                         mBase, tid, GemmPlanAttr::kDecodeThreads, plan);
    Value tile =
        k.offset(k.pointer(op.getTiles()),
                 aTileOffset(k, plan, llvm::divideCeil(a.rows, plan.getTileM()),
                             a.k / GemmPlanAttr::kTileK, batch, mBase, chunk));
    decoder.decode(decoder.load(chunk), [&](Value vec, Value offset) {
      LLVM::StoreOp::create(
          b, vec, k.offset(tile, arith::ExtUIOp::create(b, k.i64, offset)), 16);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct GemmTileSm90Lowering : OpRewritePattern<GemmTileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GemmTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    GemmSm90Emitter emitter(op, b);
    if (failed(emitter.emit(rewriter)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateGemmSm90Patterns(RewritePatternSet &patterns) {
  patterns.add<GemmTileSm90Lowering, DecodeATileLowering>(
      patterns.getContext());
}
