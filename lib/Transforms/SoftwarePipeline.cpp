//===- SoftwarePipeline.cpp - multi-stage producer/consumer K loops -------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4-software-pipeline: a CTA-level nvfp4.gemm_tile whose plan has a ring
// (stages > 0) becomes its K loop, written out per thread:
//
// - the ring (nvfp4.ring.alloc): `stages` shared-memory slots with full and
//   empty mbarriers;
// - the producer: chunk c of this CTA's K goes to slot c % stages. With a
//   producer warpgroup (plan `producer`), its first thread fills every
//   chunk in order, acquiring a slot (nvfp4.ring.acquire) before each
//   reuse, while the warpgroup hands its registers to the consumers
//   (setmaxnreg); without one, the first `stages` fills are issued up front
//   and each later one by the consumer that frees the slot;
// - the consumers: K groups of warpgroups take chunks g, g + k_groups, ...
//   (stages is a multiple of k_groups, so a slot only ever holds one group's
//   chunks); a round waits for its slot (nvfp4.ring.wait), issues its MMAs,
//   waits until only they are in flight and releases the previous round's
//   slot (nvfp4.ring.release), which it refills itself when there is no
//   producer warpgroup;
// - the weights' register pipeline: each round's chunk of B is loaded
//   b_prefetch rounds ahead (nvfp4.wgmma.load_b) and dequantized one
//   round ahead (nvfp4.wgmma.decode_b), while the previous MMAs run; or,
//   with b_tma, the producer copies B's chunks and scale codes into the
//   slots with A's tiles (B's before it waits for the pre-pass on the
//   ring's first pass), and each round reads the next round's from its
//   slot (nvfp4.wgmma.read_b) once full, and each warp releases slots;
// - modulo variable expansion: the loop is unrolled by two so that the
//   fragments of consecutive rounds are distinct values (with one set the
//   register allocator reuses the registers an in-flight wgmma reads and
//   ptxas serializes the wgmmas);
// - after the loop: an odd last round, the K groups' reduction
//   (nvfp4.wgmma.reduce_k_groups) and the store (nvfp4.wgmma.store).
//
// Slot indices, phases and chunk numbers are i32, as the kernel computes
// them. The consumer ops are the sm_90a (wgmma) ones; a tcgen05 consumer for
// sm_100a plugs into the same ring (issue 9).
//
//===----------------------------------------------------------------------===//

#include "PipelineBuilders.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Target/KernelModule.h"
#include "nvfp4/Target/Target.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4SOFTWAREPIPELINEPASS
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Builds the pipelined K loop of one gemm_tile in its place.
class GemmRingBuilder : FoldingBuilder {
public:
  GemmRingBuilder(GemmTileOp op, ImplicitLocOpBuilder &b)
      : FoldingBuilder(b), op(op), kernel(op.getPlan()),
        plan(op.getWgmmaMainloop()) {
    OperandShape a = getOperandShape(op.getA().getType());
    mTiles = llvm::divideCeil(a.rows, plan.getTileM());
    totalChunks = a.k / WgmmaMainloopAttr::kTileK;
    chunks = totalChunks / kernel.getSplitK();
    kGroups = plan.getKGroups();
    stages = plan.getStages();
  }

  LogicalResult build();

private:
  void produce(Value isProducer);
  LogicalResult consume(Value tid, bool fillFirst);
  /// Stores `acc` (the D fragment of a tile of 2 x len(acc) rows of A from
  /// `m`, by default the CTA's mBase) to C, or with `split` to its partials
  /// copy `split`; a warpgroup whose rows all lie past N, or a part of the
  /// tile whose rows all lie past M, stores nothing.
  void storeAcc(Value acc, Value split, Value m = Value());
  /// Where a split cluster's exchange of `floatsPerSplit` fp32 values a
  /// split lies (RingType::getSplitExchangeStart): with b_tma in the A
  /// tiles of the ring's last slots where they fit above the K groups'
  /// sums (`aTileBytes` > 0), else at the top of the ring's data; `start`
  /// is its first byte, below which a staged store must end.
  struct ExchangeLayout {
    int64_t start, aTileBytes;
  };
  ExchangeLayout exchangeLayout(int64_t floatsPerSplit);
  /// A round's raw chunk of B: bytes and scale code of each fragment row.
  struct Raw {
    Value bytes0, bytes1, scale0, scale1;
  };
  /// The ring position of a round: its slot is ring * k_groups + kGroup, its
  /// use of the slot has phase parity `phase`; `ring` counts modulo
  /// stages / k_groups (carried through the loop, never divided).
  struct Position {
    Value ring, phase;
  };
  /// The K loop of `count` rounds from ring position `at` (the consumers'
  /// part of a tile): returns the accumulators, with `at` moved past the
  /// last round when `advance`. `beforeLoop` runs between the prologue's
  /// loads and the loop.
  Value kLoop(Value count, Position &at, bool advance,
              function_ref<void()> beforeLoop);

  /// The K group's round r -> its chunk in this CTA's share of K.
  Value chunkOf(Value round) { return add(mul(round, c32(kGroups)), kGroup); }
  Value clampChunk(Value c) {
    return b.createOrFold<arith::MinUIOp>(c, c32(chunks - 1));
  }
  /// This CTA's chunk c in the whole K (split-K offsets it).
  Value globalChunk(Value c) { return chunkBase ? add(c, chunkBase) : c; }
  Raw loadB(Value chunk);
  /// b_tma: round `r`'s raw chunk of B, from its ring slot at `p` (once
  /// full).
  Raw readB(Position p, Value r);
  /// b_tma: the producer's copies of chunk `chunk` of B's rows (bytes and
  /// scale codes) into `slot`, after arming its full barrier, and of A's
  /// tile.
  void fillB(Value chunk, Value slot);
  void fillA(Value chunk, Value slot);
  Value decode(Raw raw) {
    return WgmmaDecodeBOp::create(b, VectorType::get({16}, i32), raw.bytes0,
                                  raw.bytes1, raw.scale0, raw.scale1);
  }
  /// First workspace row (i32) of decoded tile `chunk` of this CTA's rows
  /// of A (ATileWorkspace.h).
  Value tileRow(Value chunk);
  void fill(Value chunk, Value slot) {
    RingFillOp::create(b, ring, slot, op.getATiles(),
                       ValueRange{tileRow(chunk), c32(0)});
  }
  Value slotAt(Position p) { return add(mul(p.ring, c32(kGroups)), kGroup); }
  Position step(Position p, int64_t delta);
  void round(Value r, Value count, bool first, Position &at, Value &acc,
             Value &frags, SmallVector<Raw> &pending);
  /// b_tma: round `r`'s fragments, decoded from its slot at `p` once full;
  /// with `valid` (may be null: always), zeros when it is false, so that no
  /// thread waits for a slot nobody fills or reads one it released.
  Value slotFragments(Value valid, Position p, Value r);

  GemmTileOp op;
  KernelPlanAttr kernel;
  WgmmaMainloopAttr plan;
  int64_t mTiles, totalChunks, chunks, kGroups, stages;
  Value ring, kGroup, isLeader, isFirstOfGroup, rowBase, mBase, batch,
      chunkBase;
  /// The warpgroup's first row in the CTA's tile of B.
  Value warpgroupRow;
  /// b_tma: the batch and the CTA's first row of B (i32), the TMA
  /// coordinates of its copies, and that row's place in its 128-row scale
  /// atom (blocked scales).
  Value batch32, nBase32, atomRow;
};

GemmRingBuilder::Raw GemmRingBuilder::loadB(Value chunk) {
  auto load = WgmmaLoadBOp::create(b, b.getI64Type(), b.getI64Type(),
                                   b.getI8Type(), b.getI8Type(), op.getB(),
                                   op.getSfb(), rowBase, globalChunk(chunk),
                                   op.getBatch(), op.getSfbLayoutAttr());
  return {load.getBytes0(), load.getBytes1(), load.getScale0(),
          load.getScale1()};
}

GemmRingBuilder::Raw GemmRingBuilder::readB(Position p, Value r) {
  Value slot = slotAt(p);
  // Plain scales: the slot holds the 16-byte aligned window of 4 chunks'
  // codes (TMA's boxes start 16-byte aligned), the chunk's in word c % 4.
  Value word = b.createOrFold<arith::AndIOp>(globalChunk(chunkOf(r)), c32(3));
  RingWaitOp::create(b, ring, slot, p.phase);
  auto read = WgmmaReadBOp::create(
      b, b.getI64Type(), b.getI64Type(), b.getI8Type(), b.getI8Type(), ring,
      slot, warpgroupRow, atomRow, word, plan.getATileBytes(),
      plan.getSfbSlotOffset(), op.getSfbLayout());
  return {read.getBytes0(), read.getBytes1(), read.getScale0(),
          read.getScale1()};
}

Value GemmRingBuilder::slotFragments(Value valid, Position p, Value r) {
  if (!valid)
    return decode(readB(p, r));
  auto ifOp = scf::IfOp::create(b, TypeRange{VectorType::get({16}, i32)}, valid,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, decode(readB(p, r)));
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b,
                       ValueRange{arith::ConstantOp::create(
                           b, DenseElementsAttr::get(VectorType::get({16}, i32),
                                                     APInt(32, 0)))});
  return ifOp.getResult(0);
}

void GemmRingBuilder::fillB(Value chunk, Value slot) {
  const bool blocked = op.getSfbLayout() == ScaleLayout::Blocked;
  const int64_t sfbOffset = plan.getSfbSlotOffset();
  // Blocked scales fill 512 of the slot's bytes for them.
  RingExpectOp::create(b, ring, slot,
                       blocked ? b.getI64IntegerAttr(sfbOffset + 512)
                               : IntegerAttr());
  Value global = globalChunk(chunk);
  RingCopyOp::create(b, ring, slot, plan.getATileBytes(), op.getBMap(),
                     ValueRange{batch32, nBase32, mul(global, c32(32))});
  if (!blocked) {
    // From the 16-byte aligned window that holds the chunk's 4 codes:
    // TMA faults on a box that starts inside one (an illegal instruction on
    // the H100).
    RingCopyOp::create(
        b, ring, slot, sfbOffset, op.getSfbMap(),
        ValueRange{
            batch32, nBase32,
            mul(b.createOrFold<arith::ShRUIOp>(global, c32(2)), c32(16))});
    return;
  }
  // The chunk's atom of the rows' 128-row block: atom (batch x N / 128 +
  // block) x K / 64 + chunk, one row of the map.
  OperandShape bShape = getOperandShape(op.getB().getType());
  const int64_t rowBlocks = llvm::divideCeil(bShape.rows, int64_t(128));
  Value block = add(mul(batch32, c32(rowBlocks)),
                    b.createOrFold<arith::DivUIOp>(nBase32, c32(128)));
  RingCopyOp::create(
      b, ring, slot, sfbOffset, op.getSfbMap(),
      ValueRange{add(mul(block, c32(totalChunks)), global), c32(0)});
}

void GemmRingBuilder::fillA(Value chunk, Value slot) {
  // Every CTA of the grid's row reads A's tile while B streams through L2
  // once: A's lines are kept longer (as ring.fill does).
  RingCopyOp::create(b, ring, slot, 0, op.getATiles(),
                     ValueRange{tileRow(chunk), c32(0)}, /*keep_in_l2=*/true);
}

Value GemmRingBuilder::tileRow(Value chunk) {
  return buildATileRow(b, plan, mTiles, totalChunks,
                       b.createOrFold<arith::IndexCastUIOp>(i32, op.getBatch()),
                       mBase, globalChunk(chunk));
}

GemmRingBuilder::Position GemmRingBuilder::step(Position p, int64_t delta) {
  // delta = +1 or -1: wrapping around the group's stages / k_groups slots
  // flips the phase.
  const int64_t ringRounds = stages / kGroups;
  Value wraps = cmp(arith::CmpIPredicate::eq, p.ring,
                    c32(delta > 0 ? ringRounds - 1 : 0));
  Value moved = add(p.ring, c32(delta));
  Value wrapped = c32(delta > 0 ? 0 : ringRounds - 1);
  return {
      arith::SelectOp::create(b, wraps, wrapped, moved),
      arith::XOrIOp::create(b, p.phase, arith::ExtUIOp::create(b, i32, wraps))};
}

/// Round r: B's loads for round r + b_prefetch; wait for round r's tile and
/// issue its MMAs; wait until only they are in flight (round r - 1's are
/// complete); release round r - 1's slot and refill it with the group's
/// chunk stages / k_groups rounds later; decode round r + 1's fragments while
/// round r's MMAs run.
void GemmRingBuilder::round(Value r, Value count, bool first, Position &at,
                            Value &acc, Value &frags,
                            SmallVector<Raw> &pending) {
  const bool bTma = plan.getBTma();
  const int64_t inFlight = plan.getBPrefetch() - 1;
  Raw after;
  if (!bTma)
    after = loadB(clampChunk(chunkOf(add(r, c32(inFlight + 1)))));
  Value slot = slotAt(at);
  // b_tma: round r - 1 waited for this slot to read its chunk of B.
  if (!bTma)
    RingWaitOp::create(b, ring, slot, at.phase);
  acc = WgmmaMmaOp::create(b, acc.getType(), acc, frags, ring, slot);
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(1));
  // b_tma: every thread read the slot's B with ld.shared, so each warp
  // releases it once its lanes' reads are ordered before lane 0's arrival
  // (bar.warp.sync orders memory among a warp's threads); one thread of
  // the warpgroup would release only its own reads.
  if (bTma)
    NVVM::SyncWarpOp::create(b, c32(-1));
  Value release = isLeader;
  if (first)
    release = arith::AndIOp::create(b, release,
                                    cmp(arith::CmpIPredicate::ugt, r, c32(0)));
  {
    auto ifOp = scf::IfOp::create(b, release, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Position before = step(at, -1);
    Value previous = slotAt(before);
    RingReleaseOp::create(b, ring, previous);
    // Without a producer the K group's first consumer refills the
    // slot with round r - 1's chunk plus stages.
    if (!plan.getProducer()) {
      Value refill = add(chunkOf(r), c32(stages - kGroups));
      Value refills = arith::AndIOp::create(
          b, isFirstOfGroup,
          cmp(arith::CmpIPredicate::ult, refill, c32(chunks)));
      auto refillIf = scf::IfOp::create(b, refills, /*withElseRegion=*/false);
      b.setInsertionPointToStart(refillIf.thenBlock());
      RingAcquireOp::create(b, ring, previous, before.phase);
      fill(refill, previous);
    }
  }
  at = step(at, +1);
  if (bTma) {
    // Round r + 1's chunk of B from its slot. The pair loop's first round
    // always has a next one. Past the last round there is none: with a
    // split cluster the round reads its own slot again (still held and
    // full; the fragments go unused, and the exchange's first arrive
    // releases the reads), cheaper there than a branch (performance.md
    // GEMM v31); otherwise it reads nothing.
    Value r1 = add(r, c32(1));
    if (first) {
      frags = slotFragments(Value(), at, r1);
      return;
    }
    Value next = cmp(arith::CmpIPredicate::ult, r1, count);
    if (!kernel.getSplitCluster()) {
      frags = slotFragments(next, at, r1);
      return;
    }
    Position back = step(at, -1);
    frags =
        slotFragments(Value(),
                      {arith::SelectOp::create(b, next, at.ring, back.ring),
                       arith::SelectOp::create(b, next, at.phase, back.phase)},
                      arith::SelectOp::create(b, next, r1, r));
    return;
  }
  frags = decode(pending.front());
  pending.erase(pending.begin());
  pending.push_back(after);
}

LogicalResult GemmRingBuilder::build() {
  MLIRContext *ctx = b.getContext();
  const int64_t warpgroups = plan.getWarpgroups();
  // A slot's consumers: each warpgroup, or with b_tma each of its warps.
  const int64_t releasers = plan.getBTma() ? 4 : 1;
  auto ringType =
      RingType::get(ctx, stages, plan.getSlotBytes(), warpgroups * releasers,
                    kernel.getScratchBytes());
  // The roles assume the CTA and cluster shapes nvfp4-tile launches the
  // plan with: a kernel that says otherwise would hang (no producer) or
  // exchange sums with CTAs that do not exist.
  if (auto kernel = op->getParentOfType<gpu::GPUFuncOp>()) {
    DenseI32ArrayAttr block = kernel.getKnownBlockSizeAttr();
    if (block && !isRowShape(block, plan.getThreadsPerCta()))
      return op.emitOpError()
             << "has a plan for CTAs of " << plan.getThreadsPerCta()
             << " threads, but its kernel's known_block_size says otherwise";
  }
  if (failed(checkClusterShape(op, kernel.getClusterShape())))
    return failure();
  // nvfp4-tile launched the kernel with the plan's dynamic shared memory;
  // the ring must fit it exactly as planned.
  if (ringType.getSharedBytes() != kernel.getSharedBytes())
    return op.emitOpError()
           << "needs a ring of " << ringType.getSharedBytes()
           << " bytes of dynamic shared memory, but its plan launches the "
              "kernel with "
           << kernel.getSharedBytes();
  ring = RingAllocOp::create(b, ringType);

  // Thread roles: warpgroup index = K group x warpgroups + warpgroup; each
  // warpgroup owns 64 rows of B from rowBase.
  Value tid = arith::IndexCastUIOp::create(
      b, i32, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  Value wgIndex = arith::ShRUIOp::create(b, tid, c32(7));
  Value warpgroup = b.createOrFold<arith::RemUIOp>(wgIndex, c32(warpgroups));
  kGroup = b.createOrFold<arith::DivUIOp>(wgIndex, c32(warpgroups));
  mBase = arith::IndexCastUIOp::create(b, i32, op.getMBase());
  warpgroupRow = mul(warpgroup, c32(64));
  nBase32 = arith::IndexCastUIOp::create(b, i32, op.getNBase());
  rowBase = add(nBase32, warpgroupRow);
  batch = op.getBatch();
  batch32 = b.createOrFold<arith::IndexCastUIOp>(i32, batch);
  atomRow = b.createOrFold<arith::RemUIOp>(nBase32, c32(128));
  if (kernel.getSplitK() > 1)
    chunkBase =
        mul(arith::IndexCastUIOp::create(b, i32, op.getSplit()), c32(chunks));
  // The releasing thread of each consumer: lane 0 of every warp with
  // b_tma (its lanes read the slot too), else thread 0 of each warpgroup.
  isLeader =
      cmp(arith::CmpIPredicate::eq,
          arith::AndIOp::create(b, tid, c32(128 / releasers - 1)), c32(0));
  isFirstOfGroup = cmp(arith::CmpIPredicate::eq, warpgroup, c32(0));

  if (!plan.getProducer()) {
    if (failed(consume(tid, /*fillFirst=*/true)))
      return failure();
  } else {
    // The producer warpgroup (after the consumer warpgroups) gives its
    // registers to the consumers.
    auto roles = scf::IfOp::create(
        b, cmp(arith::CmpIPredicate::uge, tid, c32(plan.getConsumerThreads())),
        /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(roles.thenBlock());
    NVVM::SetMaxRegisterOp::create(
        b, b.getI32IntegerAttr(WgmmaMainloopAttr::kProducerRegisters),
        NVVM::SetMaxRegisterActionAttr::get(
            ctx, NVVM::SetMaxRegisterAction::decrease));
    Value isProducer =
        cmp(arith::CmpIPredicate::eq, tid, c32(plan.getConsumerThreads()));
    produce(isProducer);
    b.setInsertionPointToStart(roles.elseBlock());
    NVVM::SetMaxRegisterOp::create(
        b, b.getI32IntegerAttr(plan.getConsumerRegisters()),
        NVVM::SetMaxRegisterActionAttr::get(
            ctx, NVVM::SetMaxRegisterAction::increase));
    if (failed(consume(tid, /*fillFirst=*/false)))
      return failure();
  }
  return success();
}

/// The producer warpgroup: its first thread waits for the pre-pass's tiles,
/// then fills the CTA's chunks in order, each once its slot's previous use was
/// released (chunk c: K group g = c % k_groups, round r = c / k_groups, slot
/// (r % rounds) * k_groups + g, its u-th use with u = r / rounds, where
/// rounds = stages / k_groups).
void GemmRingBuilder::produce(Value isProducer) {
  auto ifOp = scf::IfOp::create(b, isProducer, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  const int64_t rounds = stages / kGroups;
  Value count = c32(chunks);
  Value start = c32(0);
  if (plan.getBTma()) {
    // B's first chunks (its slots' first uses) before the pre-pass has
    // finished: B is the GEMM's own input, only A's tiles come from it.
    const int64_t prologue = std::min(stages, chunks);
    for (int64_t s = 0; s < prologue; ++s)
      fillB(c32(s), c32(s));
    NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
    for (int64_t s = 0; s < prologue; ++s)
      fillA(c32(s), c32(s));
    start = c32(prologue);
  } else {
    NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
  }
  auto loop = scf::ForOp::create(b, start, count, c32(1));
  b.setInsertionPointToStart(loop.getBody());
  Value c = loop.getInductionVar();
  Value r = b.createOrFold<arith::DivUIOp>(c, c32(kGroups));
  Value slot =
      add(mul(b.createOrFold<arith::RemUIOp>(r, c32(rounds)), c32(kGroups)),
          b.createOrFold<arith::RemUIOp>(c, c32(kGroups)));
  acquireForReuse(b, ring, slot,
                  b.createOrFold<arith::DivUIOp>(r, c32(rounds)));
  if (plan.getBTma()) {
    fillB(c, slot);
    fillA(c, slot);
    return;
  }
  fill(c, slot);
}

Value GemmRingBuilder::kLoop(Value count, Position &at, bool advance,
                             function_ref<void()> beforeLoop) {
  const int64_t accCount = plan.getTileM() / 2;
  // b_tma: B waits in the ring, no loads are carried.
  const int64_t inFlight = plan.getBTma() ? 0 : plan.getBPrefetch() - 1;
  // Prologue: round 0's fragments and the loads of rounds 1 .. inFlight in
  // flight.
  Value acc = arith::ConstantOp::create(
      b, DenseElementsAttr::get(VectorType::get({accCount}, b.getF32Type()),
                                0.0f));
  Value frags;
  SmallVector<Raw> pending;
  if (plan.getBTma()) {
    beforeLoop();
    // Round 0's chunk of B from its slot, unless the K group has no rounds
    // (then no slot of it is ever filled).
    frags = slotFragments(cmp(arith::CmpIPredicate::ugt, count, c32(0)), at,
                          c32(0));
  } else {
    frags = decode(loadB(clampChunk(chunkOf(c32(0)))));
    for (int64_t i = 1; i <= inFlight; ++i)
      pending.push_back(loadB(clampChunk(chunkOf(c32(i)))));
    beforeLoop();
  }

  // The loop over pairs of rounds, carrying the accumulator, the next
  // round's fragments, the raw chunks in flight and the ring position.
  SmallVector<Value> init = {acc, frags};
  for (Raw raw : pending)
    init.append({raw.bytes0, raw.bytes1, raw.scale0, raw.scale1});
  init.push_back(at.ring);
  init.push_back(at.phase);
  Value pairs = arith::DivUIOp::create(b, count, c32(2));
  auto loop = scf::ForOp::create(b, c32(0), mul(pairs, c32(2)), c32(2), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value r = loop.getInductionVar();
    auto args = loop.getRegionIterArgs();
    Value loopAcc = args[0], loopFrags = args[1];
    SmallVector<Raw> loopPending;
    for (int64_t i = 0; i < inFlight; ++i)
      loopPending.push_back(
          {args[2 + 4 * i], args[3 + 4 * i], args[4 + 4 * i], args[5 + 4 * i]});
    Position loopAt{args[args.size() - 2], args.back()};
    round(r, count, /*first=*/true, loopAt, loopAcc, loopFrags, loopPending);
    round(add(r, c32(1)), count, /*first=*/false, loopAt, loopAcc, loopFrags,
          loopPending);
    SmallVector<Value> yield = {loopAcc, loopFrags};
    for (Raw raw : loopPending)
      yield.append({raw.bytes0, raw.bytes1, raw.scale0, raw.scale1});
    yield.push_back(loopAt.ring);
    yield.push_back(loopAt.phase);
    scf::YieldOp::create(b, yield);
  }
  // An odd count leaves one round (its fragments are decoded); it waits for
  // its MMAs inside the branch, so no accumulator is read in flight.
  NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
  auto results = loop.getResults();
  Value odd = cmp(arith::CmpIPredicate::ne,
                  arith::AndIOp::create(b, count, c32(1)), c32(0));
  auto tail = scf::IfOp::create(b, TypeRange{acc.getType()}, odd,
                                /*withElseRegion=*/true);
  at = {results[results.size() - 2], results.back()};
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tail.thenBlock());
    Value slot = slotAt(at);
    RingWaitOp::create(b, ring, slot, at.phase);
    Value last = WgmmaMmaOp::create(b, acc.getType(), results[0], results[1],
                                    ring, slot);
    NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
    scf::YieldOp::create(b, last);
    b.setInsertionPointToStart(tail.elseBlock());
    scf::YieldOp::create(b, results[0]);
  }
  if (advance) {
    // Past the odd round, if there was one.
    Position past = step(at, +1);
    at = {arith::SelectOp::create(b, odd, past.ring, at.ring),
          arith::SelectOp::create(b, odd, past.phase, at.phase)};
  }
  return tail.getResult(0);
}

GemmRingBuilder::ExchangeLayout
GemmRingBuilder::exchangeLayout(int64_t floatsPerSplit) {
  auto ringType = cast<RingType>(ring.getType());
  const int64_t bytes =
      SplitKAttr::exchangeBytes(kernel.getSplitK(), floatsPerSplit);
  if (plan.getBTma()) {
    const int64_t start =
        ringType.getSplitExchangeStart(bytes, plan.getATileBytes());
    if (start >= plan.getKGroupSumsBytes())
      return {start, plan.getATileBytes()};
  }
  return {ringType.getSplitExchangeStart(bytes, 0), 0};
}

void GemmRingBuilder::storeAcc(Value acc, Value split, Value m) {
  if (!m)
    m = mBase;
  // C's tile goes through the ring's memory (free after the K loop) where
  // it can, so that C is written in whole lines (wgmma.store `staged`):
  // above the K groups' sums, below a split cluster's exchange area.
  Value staging;
  IntegerAttr stagingOffset, stagingWarpgroups;
  const int64_t accumulators = cast<VectorType>(acc.getType()).getNumElements();
  MemRefType cType = op.getC().getType();
  // Every consumer warpgroup must be past its K loop before any writes
  // there: with one warpgroup, or after the K groups' barrier or the split
  // cluster's; not two warpgroups that each meet only their own barrier.
  const bool loopsOver =
      plan.getWarpgroups() == 1 || kGroups > 1 || kernel.getSplitCluster();
  if (!split && loopsOver && WgmmaStoreOp::canStage(cType, 2 * accumulators)) {
    const int64_t offset = plan.getKGroupSumsBytes();
    const int64_t end =
        offset + plan.getWarpgroups() *
                     WgmmaStoreOp::getStagedTileBytes(
                         accumulators,
                         cType.getElementType().getIntOrFloatBitWidth() / 8);
    auto ringType = cast<RingType>(ring.getType());
    // Below the split exchange's area: the other splits' tiles, or with
    // reduce_scatter_splits (a part of the tile to store) their parts.
    const int64_t limit =
        kernel.getSplitCluster()
            ? exchangeLayout(plan.getWarpgroups() * 128 * accumulators).start
            : ringType.getDataBytes();
    if (end <= limit) {
      staging = ring;
      stagingOffset = b.getI64IntegerAttr(offset);
      stagingWarpgroups = b.getI64IntegerAttr(plan.getWarpgroups());
    }
  }
  auto emitStore = [&] {
    WgmmaStoreOp::create(b, acc, op.getC(), op.getPartials(), m, rowBase, batch,
                         split, staging, stagingOffset, stagingWarpgroups);
  };
  // When the CTA's rows of B can reach past N, a warpgroup whose rows all
  // lie past N (N a multiple of 64: its rows are not masked one by one)
  // stores nothing; so does a part of the tile (reduce_scatter_splits)
  // whose rows all lie past M (M a multiple of the part, not of the tile;
  // otherwise the store masks them).
  const int64_t n = getOperandShape(op.getB().getType()).rows;
  const int64_t rows = getOperandShape(op.getA().getType()).rows;
  const int64_t partRows = 2 * accumulators;
  Value stores;
  if (n % plan.getTileN() != 0 && n % 64 == 0)
    stores = cmp(arith::CmpIPredicate::ult, rowBase, c32(n));
  if (rows % plan.getTileM() != 0 && rows % partRows == 0) {
    Value inM = cmp(arith::CmpIPredicate::ult, m, c32(rows));
    stores = stores ? arith::AndIOp::create(b, stores, inM) : inM;
  }
  if (!stores) {
    emitStore();
    return;
  }
  auto ifOp = scf::IfOp::create(b, stores, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  emitStore();
}

/// The consumer warpgroups: the K loop, the reduction of K groups and the
/// store. `fillFirst`: thread 0 also fills every slot once (no producer
/// warpgroup).
LogicalResult GemmRingBuilder::consume(Value tid, bool fillFirst) {
  const int64_t warpgroups = plan.getWarpgroups();
  Value isThread0 = cmp(arith::CmpIPredicate::eq, tid, c32(0));

  // The K group's rounds (0 when K has fewer chunks than groups).
  Value count = b.createOrFold<arith::DivUIOp>(
      b.createOrFold<arith::SubIOp>(c32(chunks + kGroups - 1), kGroup),
      c32(kGroups));

  // After the prologue's loads: wait for the pre-pass that wrote the tiles
  // (a no-op unless launched as a programmatic dependent launch, which lets
  // the loads overlap the pre-pass) and fill every slot once.
  Position at{c32(0), c32(0)};
  Value acc = kLoop(count, at, /*advance=*/false, [&] {
    if (!fillFirst)
      return;
    NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
    auto ifOp = scf::IfOp::create(b, isThread0, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    for (int64_t s = 0; s < std::min(stages, chunks); ++s)
      fill(c32(s), c32(s));
  });
  // With split-K a third kernel adds the partials: it may be scheduled now
  // (it waits for this grid's completion before reading them).
  if (kernel.needsSumKernel())
    NVVM::GriddepcontrolOp::create(b,
                                   NVVM::GridDepActionKind::launch_dependents);

  // The K groups' partial sums meet in group 0, which stores.
  // The store's split: which copy of C in `partials` (without them, C).
  Value split = op.getPartials() ? op.getSplit() : Value();
  auto store = [&] { storeAcc(acc, split); };
  // On chip (cluster or scatter) the holders of the tile's sum (K group 0) of the
  // cluster's CTAs add their tiles into the first one's, which alone
  // stores.
  auto reduceSplitsAndStore = [&] {
    if (!kernel.getSplitCluster()) {
      store();
      return;
    }
    const int64_t splitK = kernel.getSplitK();
    const int64_t tileM = plan.getTileM();
    // b_tma: the holders read slots with plain loads; the exchange skips
    // those bytes where it fits in the slots' A tiles, else its first
    // phase releases the reads (performance.md, GEMM v33).
    const bool scatter = kernel.getSplitScatter();
    const int64_t accs = cast<VectorType>(acc.getType()).getNumElements();
    IntegerAttr aTiles;
    if (int64_t t =
            exchangeLayout(warpgroups * 128 * (scatter ? accs / splitK : accs))
                .aTileBytes)
      aTiles = b.getI64IntegerAttr(t);
    UnitAttr releaseReads =
        plan.getBTma() && !aTiles ? b.getUnitAttr() : UnitAttr();
    if (scatter) {
      // Each split adds and stores tile_m / split_k of the tile's rows of A
      // (performance.md, GEMM v32).
      auto scattered = WgmmaReduceScatterSplitsOp::create(
          b, b.getI32Type(),
          VectorType::get({tileM / splitK / 2}, b.getF32Type()), acc, ring,
          b.getI64IntegerAttr(splitK), b.getI64IntegerAttr(warpgroups),
          releaseReads, aTiles);
      storeAcc(scattered.getPart(), Value(),
               add(mBase, scattered.getRowOffset()));
      return;
    }
    auto reduced = WgmmaReduceSplitsOp::create(
        b, b.getI1Type(), acc.getType(), acc, ring, b.getI64IntegerAttr(splitK),
        b.getI64IntegerAttr(warpgroups), releaseReads, aTiles);
    acc = reduced.getResult();
    auto first = scf::IfOp::create(b, reduced.getFirst(),
                                   /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(first.thenBlock());
    store();
  };
  if (kGroups == 1) {
    reduceSplitsAndStore();
  } else {
    acc = WgmmaReduceKGroupsOp::create(b, acc.getType(), acc, ring,
                                       b.getI64IntegerAttr(kGroups),
                                       b.getI64IntegerAttr(warpgroups));
    auto ifOp =
        scf::IfOp::create(b, cmp(arith::CmpIPredicate::eq, kGroup, c32(0)),
                          /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    reduceSplitsAndStore();
  }
  return success();
}

struct NVFP4SoftwarePipelinePass
    : nvfp4::impl::NVFP4SoftwarePipelinePassBase<NVFP4SoftwarePipelinePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<GemmTileOp> tiles;
    getOperation()->walk([&](GemmTileOp op) {
      if (op.getPlan().getStages() > 0)
        tiles.push_back(op);
    });
    bool failedAny = false;
    for (GemmTileOp op : tiles) {
      const int64_t stages = op.getPlan().getStages();
      auto module = op->getParentOfType<gpu::GPUModuleOp>();
      FailureOr<std::optional<GpuTarget>> target =
          module ? getKernelModuleTarget(module, "nvfp4-software-pipeline")
                 : FailureOr<std::optional<GpuTarget>>(std::nullopt);
      if (failed(target)) {
        failedAny = true;
        continue;
      }
      if (!*target) {
        op.emitOpError() << "has a ring (stages = " << stages
                         << ") and must be inside a gpu.module with an "
                            "#nvvm.target (the chip picks its consumer); run "
                            "nvfp4-tile";
        failedAny = true;
        continue;
      }
      const GpuTargetInfo &info = getTargetInfo(**target);
      // Each plan kind has its consumer: wgmma warpgroups (sm_90a) or a
      // tcgen05 MMA thread (sm_100a).
      if (op.getTcgen05Mainloop() ? !info.hasTcgen05 : !info.hasWgmma) {
        op.emitOpError() << "has a " << op.getPlan().getMainloop()
                         << ", whose consumer ("
                         << (op.getTcgen05Mainloop() ? "tcgen05" : "wgmma")
                         << ") target " << info.chip << " does not have";
        failedAny = true;
        continue;
      }
      if (op.getTcgen05Mainloop()) {
        ImplicitLocOpBuilder b(op.getLoc(), op);
        if (failed(buildTcgen05Pipeline(op, b))) {
          failedAny = true;
          continue;
        }
        op.erase();
        continue;
      }
      ImplicitLocOpBuilder b(op.getLoc(), op);
      if (failed(GemmRingBuilder(op, b).build())) {
        failedAny = true;
        continue;
      }
      op.erase();
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
