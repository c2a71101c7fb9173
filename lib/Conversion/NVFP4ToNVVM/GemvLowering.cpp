//===- GemvLowering.cpp - nvfp4.gemv_tile to warp-level code ---------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The GEMV CTA: each warp owns rows_per_warp rows (with k_split, k_split
// warps share them); lane j of a warp handles the bytes_per_thread-byte
// chunks j, j + 32, ... of every row, so a warp reads whole 512- or
// 1024-byte spans of a row per step (coalesced). An outer iteration covers
// `unroll` steps; with prefetch, iteration t issues the A (and unstaged B)
// loads of iteration t + prefetch_distance before decoding its own (a
// software pipeline, run across the CTA's row groups). With stage_b, B is
// decoded once per CTA into shared memory first. With stages, A streams
// through a per-warp shared-memory ring of bulk copies instead of registers
// (see issueRingCopies). Per 16-value block the dot product is computed
// exactly, then
//
//   acc (f32) += block_dot * (sfa * sfb)          one fp32 FMA per block
//
// - sm_100a: cvt.rn.f16x2.e2m1x2 decodes, 8 f16x2 FMAs make the block dot
//   (exact: each half adds 8 products of magnitude <= 36 on a 0.25 grid).
// - sm_90a: prmt table lookups give twice the values as bytes, dp4a makes
//   the block dot in int32 (exact), one int-to-float per block.
//
// then a butterfly shuffle reduces acc across the warp and lane 0 stores.
// Chunks past the row end (when the steps do not divide evenly) load chunk 0
// and are masked out of the accumulation; rows past M are clamped on load
// and skipped on store, so every shape with K % 64 == 0 is handled.
//
//===----------------------------------------------------------------------===//

#include "Fp4Decode.h"
#include "KernelBuilder.h"
#include "Lowerings.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Target/Target.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The two arrays stage_b copies into shared memory.
enum class Staged { Values, Scales };
/// Rounds of staging loads issued together.
constexpr int64_t kStagingBatchRounds = 4;
/// Suspend-time hint of the ring's mbarrier waits, in nanoseconds.
constexpr int64_t kRingWaitTicks = 0x989680;

/// Emits the warp-level code of one nvfp4.gemv_tile (see the file comment).
class GemvEmitter {
public:
  GemvEmitter(GemvTileOp op, GpuTarget target, ImplicitLocOpBuilder &b)
      : op(op), plan(op.getPlan()), target(target), b(b), k(b),
        a(getOperandShape(op.getA().getType())),
        format(BlockFormat::of(op.getSfa().getType())), m(a.rows),
        kBytes(a.k / 2), kScales(format.getScaleColumns(a.k)), bpt(plan.getBytesPerThread()),
        wordsPerChunk(bpt / 4), blocksPerChunk(bpt / 8),
        scaleDiv(format.blockSize / 2), scalesPerChunk(bpt / scaleDiv),
        stagedScales(64 / format.blockSize),
        rowsPerWarp(plan.getRowsPerWarp()),
        unroll(plan.getUnroll()), chunks(kBytes / bpt),
        kSplit(plan.getKSplit()), lanesPerStep(32 * kSplit),
        steps(llvm::divideCeil(chunks, lanesPerStep)),
        outer(llvm::divideCeil(steps, unroll)),
        maskChunks(outer * unroll * lanesPerStep != chunks),
        maskRows(m % (plan.getRowsPerCta() * plan.getRowGroups()) != 0),
        stageB(plan.getStageB()), groups(plan.getRowGroups()),
        prefetch(plan.getPrefetch() && groups * outer > 1),
        distance(prefetch ? std::min(plan.getPrefetchDistance(),
                                     groups * outer - 1)
                          : 0),
        stages(plan.getStages()),
        valueBytes(getTargetInfo(target).hasFp4Convert ? 2 : 1),
        // sm_90a's integer dot products count in units of (2a)(2b): 1/4 of
        // that is folded into B's (exact) fp32 scales.
        valueScale(getTargetInfo(target).hasFp4Convert ? 1.0f : 0.25f),
        perStep(rowsPerWarp * (wordsPerChunk + 1) +
                (stageB ? 0 : wordsPerChunk + 1)),
        scaleType(VectorType::get({scalesPerChunk}, b.getI8Type())) {}

  LogicalResult emit(PatternRewriter &rewriter);

private:
  /// The rows one warp computes and their A pointers.
  struct Rows {
    SmallVector<Value> index, a, sfa;
  };

  /// Loads of one staging batch: (element index, loaded value) pairs.
  using StagingBatch = SmallVector<std::pair<Value, Value>>;

  Rows emitRows(Value rowBase);
  Rows rowsOf(Value group);
  std::pair<Value, Value> chunkAt(Value iter, int64_t u);
  SmallVector<Value> loadChunk(Value base, Value byteOff, bool streaming);
  Value loadScales(Value address, bool streaming);
  SmallVector<Value> decodeBScales(Value raw, int64_t count);
  void accumulateBlocks(ArrayRef<Value> sums, ArrayRef<Value> sa,
                        ArrayRef<Value> sb, int64_t s, Value valid,
                        Value &acc);
  SmallVector<Value> issueGlobalLoads(const Rows &rows, Value iter);
  int64_t stagedCount(Staged what) const {
    return what == Staged::Values ? a.k / 32 : a.k / 64;
  }
  StagingBatch issueStaging(Staged what, int64_t firstRound);
  void finishStaging(StagingBatch firstValues, StagingBatch firstScales);
  void emitKLoop(ValueRange firstLoads);
  std::pair<Value, Value> splitFlat(Value flat);
  SmallVector<Value> issueIterationLoads(Value flat);
  SmallVector<Value> storeAtGroupEnd(const Rows &rows, Value it,
                                     ValueRange acc);
  void issueRingCopies(Value flat);
  Value ringSlot(Value slot);
  Value ringBarrier(Value slot);
  SmallVector<Value> readRingSlot(Value slot);
  void emitRingLoop();
  void emitStep(ArrayRef<Value> data, Value iter, int64_t u,
                MutableArrayRef<Value> acc);
  void emitStore(const Rows &rows, ValueRange acc);

  GemvTileOp op;
  GemvPlanAttr plan;
  GpuTarget target;
  /// sm_100a decodes with cvt.rn.f16x2.e2m1x2; sm_90a in software.
  bool hasFp4Convert = getTargetInfo(target).hasFp4Convert;
  ImplicitLocOpBuilder &b;
  KernelBuilder k;
  OperandShape a;
  /// NVFP4 (e4m3 per 16 values) or MXFP4 (e8m0 per 32).
  BlockFormat format;
  const int64_t m, kBytes, kScales, bpt, wordsPerChunk;
  /// 16-value blocks of a lane's chunk (the dot products' unit).
  const int64_t blocksPerChunk;
  /// Value bytes per scale byte (8 or 16), and scales of a chunk.
  const int64_t scaleDiv, scalesPerChunk;
  /// Scales of B per 64 values, stage_b's unit (4 or 2).
  const int64_t stagedScales;
  const int64_t rowsPerWarp, unroll, chunks, kSplit, lanesPerStep, steps,
      outer;
  const bool maskChunks, maskRows, stageB;
  const int64_t groups;
  const bool prefetch;
  /// Iterations of loads in flight ahead of the one computed (prefetch).
  const int64_t distance;
  /// Shared-memory ring slots per warp (0: the register pipeline).
  const int64_t stages;
  const int64_t valueBytes;
  const float valueScale;
  /// Values per step in the flattened global loads (see issueGlobalLoads).
  const int64_t perStep;
  Type scaleType;

  Value tid, lane, warp, rowGroup, laneInRow, batch, rowBase;
  /// The rows of the CTA's first (or only) row group.
  Rows rows0;
  Value aPtr, sfaPtr, cPtr, bRow, sfbRow;
  /// Shared memory: staged B (stage_b) and k_split partial sums; this
  /// warp's ring slots and their mbarriers (stages > 0).
  Value smem, partial, warpRing, warpBars;
  Value isLane0;
};

GemvEmitter::Rows GemvEmitter::emitRows(Value rowBase) {
  Rows rows;
  Value firstRow = arith::AddIOp::create(
      b, rowBase, arith::MulIOp::create(b, rowGroup, k.c32(rowsPerWarp)));
  for (int64_t r = 0; r < rowsPerWarp; ++r) {
    Value row = arith::AddIOp::create(b, firstRow, k.c32(r));
    rows.index.push_back(row);
    // Rows past M are clamped for loads (and skipped on store).
    Value loadRow =
        maskRows ? arith::MinUIOp::create(b, row, k.c32(m - 1)) : row;
    Value global = arith::AddIOp::create(
        b, arith::MulIOp::create(b, batch, k.c64(m)),
        arith::ExtUIOp::create(b, k.i64, loadRow));
    rows.a.push_back(
        k.offset(aPtr, arith::MulIOp::create(b, global, k.c64(kBytes))));
    rows.sfa.push_back(
        k.offset(sfaPtr, arith::MulIOp::create(b, global, k.c64(kScales))));
  }
  return rows;
}

/// The rows of row group `group` (an i32) of the CTA; a null group (one
/// row group) is the first.
GemvEmitter::Rows GemvEmitter::rowsOf(Value group) {
  if (!group)
    return rows0;
  return emitRows(arith::AddIOp::create(
      b, rowBase,
      arith::MulIOp::create(b, group, k.c32(plan.getRowsPerCta()))));
}

/// The chunk a lane reads at step u of outer iteration `iter`, clamped to
/// chunk 0 past the row end (then `valid` is false).
std::pair<Value, Value> GemvEmitter::chunkAt(Value iter, int64_t u) {
  Value step = arith::AddIOp::create(
      b, arith::MulIOp::create(b, iter, k.c32(unroll)), k.c32(u));
  Value chunk = arith::AddIOp::create(
      b, arith::MulIOp::create(b, step, k.c32(lanesPerStep)), laneInRow);
  Value valid;
  if (maskChunks) {
    valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, chunk,
                                  k.c32(chunks));
    chunk = arith::SelectOp::create(b, valid, chunk, k.c32(0));
  }
  return {arith::ExtUIOp::create(b, k.i64, chunk), valid};
}

/// A lane's scales of one chunk (scalesPerChunk bytes, 1 to 4) as a
/// vector of bytes.
Value GemvEmitter::loadScales(Value address, bool streaming) {
  if (scalesPerChunk == 1) {
    Value byte = streaming ? arith::TruncIOp::create(
                                 b, k.i8, k.streamLoad(address, 1))
                           : k.load(k.i8, address, 1);
    return vector::FromElementsOp::create(b, scaleType, byte);
  }
  if (!streaming)
    return k.load(scaleType, address, scalesPerChunk);
  return LLVM::BitcastOp::create(b, scaleType,
                                 k.streamLoad(address, scalesPerChunk));
}

SmallVector<Value> GemvEmitter::loadChunk(Value base, Value byteOff,
                                          bool streaming) {
  SmallVector<Value> words;
  for (int64_t v = 0; v < wordsPerChunk / 4; ++v) {
    Value address =
        k.offset(base, arith::AddIOp::create(b, byteOff, k.c64(16 * v)));
    Value w = streaming ? k.streamLoad(address, 16)
                        : k.load(k.v4i32, address, 16);
    for (int64_t e = 0; e < 4; ++e)
      words.push_back(k.extract(w, e));
  }
  return words;
}

/// Global loads of one outer iteration, flattened: per step, the A words
/// and A scales of every row, then (unless B is staged) B's words and
/// scales. They are what the software pipeline carries across iterations.
SmallVector<Value> GemvEmitter::issueGlobalLoads(const Rows &rows,
                                                 Value iter) {
  SmallVector<Value> flat;
  for (int64_t u = 0; u < unroll; ++u) {
    Value chunk64 = chunkAt(iter, u).first;
    Value byteOff = arith::MulIOp::create(b, chunk64, k.c64(bpt));
    Value scaleOff = arith::MulIOp::create(b, chunk64, k.c64(scalesPerChunk));
    for (int64_t r = 0; r < rowsPerWarp; ++r) {
      llvm::append_range(flat, loadChunk(rows.a[r], byteOff, true));
      flat.push_back(loadScales(k.offset(rows.sfa[r], scaleOff), true));
    }
    if (!stageB) {
      llvm::append_range(flat, loadChunk(bRow, byteOff, false));
      flat.push_back(loadScales(k.offset(sfbRow, scaleOff), false));
    }
  }
  return flat;
}

/// stage_b: the CTA decodes B once into shared memory, per 8-value word the
/// representation decodeWordSigned / decodeWordF16 give (8 signed bytes, or
/// 4 f16x2), then every block's fp32 scale. Two arrays are staged: B's
/// values (16 bytes, 32 values, per thread and round) and its scales (4 per
/// thread and round). Straight-line code in batches of up to 4 rounds: every
/// load of a batch is issued before the first decode, so each batch costs
/// about one memory latency. The first batch of each array is issued before
/// the A prefetch (see emit), so B's few bytes are not queued
/// behind the whole CTA's first A requests. Indices past the end are clamped
/// to the last element, whose decoded value is then stored twice (harmless)
/// instead of branching.
GemvEmitter::StagingBatch GemvEmitter::issueStaging(Staged what,
                                                     int64_t firstRound) {
  const int64_t threads = plan.getWarpsPerCta() * 32;
  int64_t count = stagedCount(what);
  int64_t rounds = llvm::divideCeil(count, threads);
  StagingBatch loads;
  for (int64_t r = firstRound;
       r < std::min(rounds, firstRound + kStagingBatchRounds); ++r) {
    Value index = arith::AddIOp::create(b, tid, k.c32(r * threads));
    if ((r + 1) * threads > count)
      index = arith::MinUIOp::create(b, index, k.c32(count - 1));
    Value q = arith::ExtUIOp::create(b, k.i64, index);
    Value loaded =
        what == Staged::Values
            ? k.load(k.v4i32,
                     k.offset(bRow, arith::MulIOp::create(b, q, k.c64(16))),
                     16)
            : k.load(VectorType::get({stagedScales}, k.i8),
                     k.offset(sfbRow,
                              arith::MulIOp::create(b, q, k.c64(stagedScales))),
                     stagedScales);
    loads.push_back({q, loaded});
  }
  return loads;
}

void GemvEmitter::finishStaging(StagingBatch firstValues,
                                StagingBatch firstScales) {
  auto storeValues = [&](Value q, Value quad) {
    SmallVector<Value> parts;
    for (int64_t e = 0; e < 4; ++e) {
      Value w = k.extract(quad, e);
      if (hasFp4Convert) {
        for (Value pair : decodeWordF16(k, w))
          parts.push_back(LLVM::BitcastOp::create(b, k.i32, pair));
      } else {
        llvm::append_range(parts, decodeWordSigned(k, w));
      }
    }
    // 8 (sm_90a) or 16 (sm_100a) words, as 16-byte stores.
    int64_t bytes = 4 * static_cast<int64_t>(parts.size());
    Value base = k.smemOffset(smem, arith::MulIOp::create(b, q, k.c64(bytes)));
    for (size_t v = 0; v < parts.size(); v += 4) {
      Value packed = vector::FromElementsOp::create(
          b, k.v4i32, ArrayRef<Value>(parts).slice(v, 4));
      LLVM::StoreOp::create(
          b, packed, k.smemOffset(base, k.c64(4 * static_cast<int64_t>(v))),
          16);
    }
  };
  // Scales are stored as fp32 (NVFP4's times valueScale), after the
  // values.
  auto storeScales = [&](Value q, Value raw) {
    SmallVector<Value> scales = decodeBScales(raw, stagedScales);
    Value packed = vector::FromElementsOp::create(
        b, VectorType::get({stagedScales}, k.f32), scales);
    Value off =
        arith::AddIOp::create(b, arith::MulIOp::create(b, q, k.c64(4 * stagedScales)),
                              k.c64(valueBytes * a.k));
    LLVM::StoreOp::create(b, packed, k.smemOffset(smem, off), 4 * stagedScales);
  };
  const int64_t threads = plan.getWarpsPerCta() * 32;
  for (Staged what : {Staged::Values, Staged::Scales}) {
    int64_t rounds = llvm::divideCeil(stagedCount(what), threads);
    StagingBatch batch = what == Staged::Values ? std::move(firstValues)
                                                : std::move(firstScales);
    for (int64_t next = kStagingBatchRounds;; next += kStagingBatchRounds) {
      for (auto [q, loaded] : batch)
        what == Staged::Values ? storeValues(q, loaded)
                               : storeScales(q, loaded);
      if (next >= rounds)
        break;
      batch = issueStaging(what, next);
    }
  }
  gpu::BarrierOp::create(b);
}

/// Decodes and accumulates step u of iteration `iter` from its loaded data.
void GemvEmitter::emitStep(ArrayRef<Value> data, Value iter, int64_t u,
                           MutableArrayRef<Value> acc) {
  auto [chunk64, valid] = chunkAt(iter, u);
  auto aWords = [&](int64_t r) {
    return data.slice(r * (wordsPerChunk + 1), wordsPerChunk);
  };
  auto aScales = [&](int64_t r) {
    return data[r * (wordsPerChunk + 1) + wordsPerChunk];
  };
  // B once per step, shared by the warp's rows: from shared memory (already
  // decoded) or from the loaded words.
  SmallVector<Value> bPrep, sb;
  if (stageB) {
    int64_t bytes = 2 * bpt * valueBytes;
    Value base =
        k.smemOffset(smem, arith::MulIOp::create(b, chunk64, k.c64(bytes)));
    for (int64_t v = 0; v < bytes / 16; ++v) {
      Value w = k.load(k.v4i32, k.smemOffset(base, k.c64(16 * v)), 16,
                       /*invariant=*/false);
      for (int64_t e = 0; e < 4; ++e) {
        Value word = k.extract(w, e);
        bPrep.push_back(hasFp4Convert
                            ? Value(LLVM::BitcastOp::create(b, k.v2f16, word))
                            : word);
      }
    }
    Value scaleBase = k.smemOffset(
        smem, arith::AddIOp::create(
                  b, arith::MulIOp::create(b, chunk64, k.c64(4 * scalesPerChunk)),
                  k.c64(valueBytes * a.k)));
    Value scales = k.load(VectorType::get({scalesPerChunk}, k.f32), scaleBase,
                          4 * scalesPerChunk, /*invariant=*/false);
    for (int64_t i = 0; i < scalesPerChunk; ++i)
      sb.push_back(k.extract(scales, i));
  } else {
    ArrayRef<Value> bData =
        data.slice(rowsPerWarp * (wordsPerChunk + 1), wordsPerChunk + 1);
    for (Value w : bData.drop_back())
      for (Value p : hasFp4Convert ? decodeWordF16(k, w)
                                                 : decodeWordSigned(k, w))
        bPrep.push_back(p);
    sb = decodeBScales(bData.back(), scalesPerChunk);
  }
  Value zeroH = arith::ConstantOp::create(
      b, k.v2f16,
      DenseElementsAttr::get(cast<ShapedType>(k.v2f16),
                             b.getF16FloatAttr(0.0).getValue()));
  for (int64_t r = 0; r < rowsPerWarp; ++r) {
    SmallVector<Value> sa =
        decodeScales(k, aScales(r), scalesPerChunk, format);
    SmallVector<Value> sums;
    for (int64_t blk = 0; blk < blocksPerChunk; ++blk) {
      ArrayRef<Value> aBlock = aWords(r).slice(2 * blk, 2);
      Value sum;
      if (hasFp4Convert) {
        // 8 f16x2 FMAs; each half adds 8 products of magnitude <= 36 on a
        // 0.25 grid, which f16 holds exactly.
        Value h = zeroH;
        for (int64_t w = 0; w < 2; ++w) {
          SmallVector<Value> aPairs = decodeWordF16(k, aBlock[w]);
          for (int64_t p = 0; p < 4; ++p)
            h = LLVM::FMAOp::create(b, aPairs[p], bPrep[8 * blk + 4 * w + p],
                                    h);
        }
        sum = arith::AddFOp::create(
            b, arith::ExtFOp::create(b, k.f32, k.extract(h, 0)),
            arith::ExtFOp::create(b, k.f32, k.extract(h, 1)));
      } else {
        sum = blockDotInt(k, aBlock, ArrayRef<Value>(bPrep).slice(4 * blk, 4));
      }
      sums.push_back(sum);
      // NVFP4 adds each block as it comes; MXFP4 a pair at its end.
      if (!format.isMX() || blk % 2 == 1) {
        accumulateBlocks(sums, sa, sb, format.isMX() ? blk / 2 : blk, valid,
                         acc[r]);
        sums.clear();
      }
    }
  }
}

/// acc += the 16-value block sums of scale `s` (`sums`: one for NVFP4,
/// two for MXFP4) times the scale: NVFP4 one FMA with sa * sb (exact: the
/// sum times the scales fits fp32, valueScale already in sb); MXFP4 the
/// exact sum of its two halves times 2^(ca + cb - 254) (scaleByCodes)
/// rounded once, then added; the integer dot products' 1/4 applied to
/// the sum.
void GemvEmitter::accumulateBlocks(ArrayRef<Value> sums, ArrayRef<Value> sa,
                                   ArrayRef<Value> sb, int64_t s, Value valid,
                                   Value &acc) {
  Value updated;
  if (!format.isMX()) {
    Value scale = arith::MulFOp::create(b, sa[s], sb[s]);
    updated = LLVM::FMAOp::create(b, sums[0], scale, acc);
  } else {
    Value sum = arith::AddFOp::create(b, sums[0], sums[1]);
    if (valueScale != 1.0f)
      sum = arith::MulFOp::create(b, sum, k.cf32(valueScale));
    // The partial sum rounded before it is added, as the reference adds
    // it: an FMA would add an infinite partial's exact (finite) product,
    // and +inf then absorbs a -inf partial instead of making NaN.
    auto [scaled, factor] = scaleByCodes(k, sum, sa[s], sb[s]);
    updated =
        arith::AddFOp::create(b, acc, arith::MulFOp::create(b, scaled, factor));
  }
  acc = valid ? arith::SelectOp::create(b, valid, updated, acc) : updated;
}

/// B's scales (`count` bytes) decoded to fp32; NVFP4's times valueScale
/// (exact), MXFP4's as they are (accumulateBlocks reads their codes back).
SmallVector<Value> GemvEmitter::decodeBScales(Value raw, int64_t count) {
  SmallVector<Value> scales = decodeScales(k, raw, count, format);
  if (!format.isMX() && valueScale != 1.0f)
    for (Value &v : scales)
      v = arith::MulFOp::create(b, v, k.cf32(valueScale));
  return scales;
}

/// (row group, outer iteration) of a flattened iteration index; the group
/// is null with one row group.
std::pair<Value, Value> GemvEmitter::splitFlat(Value flat) {
  if (groups == 1)
    return {Value(), flat};
  if (outer == 1)
    return {flat, k.c32(0)};
  return {arith::DivUIOp::create(b, flat, k.c32(outer)),
          arith::RemUIOp::create(b, flat, k.c32(outer))};
}

/// The K loop, flattened over the CTA's row groups: iteration t covers
/// outer iteration t % outer of row group t / outer. Software pipeline
/// (plan.prefetch): iteration t issues the global loads of iteration
/// t + distance (the next row group's chunks near a group's end) before it
/// decodes the data of iteration t, which arrived as a loop-carried value,
/// so each warp keeps `distance` iterations of loads in flight while it
/// computes, across row boundaries too. The last iterations re-request the
/// last iteration's chunks (L2 hits: A bypasses L1). `firstLoads` are the loads of
/// iterations 0 .. distance - 1. A group's rows are reduced and stored
/// after its last iteration.
void GemvEmitter::emitKLoop(ValueRange firstLoads) {
  const int64_t total = groups * outer;
  const int64_t perIteration = unroll * perStep;
  SmallVector<Value> init(rowsPerWarp, k.cf32(0.0f));
  llvm::append_range(init, firstLoads);
  auto loop = scf::ForOp::create(b, k.c32(0), k.c32(total), k.c32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    auto iterArgs = loop.getRegionIterArgs();
    SmallVector<Value> acc(iterArgs.begin(), iterArgs.begin() + rowsPerWarp);
    auto [group, it] = splitFlat(t);
    Rows rows = rowsOf(group);
    SmallVector<Value> current, later, next;
    if (prefetch) {
      auto inFlight = iterArgs.drop_front(rowsPerWarp);
      current.assign(inFlight.begin(), inFlight.begin() + perIteration);
      later.assign(inFlight.begin() + perIteration, inFlight.end());
      next = issueIterationLoads(arith::MinUIOp::create(
                     b, arith::AddIOp::create(b, t, k.c32(distance)),
                     k.c32(total - 1)));
    } else {
      current = issueGlobalLoads(rows, it);
    }
    for (int64_t u = 0; u < unroll; ++u)
      emitStep(ArrayRef<Value>(current).slice(u * perStep, perStep), it, u,
               acc);
    if (groups > 1)
      acc = storeAtGroupEnd(rows, it, acc);
    SmallVector<Value> yielded(acc);
    llvm::append_range(yielded, later);
    llvm::append_range(yielded, next);
    scf::YieldOp::create(b, yielded);
  }
  if (groups == 1)
    emitStore(rows0, loop.getResults().take_front(rowsPerWarp));
}

/// The global loads of flattened iteration `flat` (its row group's rows).
SmallVector<Value> GemvEmitter::issueIterationLoads(Value flat) {
  auto [group, it] = splitFlat(flat);
  return issueGlobalLoads(rowsOf(group), it);
}

/// After outer iteration `it` of a row group: at the group's last one, its
/// rows are reduced and stored and the accumulators restart from zero.
/// Returns the accumulators to carry on.
SmallVector<Value> GemvEmitter::storeAtGroupEnd(const Rows &rows, Value it,
                                                ValueRange acc) {
  Value last = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, it,
                                     k.c32(outer - 1));
  auto ifOp = scf::IfOp::create(b, TypeRange(acc), last,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  emitStore(rows, acc);
  scf::YieldOp::create(b, SmallVector<Value>(rowsPerWarp, k.cf32(0.0f)));
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, acc);
  return SmallVector<Value>(ifOp.getResults());
}

/// stages > 0: the shared-memory A ring. Each warp owns `stages` slots of
/// getRingSlotBytes() (its rows' values for one outer iteration, then their
/// scales) and one mbarrier per slot. Lane 0 fills slot t % stages with
/// iteration t's bulk copies (cp.async.bulk completing on the slot's
/// mbarrier with the bytes as its transaction count); every lane waits on
/// the barrier's phase parity (t / stages) % 2, reads its pieces
/// (bytes_per_thread apart: conflict-free for 16 bytes, 2-way for 32) and
/// decodes as in the register pipeline. At the top of iteration t, after a
/// warp barrier (every lane has read slot (t - 1) % stages), lane 0 orders
/// those generic reads before the async proxy's writes (fence.proxy.async)
/// and refills that slot with iteration t + stages - 1, so stages - 1
/// iterations stay in flight.
void GemvEmitter::issueRingCopies(Value flat) {
  Value slot = arith::RemUIOp::create(b, flat, k.c32(stages));
  auto [group, it] = splitFlat(flat);
  Rows rows = rowsOf(group);
  Value bar = ringBarrier(slot);
  const int64_t iterBytes = plan.getIterationBytes();
  // The bytes the copies below bring (the slot may be larger: its size
  // assumes NVFP4's scales).
  const int64_t txBytes = rowsPerWarp * (iterBytes + iterBytes / scaleDiv);
  NVVM::MBarrierArriveExpectTxOp::create(
      b, Type(), bar, k.c32(txBytes),
      NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::CTA),
      b.getBoolAttr(false), Value());
  Value it64 = arith::ExtUIOp::create(b, k.i64, it);
  Value aOff = arith::MulIOp::create(b, it64, k.c64(iterBytes));
  Value sOff = arith::MulIOp::create(b, it64, k.c64(iterBytes / scaleDiv));
  Value base = ringSlot(slot);
  for (int64_t r = 0; r < rowsPerWarp; ++r) {
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        b, k.smemOffset(base, k.c64(r * iterBytes)), k.offset(rows.a[r], aOff),
        bar, k.c32(iterBytes), Value(), Value());
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        b,
        k.smemOffset(base, k.c64(rowsPerWarp * iterBytes +
                                 r * (iterBytes / scaleDiv))),
        k.offset(rows.sfa[r], sOff), bar, k.c32(iterBytes / scaleDiv), Value(),
        Value());
  }
}

Value GemvEmitter::ringSlot(Value slot) {
  return k.smemOffset(
      warpRing, arith::ExtUIOp::create(
                    b, k.i64,
                    arith::MulIOp::create(b, slot,
                                          k.c32(plan.getRingSlotBytes()))));
}

Value GemvEmitter::ringBarrier(Value slot) {
  return k.smemOffset(
      warpBars,
      arith::ExtUIOp::create(b, k.i64,
                             arith::MulIOp::create(b, slot, k.c32(8))));
}

/// The current iteration's data from ring slot `slot`, laid out as
/// issueGlobalLoads lays out its registers (per step, per row: the A words,
/// then the A scales).
SmallVector<Value> GemvEmitter::readRingSlot(Value slot) {
  const int64_t iterBytes = plan.getIterationBytes();
  Value base = ringSlot(slot);
  Value lane64 = arith::ExtUIOp::create(b, k.i64, lane);
  SmallVector<Value> flat;
  for (int64_t u = 0; u < unroll; ++u) {
    Value piece = arith::AddIOp::create(b, lane64, k.c64(32 * u));
    Value aOff = arith::MulIOp::create(b, piece, k.c64(bpt));
    Value sOff = arith::MulIOp::create(b, piece, k.c64(scalesPerChunk));
    for (int64_t r = 0; r < rowsPerWarp; ++r) {
      Value rowBase = k.smemOffset(base, k.c64(r * iterBytes));
      for (int64_t v = 0; v < wordsPerChunk / 4; ++v) {
        Value w = k.load(k.v4i32,
                         k.smemOffset(rowBase, arith::AddIOp::create(
                                                   b, aOff, k.c64(16 * v))),
                         16, /*invariant=*/false);
        for (int64_t e = 0; e < 4; ++e)
          flat.push_back(k.extract(w, e));
      }
      Value scales = k.smemOffset(
          base, k.c64(rowsPerWarp * iterBytes + r * (iterBytes / scaleDiv)));
      flat.push_back(k.load(scaleType, k.smemOffset(scales, sOff),
                            scalesPerChunk, /*invariant=*/false));
    }
  }
  return flat;
}

/// The K loop of the ring (see issueRingCopies); its prologue (barrier
/// initialization and the first stages - 1 fills) is in emit.
void GemvEmitter::emitRingLoop() {
  const int64_t total = groups * outer;
  SmallVector<Value> init(rowsPerWarp, k.cf32(0.0f));
  auto loop = scf::ForOp::create(b, k.c32(0), k.c32(total), k.c32(1), init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value t = loop.getInductionVar();
  SmallVector<Value> acc(loop.getRegionIterArgs());
  NVVM::SyncWarpOp::create(b, k.c32(-1));
  Value refill = arith::AddIOp::create(b, t, k.c32(stages - 1));
  Value issue = arith::AndIOp::create(
      b, isLane0,
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, refill,
                            k.c32(total)));
  {
    auto ifOp = scf::IfOp::create(b, issue, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    NVVM::FenceProxyOp::create(
        b, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
    issueRingCopies(refill);
  }
  Value slot = arith::RemUIOp::create(b, t, k.c32(stages));
  Value parity = arith::AndIOp::create(
      b, arith::DivUIOp::create(b, t, k.c32(stages)), k.c32(1));
  NVVM::MBarrierTryWaitParityOp::create(b, ringBarrier(slot), parity,
                                        k.c32(kRingWaitTicks));
  SmallVector<Value> data = readRingSlot(slot);
  auto [group, it] = splitFlat(t);
  for (int64_t u = 0; u < unroll; ++u)
    emitStep(ArrayRef<Value>(data).slice(u * perStep, perStep), it, u, acc);
  scf::YieldOp::create(b, storeAtGroupEnd(rowsOf(group), it, acc));
}

/// Warp reduction; with k_split, the warps of a row group then add their
/// partial sums through shared memory, in warp order (deterministic); then
/// one lane stores each row (rows past M skipped).
void GemvEmitter::emitStore(const Rows &rows, ValueRange acc) {
  Type outType = op.getC().getType().getElementType();
  int64_t outBytes = outType.getIntOrFloatBitWidth() / 8;
  SmallVector<Value> sums;
  for (Value v : acc) {
    for (int32_t off = 16; off >= 1; off /= 2) {
      auto shuffle = gpu::ShuffleOp::create(b, v, off, /*width=*/32,
                                            gpu::ShuffleMode::XOR);
      v = arith::AddFOp::create(b, v, shuffle.getShuffleResult());
    }
    sums.push_back(v);
  }
  Value writer = isLane0;
  if (kSplit > 1) {
    auto slot = [&](Value warpIndex, int64_t r) {
      Value index = arith::AddIOp::create(
          b, arith::MulIOp::create(b, warpIndex, k.c32(rowsPerWarp)),
          k.c32(r));
      return k.smemOffset(
          partial, arith::ExtUIOp::create(
                       b, k.i64, arith::MulIOp::create(b, index, k.c32(4))));
    };
    {
      auto ifOp = scf::IfOp::create(b, isLane0, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      for (int64_t r = 0; r < rowsPerWarp; ++r)
        LLVM::StoreOp::create(b, sums[r], slot(warp, r), 4);
    }
    gpu::BarrierOp::create(b);
    // The first warp of each group adds the group's partials.
    Value firstWarp = arith::MulIOp::create(b, rowGroup, k.c32(kSplit));
    for (int64_t r = 0; r < rowsPerWarp; ++r) {
      Value total = k.cf32(0.0f);
      for (int64_t j = 0; j < kSplit; ++j)
        total = arith::AddFOp::create(
            b, total,
            k.load(k.f32,
                   slot(arith::AddIOp::create(b, firstWarp, k.c32(j)), r), 4,
                   /*invariant=*/false));
      sums[r] = total;
    }
    // The partials buffer is reused by the CTA's next row group.
    gpu::BarrierOp::create(b);
    writer = arith::AndIOp::create(
        b, writer,
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, warp, firstWarp));
  }
  for (int64_t r = 0; r < rowsPerWarp; ++r) {
    Value v = sums[r];
    Value store = writer;
    if (maskRows)
      store = arith::AndIOp::create(
          b, store,
          arith::CmpIOp::create(b, arith::CmpIPredicate::ult, rows.index[r],
                                k.c32(m)));
    Value out = outType.isF32() ? v : arith::TruncFOp::create(b, outType, v);
    auto ifOp = scf::IfOp::create(b, store, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value global = arith::AddIOp::create(
        b, arith::MulIOp::create(b, batch, k.c64(m)),
        arith::ExtUIOp::create(b, k.i64, rows.index[r]));
    LLVM::StoreOp::create(
        b, out,
        k.offset(cPtr, arith::MulIOp::create(b, global, k.c64(outBytes))),
        outBytes);
  }
}

LogicalResult GemvEmitter::emit(PatternRewriter &rewriter) {
  if ((stageB || kSplit > 1) && !op->getParentOfType<gpu::GPUModuleOp>())
    return rewriter.notifyMatchFailure(
        op, "stage_b and k_split need the op inside a gpu.module");

  tid = arith::IndexCastUIOp::create(
      b, k.i32, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  lane = arith::AndIOp::create(b, tid, k.c32(31));
  warp = arith::ShRUIOp::create(b, tid, k.c32(5));
  rowGroup = arith::DivUIOp::create(b, warp, k.c32(kSplit));
  // This lane's position among the lanes that share the rows.
  laneInRow = arith::AddIOp::create(
      b,
      arith::MulIOp::create(
          b, arith::RemUIOp::create(b, warp, k.c32(kSplit)), k.c32(32)),
      lane);
  batch = arith::IndexCastUIOp::create(b, k.i64, op.getBatch());
  aPtr = k.pointer(op.getA());
  sfaPtr = k.pointer(op.getSfa());
  cPtr = k.pointer(op.getC());
  bRow = k.offset(k.pointer(op.getB()),
                  arith::MulIOp::create(b, batch, k.c64(kBytes)));
  sfbRow = k.offset(k.pointer(op.getSfb()),
                    arith::MulIOp::create(b, batch, k.c64(kScales)));
  if (stageB)
    smem = k.sharedBuffer(rewriter, op, "__nvfp4_staged_b",
                          getStagedBBytes(target, a.k));
  if (kSplit > 1)
    partial = k.sharedBuffer(rewriter, op, "__nvfp4_partials",
                             plan.getWarpsPerCta() * rowsPerWarp * 4);

  rowBase = arith::IndexCastUIOp::create(b, k.i32, op.getRowBase());
  rows0 = emitRows(rowBase);
  isLane0 = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, k.c32(0));
  if (stages > 0) {
    // The ring: lane 0 initializes this warp's barriers and starts the
    // first stages - 1 fills, B is staged meanwhile (its CTA barrier also
    // publishes the initialized mbarriers to the warp's other lanes).
    const int64_t warps = plan.getWarpsPerCta();
    Value ring = k.sharedBuffer(rewriter, op, "__nvfp4_ring",
                                warps * stages * plan.getRingSlotBytes());
    Value bars =
        k.sharedBuffer(rewriter, op, "__nvfp4_ring_bars", warps * stages * 8);
    Value warp64 = arith::ExtUIOp::create(b, k.i64, warp);
    warpRing = k.smemOffset(
        ring, arith::MulIOp::create(
                  b, warp64, k.c64(stages * plan.getRingSlotBytes())));
    warpBars = k.smemOffset(
        bars, arith::MulIOp::create(b, warp64, k.c64(stages * 8)));
    {
      auto ifOp = scf::IfOp::create(b, isLane0, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      for (int64_t s = 0; s < stages; ++s)
        NVVM::MBarrierInitOp::create(b, ringBarrier(k.c32(s)), k.c32(1),
                                     Value());
      NVVM::FenceMbarrierInitOp::create(b);
      for (int64_t j = 0; j < std::min(stages - 1, groups * outer); ++j)
        issueRingCopies(k.c32(j));
    }
    StagingBatch values = issueStaging(Staged::Values, 0);
    StagingBatch scales = issueStaging(Staged::Scales, 0);
    finishStaging(std::move(values), std::move(scales));
    emitRingLoop();
    return success();
  }
  // Start order: B's first staging loads (few bytes, wanted first), the
  // first A loads (whose latency the staging hides), then B's decode.
  StagingBatch values, scales;
  if (stageB) {
    values = issueStaging(Staged::Values, 0);
    scales = issueStaging(Staged::Scales, 0);
  }
  SmallVector<Value> first;
  for (int64_t j = 0; j < distance; ++j)
    llvm::append_range(first, issueIterationLoads(k.c32(j)));
  if (stageB)
    finishStaging(std::move(values), std::move(scales));
  emitKLoop(first);
  return success();
}

struct GemvTileLowering : OpRewritePattern<GemvTileOp> {
  GemvTileLowering(MLIRContext *ctx, GpuTarget target)
      : OpRewritePattern(ctx), target(target) {}

  LogicalResult matchAndRewrite(GemvTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    GemvEmitter emitter(op, target, b);
    if (failed(emitter.emit(rewriter)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }

  GpuTarget target;
};

} // namespace

void mlir::nvfp4::populateGemvPatterns(RewritePatternSet &patterns,
                                       GpuTarget target) {
  patterns.add<GemvTileLowering>(patterns.getContext(), target);
}
