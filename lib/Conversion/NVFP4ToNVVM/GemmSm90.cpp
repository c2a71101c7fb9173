//===- GemmSm90.cpp - gemm_tile without a ring on sm_90a (wgmma) ----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The sm_90a GEMM CTA. A and B are swapped for the MMA: 64 rows of B (the
// weights) per warpgroup are wgmma's M, `tile_m` rows of A (the
// activations) are its N. Every product e2m1 x e4m3 (times 2^-14, as the
// decode makes it) is exact in f16, so an f16 wgmma with fp32 accumulators
// computes each product exactly (times 2^-28, restored after the K loop).
//
// - B is decoded in registers straight into wgmma's A fragment (the
//   register form of wgmma: no shared memory for the weights). Thread t of
//   a warpgroup (w = t / 32, g = t % 32 / 4, q = t % 4) holds rows 16w + g
//   and 16w + g + 8 of the fragment; at MMA step s its four registers hold
//   the K slots {2q, 2q + 1} and {2q + 8, 2q + 9} of those rows. The K order
//   inside each 64-wide chunk is permuted so that these slots are pairs 2s
//   and 2s + 1 of scale block q, where pair t (0..7) of a block is the pair
//   the decode makes of the block's values (NVFP4: word h = t / 4's
//   nibbles (0, 2), (1, 3), (4, 6), (5, 7) for t % 4 = 0 .. 3; MXFP4:
//   8 (t / 4) + t % 4 and that + 4): over the 4 steps of a chunk,
//   thread q reads the 8 contiguous bytes 8q .. 8q + 7 of each of its rows,
//   exactly the 16 values of scale block q.
// - A is decoded by the whole CTA into one of two 128B-swizzled shared-
//   memory buffers (wgmma's descriptor operand, K-major) with the same
//   decode, so in the same permuted K order: position 16s + k of a row holds
//   pair t = 2s + k / 8, half k % 2, of scale block k % 8 / 2. Row i's
//   16-byte chunk P sits at byte i * 128 + (P ^ (i % 8)) * 16 (the 128B
//   swizzle), so with s = P / 2, o = P % 2 it holds pair 2s + o of scale
//   blocks q = 0..3.
// - Decode (decodeWordPairs): shifts and masks put each nibble's bits
//   where f16's are (the high byte of value x 2^-14; the low byte is
//   zero), byte permutes place them; one exact f16x2 multiply by the e4m3
//   scale (converted with cvt.rn.f16x2.e4m3x2) gives value x scale x 2^-14.
// - stages = 0, the K loop: chunk c's MMAs (4 x wgmma m64n<tile_m>k16)
//   run while the CTA decodes chunk c + 1 of A into the other buffer; B is
//   loaded one chunk ahead and A two chunks ahead, in registers.
// - stages > 0, the ring: nvfp4-software-pipeline writes the K loop out
//   (lib/Transforms/Gemm) with the ring ops (Ring.cpp) and the per-thread
//   wgmma ops (WgmmaOps.cpp); both forms build from WgmmaFragments.h.
// - Epilogue: thread t's accumulator i is C[m][n] with n = 16w + g +
//   8 ((i >> 1) & 1), m = 8 (i >> 2) + 2q + (i & 1) (wgmma's D fragment),
//   converted to C's type and stored; rows and columns past M and N are
//   loaded clamped and not stored (after the multiply by 2^28 that
//   restores the sums). Split-K needs a ring (the plan's verifier); its
//   partials go through nvfp4.wgmma.store.
// - Scales are read in either layout (ScaleRows): plain, or the blocked
//   128x4 atoms, of which a 64-value K chunk is one column group.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"
#include "WgmmaFragments.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::sm90;

namespace {

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
    n = getOperandShape(op.getWeight().getType()).rows;
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
      k.kernelSharedBuffer(rewriter, op, "__nvfp4_gemm_a",
                           plan.getSharedBytes(/*scratch=*/0),
                           /*alignment=*/1024);
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
  bRows.emplace(k, op.getWeight(), op.getWeightScales(), op.getSfbLayout(),
                batch, row, ft);
  SmallVector<Value> acc = emitDecodingLoop(rewriter);
  // The operands hold their values times 2^-14 (ATileWorkspace.h).
  Value restore = k.cf32(getWgmmaAccumulatorScale(
      BlockFormat::of(op.getWeightScales().getType())));
  for (Value &v : acc)
    v = arith::MulFOp::create(b, v, restore);
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
    // A grouped GEMM's gather: the tile at m_base holds rows [begin, end).
    Value source = mBase;
    if (op.getRowBegin())
      source = arith::IndexCastUIOp::create(b, k.i32, op.getRowBegin());
    ATileDecoder decoder(k, op.getA(), op.getSfa(), op.getSfaLayout(), batch,
                         source, tid, plan.getDecodeThreads(), plan);
    if (op.getRowEnd())
      decoder.clampRowsTo(arith::SubIOp::create(
          b, arith::IndexCastUIOp::create(b, k.i32, op.getRowEnd()), k.c32(1)));
    // Batch 0 for the gather (A not batched): its tile count is not used.
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
    if (!op.getEpilogueIdentity())
      return op.emitOpError()
             << "has an epilogue other than the identity, which the CTA "
                "that decodes A itself (stages = 0) does not apply; use a "
                "plan with a ring";
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
