//===- MainloopSm90.cpp - the sm_90a GEMM's wgmma mainloop ----------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The mainloop of a #nvfp4.wgmma_mainloop with a ring, written out per
// thread:
//
// - the producer: chunk c of this CTA's K goes to slot c % stages (with
//   slot_chunks = 2, chunks 2s and 2s + 1 to slot s % stages). With a
//   producer warpgroup (`producer`), its first thread fills every chunk in
//   order, acquiring a slot (nvfp4.ring.acquire) before each reuse;
//   without one, the first `stages` fills are issued up front and each
//   later one by the consumer that frees the slot;
// - the consumers: K groups of warpgroups take chunks g, g + k_groups, ...
//   (stages is a multiple of k_groups, so a slot only ever holds one
//   group's chunks); a round waits for its slot (nvfp4.ring.wait), issues
//   its MMAs, waits until only they are in flight and releases the
//   previous round's slot (nvfp4.ring.release), which it refills itself
//   when there is no producer warpgroup;
// - the weights' register pipeline: each round's chunk of B is loaded
//   b_prefetch rounds ahead (nvfp4.wgmma.load_b) and dequantized one
//   round ahead (nvfp4.wgmma.decode_b), while the previous MMAs run; or,
//   with b_tma, the producer copies B's chunks and scale codes into the
//   slots with A's tiles (B's before it waits for the pre-pass on the
//   ring's first pass), and each round reads the next round's from its
//   slot (nvfp4.wgmma.read_b) once full, and each warp releases slots;
// - with slot_chunks = 2 a slot holds two chunks' regions (each laid out
//   as a one-chunk slot, the second at the plan's chunk bytes), filled
//   under one full barrier: a round reads, decodes and multiplies both,
//   so its fixed cost (waits, release) is paid once per 128 values of K;
// - modulo variable expansion: the loop is unrolled by two so that the
//   fragments of consecutive rounds are distinct values (with one set the
//   register allocator reuses the registers an in-flight wgmma reads and
//   ptxas serializes the wgmmas).
//
// Slot indices, phases and chunk numbers are i32, as the kernel computes
// them.
//
//===----------------------------------------------------------------------===//

#include "WgmmaCta.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::gemm;

Value WgmmaMainloop::decode(Raw raw) {
  return WgmmaDecodeBOp::create(b, VectorType::get({16}, i32), raw.bytes0,
                                raw.bytes1, raw.scale0, raw.scale1,
                                scaleFormat());
}

SmallVector<Value> WgmmaMainloop::decode(const Raws &raws) {
  SmallVector<Value> frags;
  for (const Raw &raw : raws)
    frags.push_back(decode(raw));
  return frags;
}

void WgmmaMainloop::mma(SmallVector<Value> &accs, ValueRange frags,
                        Value slot) {
  for (int64_t j = 0; j < cta.slotChunks; ++j)
    for (size_t w = 0; w < accs.size(); ++w) {
      accs[w] = WgmmaMmaOp::create(b, accs[w].getType(), accs[w],
                                   frags[j * accs.size() + w], cta.ring, slot,
                                   scaleFormat(), j * cta.plan.getChunkBytes());
    }
}

void WgmmaMainloop::fill(Value chunk, Value slot) {
  RingFillOp::create(b, cta.ring, slot, cta.op.getATiles(),
                     ValueRange{tileRow(chunk), c32(0)});
}

WgmmaMainloop::Raws WgmmaMainloop::loadB(Value chunk) {
  Raws raws;
  for (auto [weight, scales] : llvm::zip(cta.op.getB(), cta.op.getSfb())) {
    auto load = WgmmaLoadBOp::create(
        b, b.getI64Type(), b.getI64Type(), b.getI8Type(), b.getI8Type(), weight,
        scales, cta.rowBase, globalChunk(chunk), cta.weightBatch,
        cta.op.getSfbLayoutAttr());
    raws.push_back({load.getBytes0(), load.getBytes1(), load.getScale0(),
                    load.getScale1()});
  }
  return raws;
}

WgmmaMainloop::Raws WgmmaMainloop::readB(Position p, Value r) {
  Value slot = slotAt(p);
  // The chunk's place among those whose codes a row's 16 bytes hold:
  // plain scales, the 16-byte aligned window of 16 codes (TMA's boxes
  // start 16-byte aligned) that holds them; blocked, the atom, which holds
  // one chunk's (NVFP4) or two chunks' (MXFP4).
  const int64_t perChunk = WgmmaMainloopAttr::kTileK / cta.format.blockSize;
  const int64_t perRow = cta.op.getSfbLayout() == ScaleLayout::Blocked
                             ? BlockFormat::kAtomColumns
                             : 16;
  RingWaitOp::create(b, cta.ring, slot, p.phase);
  Raws raws;
  for (int64_t j = 0; j < cta.slotChunks; ++j) {
    Value chunk = cta.slotChunks == 1 ? chunkOf(r) : slotChunk(r, j);
    Value inRow = b.createOrFold<arith::AndIOp>(globalChunk(chunk),
                                                c32(perRow / perChunk - 1));
    const int64_t sub = j * cta.plan.getChunkBytes();
    for (int64_t w = 0; w < cta.mmaWeights; ++w) {
      auto read = WgmmaReadBOp::create(
          b, b.getI64Type(), b.getI64Type(), b.getI8Type(), b.getI8Type(),
          cta.ring, slot, cta.warpgroupRow, cta.atomRow, inRow,
          sub + cta.smem->getBBytesOffset(w), scalesOffset(w, j),
          cta.op.getSfbLayout(), scaleFormat());
      raws.push_back({read.getBytes0(), read.getBytes1(), read.getScale0(),
                      read.getScale1()});
    }
  }
  return raws;
}

SmallVector<Value> WgmmaMainloop::slotFragments(Value valid, Position p,
                                                Value r) {
  if (!valid)
    return decode(readB(p, r));
  auto fragType = VectorType::get({16}, i32);
  auto ifOp = scf::IfOp::create(
      b, SmallVector<Type>(cta.mmaWeights * cta.slotChunks, fragType), valid,
      /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, decode(readB(p, r)));
  b.setInsertionPointToStart(ifOp.elseBlock());
  Value zeros = arith::ConstantOp::create(
      b, DenseElementsAttr::get(fragType, APInt(32, 0)));
  scf::YieldOp::create(b,
                       SmallVector<Value>(cta.mmaWeights * cta.slotChunks, zeros));
  return SmallVector<Value>(ifOp.getResults());
}

void WgmmaMainloop::fillB(Value chunk, Value slot, int64_t sub) {
  const bool blocked = cta.op.getSfbLayout() == ScaleLayout::Blocked;
  // Blocked scales fill kBlockedSfbBytes of each weight's room for them.
  if (sub == 0)
    RingExpectOp::create(
        b, cta.ring, slot,
        blocked || cta.slotChunks > 1
            ? b.getI64IntegerAttr(cta.plan.getSlotCopyBytes(blocked))
            : IntegerAttr());
  const int64_t subOffset = sub * cta.plan.getChunkBytes();
  Value global = globalChunk(chunk);
  OperandShape bShape = getOperandShape(cta.op.getWeight().getType());
  for (int64_t w = 0; w < cta.weights; ++w) {
    const int64_t sfbOffset = scalesOffset(w, sub);
    RingCopyOp::create(
        b, cta.ring, slot, subOffset + cta.smem->getBBytesOffset(w),
        cta.op.getBBytes()[w],
        ValueRange{cta.batch32, cta.nBase32, mul(global, c32(32))});
    if (!blocked) {
      // The slot's later chunks read the first one's window, which holds
      // their codes too.
      if (sub)
        continue;
      // From the 16-byte aligned window that holds the chunk's codes (4
      // chunks' NVFP4, 8 chunks' MXFP4): TMA faults on a box that starts
      // inside one (an illegal instruction on the H100).
      const int64_t chunksPerWindow =
          16 * cta.format.blockSize / WgmmaMainloopAttr::kTileK;
      RingCopyOp::create(
          b, cta.ring, slot, sfbOffset, cta.op.getBScales()[w],
          ValueRange{cta.batch32, cta.nBase32,
                     mul(b.createOrFold<arith::DivUIOp>(
                             global, c32(chunksPerWindow)),
                         c32(16))});
      continue;
    }
    // The chunk's atom of the rows' 128-row block: atom (batch x N / 128 +
    // block) x (K / 64 or K / 128) + chunk (MXFP4: chunk / 2), one row of
    // the map.
    const int64_t rowBlocks = BlockFormat::getRowAtoms(bShape.rows);
    const int64_t columnAtoms = cta.format.getColumnAtoms(
        cta.totalChunks * WgmmaMainloopAttr::kTileK);
    Value block = add(mul(cta.batch32, c32(rowBlocks)),
                      b.createOrFold<arith::DivUIOp>(cta.nBase32, c32(128)));
    Value atom = cta.format.isMX()
                     ? b.createOrFold<arith::ShRUIOp>(global, c32(1))
                     : global;
    RingCopyOp::create(
        b, cta.ring, slot, sfbOffset, cta.op.getBScales()[w],
        ValueRange{add(mul(block, c32(columnAtoms)), atom), c32(0)});
  }
}

void WgmmaMainloop::fillA(Value chunk, Value slot, int64_t sub) {
  // Every CTA of the grid's row reads A's tile while B streams through L2
  // once: A's lines are kept longer (as ring.fill does).
  RingCopyOp::create(b, cta.ring, slot,
                     sub * cta.plan.getChunkBytes() +
                         WgmmaSmemPlan::kATileOffset,
                     cta.op.getATiles(), ValueRange{tileRow(chunk), c32(0)},
                     /*keep_in_l2=*/true);
}

Value WgmmaMainloop::tileRow(Value chunk) {
  return buildATileRow(
      b, cta.plan, cta.mTiles, cta.totalChunks,
      b.createOrFold<arith::IndexCastUIOp>(i32, cta.op.getBatch()), cta.mBase,
      globalChunk(chunk));
}

WgmmaMainloop::Position WgmmaMainloop::step(Position p, int64_t delta) {
  // delta = +1 or -1: wrapping around the group's stages / k_groups slots
  // flips the phase.
  const int64_t ringRounds = cta.stages / cta.kGroups;
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
void WgmmaMainloop::round(Value r, Value count, bool first, Position &at,
                          SmallVector<Value> &accs, SmallVector<Value> &frags,
                          SmallVector<Raws> &pending) {
  const bool bTma = cta.plan.getBTma();
  const int64_t inFlight = cta.plan.getBPrefetch() - 1;
  Raws after;
  if (!bTma)
    after = loadB(clampChunk(chunkOf(add(r, c32(inFlight + 1)))));
  Value slot = slotAt(at);
  // b_tma: round r - 1 waited for this slot to read its chunk of B.
  if (!bTma)
    RingWaitOp::create(b, cta.ring, slot, at.phase);
  // One MMA group per weight: wait until only this round's are in flight.
  mma(accs, frags, slot);
  NVVM::WgmmaWaitGroupSyncOp::create(
      b, b.getI64IntegerAttr(cta.mmaWeights * cta.slotChunks));
  // b_tma: every thread read the slot's B with ld.shared, so each warp
  // releases it once its lanes' reads are ordered before lane 0's arrival
  // (bar.warp.sync orders memory among a warp's threads); one thread of
  // the warpgroup would release only its own reads.
  if (bTma)
    NVVM::SyncWarpOp::create(b, c32(-1));
  Value release = cta.isLeader;
  if (first)
    release = arith::AndIOp::create(b, release,
                                    cmp(arith::CmpIPredicate::ugt, r, c32(0)));
  {
    auto ifOp = scf::IfOp::create(b, release, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Position before = step(at, -1);
    Value previous = slotAt(before);
    RingReleaseOp::create(b, cta.ring, previous);
    // Without a producer the K group's first consumer refills the
    // slot with round r - 1's chunk plus stages.
    if (!cta.plan.getProducer()) {
      Value refill = add(chunkOf(r), c32(cta.stages - cta.kGroups));
      Value refills = arith::AndIOp::create(
          b, cta.isFirstOfGroup,
          cmp(arith::CmpIPredicate::ult, refill, c32(cta.chunks)));
      auto refillIf = scf::IfOp::create(b, refills, /*withElseRegion=*/false);
      b.setInsertionPointToStart(refillIf.thenBlock());
      RingAcquireOp::create(b, cta.ring, previous, before.phase);
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
    if (!cta.kernel.getSplitCluster()) {
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

/// The producer warpgroup: its first thread waits for the pre-pass's tiles,
/// then fills the CTA's chunks in order, each once its slot's previous use was
/// released (chunk c: K group g = c % k_groups, round r = c / k_groups, slot
/// (r % rounds) * k_groups + g, its u-th use with u = r / rounds, where
/// rounds = stages / k_groups; with slot_chunks = 2, one K group, the loop
/// counts slots' fills r, each of chunks 2r and 2r + 1).
void WgmmaMainloop::produce(Value isProducer) {
  auto ifOp = scf::IfOp::create(b, isProducer, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  const int64_t rounds = cta.stages / cta.kGroups;
  const int64_t per = cta.slotChunks;
  Value count = c32(cta.chunks / per);
  Value start = c32(0);
  if (cta.plan.getBTma()) {
    // B's first chunks (its slots' first uses) before the pre-pass has
    // finished: B is the GEMM's own input, only A's tiles come from it.
    const int64_t prologue = std::min(cta.stages, cta.chunks / per);
    for (int64_t s = 0; s < prologue; ++s)
      for (int64_t j = 0; j < per; ++j)
        fillB(slotChunk(c32(s), j), c32(s), j);
    NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
    for (int64_t s = 0; s < prologue; ++s)
      for (int64_t j = 0; j < per; ++j)
        fillA(slotChunk(c32(s), j), c32(s), j);
    start = c32(prologue);
  } else {
    NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
  }
  auto loop = scf::ForOp::create(b, start, count, c32(1));
  b.setInsertionPointToStart(loop.getBody());
  Value c = loop.getInductionVar();
  Value r = b.createOrFold<arith::DivUIOp>(c, c32(cta.kGroups));
  Value slot =
      add(mul(b.createOrFold<arith::RemUIOp>(r, c32(rounds)), c32(cta.kGroups)),
          b.createOrFold<arith::RemUIOp>(c, c32(cta.kGroups)));
  acquireForReuse(b, cta.ring, slot,
                  b.createOrFold<arith::DivUIOp>(r, c32(rounds)));
  if (cta.plan.getBTma()) {
    for (int64_t j = 0; j < per; ++j) {
      Value chunk = slotChunk(c, j);
      fillB(chunk, slot, j);
      fillA(chunk, slot, j);
    }
    return;
  }
  fill(c, slot);
}

SmallVector<Value> WgmmaMainloop::kLoop(Value count, Position &at,
                                        bool advance,
                                        function_ref<void()> beforeLoop) {
  // The accumulators are as wide as the MMAs' N (the tile's rows, or
  // fewer in a grouped tile's variant).
  const int64_t accCount = (mmaRows ? mmaRows : cta.plan.getTileM()) / 2;
  const int64_t weights = cta.mmaWeights;
  // b_tma: B waits in the ring, no loads are carried.
  const int64_t inFlight = cta.plan.getBTma() ? 0 : cta.plan.getBPrefetch() - 1;
  // Prologue: round 0's fragments and the loads of rounds 1 .. inFlight in
  // flight.
  Value acc = arith::ConstantOp::create(
      b, DenseElementsAttr::get(VectorType::get({accCount}, b.getF32Type()),
                                0.0f));
  SmallVector<Value> frags;
  SmallVector<Raws> pending;
  if (cta.plan.getBTma()) {
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

  // The loop over pairs of rounds, carrying the accumulators, the next
  // round's fragments, the raw chunks in flight and the ring position.
  SmallVector<Value> init(weights, acc);
  llvm::append_range(init, frags);
  for (const Raws &raws : pending)
    for (const Raw &raw : raws)
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
    SmallVector<Value> loopAccs(args.take_front(weights));
    const int64_t nFrags = weights * cta.slotChunks;
    SmallVector<Value> loopFrags(args.slice(weights, nFrags));
    SmallVector<Raws> loopPending;
    for (int64_t i = 0; i < inFlight; ++i) {
      Raws raws;
      for (int64_t w = 0; w < weights; ++w) {
        const int64_t base = weights + nFrags + 4 * (i * weights + w);
        raws.push_back(
            {args[base], args[base + 1], args[base + 2], args[base + 3]});
      }
      loopPending.push_back(raws);
    }
    Position loopAt{args[args.size() - 2], args.back()};
    round(r, count, /*first=*/true, loopAt, loopAccs, loopFrags, loopPending);
    round(add(r, c32(1)), count, /*first=*/false, loopAt, loopAccs, loopFrags,
          loopPending);
    SmallVector<Value> yield(loopAccs);
    llvm::append_range(yield, loopFrags);
    for (const Raws &raws : loopPending)
      for (const Raw &raw : raws)
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
  auto tail = scf::IfOp::create(b, SmallVector<Type>(weights, acc.getType()),
                                odd, /*withElseRegion=*/true);
  at = {results[results.size() - 2], results.back()};
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tail.thenBlock());
    Value slot = slotAt(at);
    RingWaitOp::create(b, cta.ring, slot, at.phase);
    SmallVector<Value> last(results.take_front(weights));
    mma(last, results.slice(weights, weights * cta.slotChunks), slot);
    NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
    scf::YieldOp::create(b, last);
    b.setInsertionPointToStart(tail.elseBlock());
    scf::YieldOp::create(b, results.take_front(weights));
  }
  if (advance) {
    // Past the odd round, if there was one.
    Position past = step(at, +1);
    at = {arith::SelectOp::create(b, odd, past.ring, at.ring),
          arith::SelectOp::create(b, odd, past.phase, at.phase)};
  }
  return SmallVector<Value>(tail.getResults());
}

/// After the prologue's loads the consumers wait for the pre-pass that
/// wrote the tiles (a no-op unless launched as a programmatic dependent
/// launch, which lets the loads overlap the pre-pass) and, without a
/// producer, thread 0 fills every slot once.
SmallVector<Value> WgmmaMainloop::consume(bool fillFirst) {
  Value isThread0 = cmp(arith::CmpIPredicate::eq, cta.tid, c32(0));

  // The K group's rounds (0 when K has fewer chunks than groups).
  Value count = cta.slotChunks > 1
                    ? c32(cta.chunks / cta.slotChunks)
                    : b.createOrFold<arith::DivUIOp>(
                          b.createOrFold<arith::SubIOp>(
                              c32(cta.chunks + cta.kGroups - 1), cta.kGroup),
                          c32(cta.kGroups));

  auto loop = [&] {
    Position at{c32(0), c32(0)};
    return kLoop(count, at, /*advance=*/false, [&] {
      if (!fillFirst)
        return;
      NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
      auto ifOp = scf::IfOp::create(b, isThread0, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      for (int64_t s = 0; s < std::min(cta.stages, cta.chunks); ++s)
        fill(c32(s), c32(s));
    });
  };
  const int64_t tileM = cta.plan.getTileM();
  const int64_t step = WgmmaMainloopAttr::kRowsStep;
  if (!cta.cRowEnd || tileM <= step)
    return loop();
  // A grouped GEMM's tile holds end - begin rows of its group: the K loop
  // is written once per multiple of `step` rows (wgmma's N step), each with
  // MMAs whose N covers that many rows (the last: the whole tile), and the
  // tile's rows pick one, so a group's last tile costs what its rows need.
  const int64_t variants = llvm::divideCeil(tileM, step);
  Value rows = sub(cta.cRowEnd, cta.cRowBegin);
  Value variant = arith::IndexCastUIOp::create(
      b, b.getIndexType(),
      sub(b.createOrFold<arith::DivUIOp>(add(rows, c32(step - 1)), c32(step)),
          c32(1)));
  SmallVector<int64_t> cases;
  for (int64_t v = 0; v + 1 < variants; ++v)
    cases.push_back(v);
  SmallVector<Type> types(cta.mmaWeights,
                          VectorType::get({tileM / 2}, b.getF32Type()));
  auto select =
      scf::IndexSwitchOp::create(b, types, variant, cases, cases.size());
  // A variant's accumulators are only as wide as its MMAs' N, so no
  // accumulator passes through an MMA that does not write it (ptxas then
  // serializes the wgmmas: C7515, or C7511 when registers run short). They
  // are widened to the tile's once its K loop is done; the epilogue never
  // stores the rows past the group's end, so the padding is not read.
  auto emit = [&](Region &region, int64_t rowsOfMma) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&region.emplaceBlock());
    mmaRows = rowsOfMma;
    SmallVector<Value> accs = loop();
    mmaRows = 0;
    if (rowsOfMma) {
      const int64_t narrow = rowsOfMma / 2;
      SmallVector<int64_t> mask(tileM / 2, narrow);
      for (int64_t i = 0; i < narrow; ++i)
        mask[i] = i;
      Value zero = arith::ConstantOp::create(
          b,
          DenseElementsAttr::get(VectorType::get({1}, b.getF32Type()), 0.0f));
      for (Value &acc : accs)
        acc = vector::ShuffleOp::create(b, acc, zero, mask);
    }
    scf::YieldOp::create(b, accs);
  };
  for (int64_t v = 0; v + 1 < variants; ++v)
    emit(select.getCaseRegions()[v], (v + 1) * step);
  emit(select.getDefaultRegion(), 0);
  return SmallVector<Value>(select.getResults());
}
