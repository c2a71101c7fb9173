//===- Quantize.cpp - nvfp4.quantize_tile: f32/f16/bf16 to NVFP4/MXFP4 ---===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Thread t of the CTA quantizes blocks base + t x B .. + B - 1 (B =
// blocks_per_thread; a row's blocks are a multiple of B, so they are one
// row's): it loads their 16 B (MXFP4: 32 B) values with 16-byte loads (consecutive
// threads, consecutive addresses), and per block computes, in fp32 and in
// the order nvfp4.quantize defines (bit for bit the CPU reference's):
//
//   amax = max |x| (max.f32: NaN skipped), code = amax == 0 ? 0 :
//   cvt.rn.satfinite.e4m3x2((amax / 6) / g), s = decode(code) * g,
//   q = s == 0 ? 0 : e2m1(x / s)   (x / s rounded to nearest, as
//   div.rn.f32: from s's reciprocal and two fma corrections, exact
//   where nothing overflows or underflows; divideByScale says why).
//
// e2m1 is `cvt.rn.satfinite.e2m1x2.f32` on sm_100a. sm_90a has no e2m1
// conversion: below 1, 2|y| added to 2^23 rounds to the code; from 1 on,
// the f32 bits rounded to even at bit 22 (encodeE2M1Software).
//
// MXFP4 (e8m0 scales per 32 values, quantizeMXBlock): the scale's code
// comes from amax's exponent bits (floor) or those of amax / 6 rounded up
// (rceil), and each value is multiplied by 2^(127 - code), exact where
// the quotient is representable and otherwise rounded like it.
//
// A per-tensor scale computed on the device (`returns_global_scale`) comes
// from three nvfp4.global_amax_tile kernels before the quantization's:
// zero g, an atomic maximum of the finite |x| (GlobalAmaxTileLowering),
// then g = amax / (448 x 6).
//
// The packed values are one 8-byte (MXFP4: 16-byte) store per block; the
// scales one store of B bytes in either layout (a row's 4 consecutive
// blocks are 4 consecutive bytes of the blocked atoms too). The blocked
// layout's padding (columns past K / block in the row's last chunk, rows past R in the last 128-row
// atom) the threads of the row's last block and of the first rows write as
// zero.
//
//===----------------------------------------------------------------------===//

#include "Fp4Decode.h"
#include "Fp4Encode.h"
#include "KernelBuilder.h"
#include "Lowerings.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The 16 x `count` values of `words` (16-byte vectors of the input) as
/// f32: f32 as they are, f16 and bf16 widened exactly.
SmallVector<Value> widen(KernelBuilder &k, ArrayRef<Value> words,
                         Type element) {
  ImplicitLocOpBuilder &b = k.b;
  SmallVector<Value> values;
  for (Value vec : words)
    for (Value word : k.unpack(vec)) {
      if (element.isF32()) {
        values.push_back(arith::BitcastOp::create(b, k.f32, word));
      } else if (element.isBF16()) {
        // A bf16 is the high half of the f32 of the same value.
        values.push_back(arith::BitcastOp::create(
            b, k.f32, arith::ShLIOp::create(b, word, k.c32(16))));
        values.push_back(arith::BitcastOp::create(
            b, k.f32, arith::AndIOp::create(b, word, k.c32(0xFFFF0000))));
      } else {
        Value pair = LLVM::BitcastOp::create(b, k.v2f16, word);
        for (int64_t e = 0; e < 2; ++e)
          values.push_back(arith::ExtFOp::create(b, k.f32, k.extract(pair, e)));
      }
    }
  return values;
}

/// MXFP4: the e8m0 code (an i32) and the 4 packed words of a block of 32
/// values, as nvfp4.quantize defines them (bit for bit the reference's):
/// the scale from the block's amax (mxBlockScale), then q = e2m1(x x
/// 2^(127 - code)), an exact scaling rounded once like x / 2^(code - 127).
std::pair<Value, SmallVector<Value>>
quantizeMXBlock(KernelBuilder &k, ArrayRef<Value> block, ScaleRounding rounding,
                bool hardware) {
  ImplicitLocOpBuilder &b = k.b;
  Value amax = k.cf32(0.0f);
  for (Value v : block)
    amax = maxF32(k, amax, absF32(k, v));
  auto [code, inverse] = mxBlockScale(k, amax, rounding);
  SmallVector<Value> words;
  for (int64_t w = 0; w < 4; ++w) {
    Value word = k.c32(0);
    for (int64_t i = 0; i < 4; ++i) {
      int64_t e = 8 * w + 2 * i;
      Value byte = encodeE2M1Pair(k, arith::MulFOp::create(b, block[e], inverse),
                                  arith::MulFOp::create(b, block[e + 1], inverse),
                                  hardware);
      word = arith::OrIOp::create(b, word,
                                  arith::ShLIOp::create(b, byte, k.c32(8 * i)));
    }
    words.push_back(word);
  }
  return {code, words};
}

struct QuantizeTileLowering : OpRewritePattern<QuantizeTileOp> {
  QuantizeTileLowering(MLIRContext *ctx, GpuTarget target)
      : OpRewritePattern(ctx), hardware(getTargetInfo(target).hasTcgen05) {}

  LogicalResult matchAndRewrite(QuantizeTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    MemRefType xType = op.getX().getType();
    Type element = xType.getElementType();
    OperandShape x = getOperandShape(xType);
    const BlockFormat format = BlockFormat::of(op.getSf().getType());
    const int64_t blockSize = format.blockSize;
    const int64_t rowBlocks = x.k / blockSize;
    const int64_t total = x.batch * x.rows * rowBlocks;
    const int64_t perThread = op.getPlan().getBlocksPerThread();
    const int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
    const bool blocked = op.getSfLayout() == ScaleLayout::Blocked;

    Value tid = arith::ExtUIOp::create(b, k.i64, k.threadIdX());
    Value first = arith::AddIOp::create(
        b, arith::IndexCastUIOp::create(b, k.i64, op.getBase()),
        arith::MulIOp::create(b, tid, k.c64(perThread)));
    auto inRange =
        scf::IfOp::create(b,
                          arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                                first, k.c64(total)),
                          /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(inRange.thenBlock());

    // The blocks' values, all loads first.
    Value xPtr = k.offset(
        k.pointer(op.getX()),
        arith::MulIOp::create(b, first, k.c64(blockSize * elementBytes)));
    SmallVector<Value> words;
    for (int64_t v = 0; v < perThread * elementBytes * blockSize / 16; ++v)
      words.push_back(k.load(k.v4i32, k.offset(xPtr, k.c64(16 * v)), 16));
    Value global = op.getGlobalScale()
                       ? k.load(k.f32, k.pointer(op.getGlobalScale()), 4)
                       : Value();
    SmallVector<Value> values = widen(k, words, element);

    SmallVector<Value> codes, packed;
    for (int64_t blk = 0; blk < perThread; ++blk) {
      ArrayRef<Value> block =
          ArrayRef<Value>(values).slice(blockSize * blk, blockSize);
      if (format.isMX()) {
        auto [code, words] = quantizeMXBlock(
            k, block, op.getScaleRounding().value_or(ScaleRounding::Floor),
            hardware);
        codes.push_back(code);
        llvm::append_range(packed, words);
        continue;
      }
      // amax: max.f32 skips NaN, as the reference does.
      Value amax = k.cf32(0.0f);
      for (Value v : block)
        amax = maxF32(k, amax, absF32(k, v));
      NVFP4BlockScale scale = nvfp4BlockScale(k, amax, global);
      codes.push_back(scale.code);
      SmallVector<Value> quotients = nvfp4Quotients(k, scale, block);
      // 8 bytes: two 32-bit words of 4 bytes each.
      for (int64_t w = 0; w < 2; ++w) {
        Value word = k.c32(0);
        for (int64_t i = 0; i < 4; ++i) {
          int64_t e = 8 * w + 2 * i;
          Value byte =
              encodeE2M1Pair(k, quotients[e], quotients[e + 1], hardware);
          word = arith::OrIOp::create(
              b, word, arith::ShLIOp::create(b, byte, k.c32(8 * i)));
        }
        packed.push_back(
            arith::SelectOp::create(b, scale.zero, k.c32(0), word));
      }
    }

    // The values: 8 bytes a block (16 for MXFP4), two words each.
    Value qPtr = k.offset(k.pointer(op.getQ()),
                          arith::MulIOp::create(b, first, k.c64(blockSize / 2)));
    for (int64_t v = 0; v < perThread * blockSize / 16; v += 2) {
      if (packed.size() == 2) {
        auto v2i32 = VectorType::get({2}, k.i32);
        LLVM::StoreOp::create(b, k.pack(v2i32, packed), qPtr, 8);
        break;
      }
      LLVM::StoreOp::create(b,
                            k.pack(cast<VectorType>(k.v4i32),
                                   ArrayRef<Value>(packed).slice(2 * v, 4)),
                            k.offset(qPtr, k.c64(8 * v)), 16);
    }

    // The thread's scales are one store of B bytes in either layout: in
    // the plain one (row-major [L x] R x K/bs) block i's is byte i; in the
    // blocked one a row's 4 consecutive blocks 4c .. 4c + 3 are 4
    // consecutive bytes, and the thread's B (1, 2 or 4) blocks start at a
    // multiple of B.
    Value bytes = codes[0];
    for (int64_t blk = 1; blk < perThread; ++blk)
      bytes = arith::OrIOp::create(
          b, bytes, arith::ShLIOp::create(b, codes[blk], k.c32(8 * blk)));
    Type type = b.getIntegerType(8 * perThread);
    if (perThread < 4)
      bytes = arith::TruncIOp::create(b, type, bytes);
    Value sfPtr = k.pointer(op.getSf());
    if (!blocked) {
      LLVM::StoreOp::create(b, bytes, k.offset(sfPtr, first), perThread);
      rewriter.eraseOp(op);
      return success();
    }
    storeBlocked(k, sfPtr, first, bytes, perThread, x.batch, x.rows,
                 rowBlocks);
    rewriter.eraseOp(op);
    return success();
  }

  /// The blocked layout's bytes of the thread's `count` blocks (`bytes`,
  /// an integer of count bytes), and the padding its blocks are
  /// responsible for. The index arithmetic (divisions by constants) is
  /// 32-bit where every block index and byte offset fits, else 64-bit.
  static void storeBlocked(KernelBuilder &k, Value sfPtr, Value first,
                           Value bytes, int64_t count, int64_t batches,
                           int64_t r, int64_t rowBlocks) {
    ImplicitLocOpBuilder &b = k.b;
    const int64_t chunks = llvm::divideCeil(rowBlocks, 4);
    const int64_t rowAtoms = llvm::divideCeil(r, 128);
    const int64_t batchBytes = rowAtoms * chunks * 512;
    const int64_t limit = std::numeric_limits<int32_t>::max();
    const bool narrow = batches * batchBytes <= limit &&
                        batches * r * rowBlocks <= limit && rowAtoms * 128 <= limit;
    IndexMath m{b, narrow ? k.i32 : k.i64};
    auto c = [&](int64_t v) { return m.c(v); };
    auto div = [&](Value v, int64_t d) { return m.div(v, d); };
    auto rem = [&](Value v, int64_t d) { return m.rem(v, d); };
    auto mul = [&](Value v, int64_t d) { return m.mul(v, d); };
    auto add = [&](Value x, Value y) { return m.add(x, y); };
    if (narrow)
      first = arith::TruncIOp::create(b, k.i32, first);
    Value row = div(first, rowBlocks);
    Value j0 = rem(first, rowBlocks);
    Value batch = div(row, r);
    Value rowInBatch = rem(row, r);
    // Byte (row, column) of the batch's atoms: blockedScaleOffset.
    Value batchBase = mul(batch, batchBytes);
    auto address = [&](Value rowIdx, Value column) {
      Value offset =
          add(batchBase, blockedScaleOffset(b, rowIdx, column, chunks));
      return k.offset(sfPtr, narrow ? arith::ExtUIOp::create(b, k.i64, offset)
                                    : offset);
    };
    auto storeByte = [&](Value byte, Value rowIdx, Value column) {
      LLVM::StoreOp::create(b, arith::TruncIOp::create(b, k.i8, byte),
                            address(rowIdx, column), 1);
    };
    // The blocks' bytes, and zeros of their width for padding rows.
    LLVM::StoreOp::create(b, bytes, address(rowInBatch, j0), count);
    Value zeros = arith::ConstantIntOp::create(b, bytes.getType(), 0);
    // The columns after the row's last block, up to its chunk's end.
    const int64_t padColumns = chunks * 4 - rowBlocks;
    const int64_t padRows = rowAtoms * 128 - r;
    const int64_t last = rowBlocks - count;
    auto zeroRowTail = [&](Value rowIdx) {
      for (int64_t col = 0; col < padColumns; ++col)
        storeByte(k.c32(0), rowIdx, c(rowBlocks + col));
    };
    if (padColumns) {
      auto isLast = scf::IfOp::create(
          b,
          arith::CmpIOp::create(b, arith::CmpIPredicate::eq, j0, c(last)),
          /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(isLast.thenBlock());
      zeroRowTail(rowInBatch);
    }
    if (padRows) {
      // Padding row r + i (i < padRows) is written by the threads of row
      // i % r: rows i, i + r, i + 2r, ... of the padding, over the same
      // columns.
      auto loop = scf::ForOp::create(b, add(rowInBatch, c(r)), c(r + padRows),
                                     c(r));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value padRow = loop.getInductionVar();
      LLVM::StoreOp::create(b, zeros, address(padRow, j0), count);
      if (padColumns) {
        auto isLast = scf::IfOp::create(
            b,
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, j0, c(last)),
            /*withElseRegion=*/false);
        b.setInsertionPointToStart(isLast.thenBlock());
        zeroRowTail(padRow);
      }
    }
  }

  bool hardware;
};

} // namespace

namespace {

/// The steps of a device-computed per-tensor scale (nvfp4.global_amax_tile):
/// thread 0 zeroes g or divides it by 448 x 6; the amax step reduces the
/// largest finite |x| of the CTA's words in integers (the bits of
/// non-negative floats order as the floats do; infinities and NaN are
/// replaced by 0), per warp by shuffles, across warps through shared
/// memory, and warp 0's lane 0 adds it to g with one atomic unsigned max.
struct GlobalAmaxTileLowering : OpRewritePattern<GlobalAmaxTileOp> {
  using OpRewritePattern::OpRewritePattern;

  static constexpr int64_t kThreads = GlobalAmaxTileOp::kThreads;

  LogicalResult matchAndRewrite(GlobalAmaxTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Value tid = k.threadIdX();
    Value g = k.pointer(op.getG());
    if (op.getStep() != GlobalAmaxStep::Amax) {
      auto first = scf::IfOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid, k.c32(0)),
          /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(first.thenBlock());
      Value value = k.cf32(0.0f);
      if (op.getStep() == GlobalAmaxStep::Finalize)
        value = arith::DivFOp::create(b, k.load(k.f32, g, 4, false),
                                      k.cf32(448.0f * 6.0f));
      LLVM::StoreOp::create(b, value, g, 4);
      rewriter.eraseOp(op);
      return success();
    }
    MemRefType xType = op.getX().getType();
    Type element = xType.getElementType();
    const int64_t totalWords =
        xType.getNumElements() * element.getIntOrFloatBitWidth() / 128;
    const int64_t perThread = op.getWords() / kThreads;
    Value base = arith::IndexCastUIOp::create(b, k.i64, op.getBase());
    Value tid64 = arith::ExtUIOp::create(b, k.i64, tid);
    Value x = k.pointer(op.getX());
    // All loads first (words past x's end read word 0 and count as 0).
    SmallVector<std::pair<Value, Value>> loads;
    for (int64_t i = 0; i < perThread; ++i) {
      Value word = arith::AddIOp::create(
          b, base, arith::AddIOp::create(b, tid64, k.c64(i * kThreads)));
      Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, word,
                                          k.c64(totalWords));
      Value at = arith::SelectOp::create(b, valid, word, k.c64(0));
      loads.push_back(
          {valid, k.load(k.v4i32,
                         k.offset(x, arith::MulIOp::create(b, at, k.c64(16))),
                         16)});
    }
    Value amax = k.c32(0);
    for (auto [valid, vec] : loads) {
      Value local = k.c32(0);
      for (Value v : widen(k, {vec}, element)) {
        Value bits = arith::AndIOp::create(
            b, arith::BitcastOp::create(b, k.i32, v), k.c32(0x7FFFFFFF));
        Value finite = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                             bits, k.c32(0x7F800000));
        local = arith::MaxUIOp::create(
            b, local, arith::SelectOp::create(b, finite, bits, k.c32(0)));
      }
      amax = arith::MaxUIOp::create(
          b, amax, arith::SelectOp::create(b, valid, local, k.c32(0)));
    }
    auto warpMax = [&](Value v) {
      for (int32_t offset = 16; offset >= 1; offset /= 2)
        v = arith::MaxUIOp::create(
            b, v,
            gpu::ShuffleOp::create(b, v, offset, /*width=*/32,
                                   gpu::ShuffleMode::XOR)
                .getShuffleResult());
      return v;
    };
    amax = warpMax(amax);
    // Warp maxima through shared memory; warp 0 takes theirs.
    Value smem = k.sharedBuffer(rewriter, op, "__nvfp4_amax", 4 * kThreads / 32);
    Value lane = arith::AndIOp::create(b, tid, k.c32(31));
    Value warp = arith::ShRUIOp::create(b, tid, k.c32(5));
    auto isZero = [&](Value v) {
      return arith::CmpIOp::create(b, arith::CmpIPredicate::eq, v, k.c32(0));
    };
    {
      auto leader = scf::IfOp::create(b, isZero(lane), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(leader.thenBlock());
      LLVM::StoreOp::create(
          b, amax,
          k.smemOffset(smem, arith::MulIOp::create(
                                 b, arith::ExtUIOp::create(b, k.i64, warp),
                                 k.c64(4))),
          4);
    }
    gpu::BarrierOp::create(b);
    auto first = scf::IfOp::create(b, isZero(warp), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    Value mine = k.load(
        k.i32,
        k.smemOffset(smem,
                     arith::MulIOp::create(
                         b,
                         arith::ExtUIOp::create(
                             b, k.i64,
                             arith::MinUIOp::create(b, lane,
                                                    k.c32(kThreads / 32 - 1))),
                         k.c64(4))),
        4, /*invariant=*/false);
    Value total = warpMax(mine);
    auto lane0 = scf::IfOp::create(b, isZero(lane), false);
    b.setInsertionPointToStart(lane0.thenBlock());
    LLVM::AtomicRMWOp::create(b, LLVM::AtomicBinOp::umax, g, total,
                              LLVM::AtomicOrdering::monotonic);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateQuantizePatterns(RewritePatternSet &patterns,
                                           GpuTarget target) {
  patterns.add<QuantizeTileLowering>(patterns.getContext(), target);
  patterns.add<GlobalAmaxTileLowering>(patterns.getContext());
}
