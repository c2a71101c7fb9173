//===- ReduceSplits.cpp - split-K's tiles added on chip in a cluster ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The split exchange (SplitExchange.h) and nvfp4.wgmma.reduce_splits
// (split-K in mode `cluster` or `scatter`): the split_k CTAs of one tile are
// a thread-block cluster, and the threads that hold each CTA's tile sum
// (wgmma's register fragments) hand them to the cluster's first CTA through
// distributed shared memory instead of fp32 partials in global memory and a sum kernel
// (nvfp4.sum_splits):
//
// - barrier.cluster phase 1 (relaxed arrive, wait) by the holders: every
//   CTA of the cluster runs, and every other thread of each CTA has exited
//   (the barrier waits for the cluster's non-exited threads only), so the
//   first CTA's ring memory is free;
// - CTAs 1.. store their fragments into the top of the first CTA's ring
//   data, above the K groups' sums (mapa, then 16-byte
//   st.shared::cluster), arrive at phase 2 (release) and exit;
// - the first CTA arrives (relaxed: it publishes nothing) and waits
//   (acquire), then adds the other splits' fragments to its own in rank
//   order (16-byte ld.shared), as the sum kernel adds the partials in
//   split order.
//
// nvfp4.wgmma.reduce_scatter_splits is the symmetric form: the tile's rows
// of A are cut into `splits` parts, every CTA puts the parts it does not
// own into their owners' exchange areas, arrives (release) and waits
// (acquire), then adds the parts it received to its own in rank order and
// stores that part: each CTA moves and adds (splits - 1) / splits of a tile.
//
// The sm_100a form (nvfp4.tcgen05.reduce_splits, GemmSm100.cpp) exchanges
// TMEM columns the same way.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "Lowerings.h"
#include "SplitExchange.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

SplitExchange::SplitExchange(KernelBuilder &k, Value ring, RingType type,
                             int64_t splits, int64_t threads, int64_t floats,
                             int64_t aTileBytes)
    : k(k), threads(threads), floats(floats), aTileBytes(aTileBytes),
      slotBytes(type.getSlotBytes()) {
  const int64_t bytes = SplitKAttr::exchangeBytes(splits, floats * threads);
  area = arith::AddIOp::create(
      k.b, ring, k.c32(type.getSplitExchangeStart(bytes, aTileBytes)));
}

Value SplitExchange::begin(bool releaseReads) {
  // Relaxed: phase 1 publishes nothing. What it separates is the first
  // CTA's last use of the exchange area from the later splits' puts into
  // it, and that use is complete when its holders arrive: the area held
  // A's slots, written by TMA copies whose mbarriers were waited for and
  // read by MMAs that were waited for (wgmma.wait_group, tcgen05.commit).
  // Plain loads that may still be in flight, the K groups' sums, lie
  // below the area. A release arrive would cost a MEMBAR.ALL.GPU per
  // thread (H100 SASS; performance.md GEMM v26), paid only when the
  // holders read ring slots with plain loads (b_tma).
  if (releaseReads)
    NVVM::ClusterArriveOp::create(k.b, UnitAttr());
  else
    NVVM::ClusterArriveRelaxedOp::create(k.b, UnitAttr());
  NVVM::ClusterWaitOp::create(k.b, UnitAttr());
  return NVVM::ClusterId::create(k.b, k.i32);
}

Value SplitExchange::offset(Value rankMinus1, int64_t j) {
  ImplicitLocOpBuilder &b = k.b;
  Value group = arith::AddIOp::create(
      b, arith::MulIOp::create(b, rankMinus1, k.c32(floats)), k.c32(4 * j));
  Value floatIndex =
      arith::AddIOp::create(b, arith::MulIOp::create(b, group, k.c32(threads)),
                            arith::MulIOp::create(b, k.threadIdX(), k.c32(4)));
  Value linear = arith::MulIOp::create(b, floatIndex, k.c32(4));
  if (!aTileBytes)
    return linear;
  // In the A tiles of the last slots: byte o at (o / T) x slot + o % T (a
  // 16-byte access never straddles two tiles: T is a multiple of 16).
  Value tile = k.c32(aTileBytes);
  return arith::AddIOp::create(
      b,
      arith::MulIOp::create(b, arith::DivUIOp::create(b, linear, tile),
                            k.c32(slotBytes)),
      arith::RemUIOp::create(b, linear, tile));
}

void SplitExchange::put(Value rank, int64_t j, Value part) {
  ImplicitLocOpBuilder &b = k.b;
  if (!first)
    first = NVVM::MapaOp::create(b, k.clusterPtr,
                                 LLVM::IntToPtrOp::create(b, k.sharedPtr, area),
                                 k.c32(0));
  Value address = LLVM::GEPOp::create(
      b, k.clusterPtr, k.i8, first,
      ValueRange{offset(arith::SubIOp::create(b, rank, k.c32(1)), j)});
  LLVM::StoreOp::create(b, part, address, 16);
}

void SplitExchange::endPuts() {
  NVVM::ClusterArriveOp::create(k.b, UnitAttr());
}

void SplitExchange::waitPuts() {
  // Relaxed: the first CTA publishes nothing at phase 2; only its wait
  // (acquire) orders the later splits' puts before its gets.
  NVVM::ClusterArriveRelaxedOp::create(k.b, UnitAttr());
  NVVM::ClusterWaitOp::create(k.b, UnitAttr());
}

Value SplitExchange::get(int64_t r, int64_t j) {
  return getFrom(k.c32(r - 1), j);
}

void SplitExchange::putTo(Value to, Value slot, int64_t j, Value part) {
  ImplicitLocOpBuilder &b = k.b;
  Value peer = NVVM::MapaOp::create(
      b, k.clusterPtr, LLVM::IntToPtrOp::create(b, k.sharedPtr, area), to);
  Value address = LLVM::GEPOp::create(b, k.clusterPtr, k.i8, peer,
                                      ValueRange{offset(slot, j)});
  LLVM::StoreOp::create(b, part, address, 16);
}

void SplitExchange::exchangePuts() {
  NVVM::ClusterArriveOp::create(k.b, UnitAttr());
  NVVM::ClusterWaitOp::create(k.b, UnitAttr());
}

Value SplitExchange::getFrom(Value slot, int64_t j) {
  ImplicitLocOpBuilder &b = k.b;
  Value address = arith::AddIOp::create(b, area, offset(slot, j));
  return LLVM::LoadOp::create(b, VectorType::get({4}, k.f32),
                              LLVM::IntToPtrOp::create(b, k.sharedPtr, address),
                              16);
}

namespace {

struct WgmmaReduceSplitsLowering : OpConversionPattern<WgmmaReduceSplitsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaReduceSplitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    VectorType accType = op.getAcc().getType();
    SmallVector<Value> acc = k.unpack(adaptor.getAcc());
    const int64_t groups = accType.getNumElements() / 4;
    SplitExchange exchange(k, adaptor.getRing(), op.getRing().getType(),
                           op.getSplits(), op.getWarpgroups() * 128,
                           accType.getNumElements(), op.getATiles().value_or(0));
    Value rank = exchange.begin(op.getReleaseReads());
    Value isFirst =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, rank, k.c32(0));
    auto ifOp = scf::IfOp::create(b, TypeRange{accType}, isFirst,
                                  /*withElseRegion=*/true);
    {
      // The first CTA: the others' fragments, added in rank order.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      exchange.waitPuts();
      SmallVector<Value> sum(acc);
      for (int64_t r = 1; r < static_cast<int64_t>(op.getSplits()); ++r)
        for (int64_t j = 0; j < groups; ++j) {
          Value part = exchange.get(r, j);
          for (int64_t e = 0; e < 4; ++e)
            sum[4 * j + e] =
                arith::AddFOp::create(b, sum[4 * j + e], k.extract(part, e));
        }
      scf::YieldOp::create(b, k.pack(accType, sum));
    }
    {
      // The others: their fragments into the first CTA's ring.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.elseBlock());
      for (int64_t j = 0; j < groups; ++j)
        exchange.put(rank, j,
                     k.pack(VectorType::get({4}, k.f32),
                            ArrayRef<Value>(acc).slice(4 * j, 4)));
      exchange.endPuts();
      scf::YieldOp::create(b, adaptor.getAcc());
    }
    rewriter.replaceOp(op, {isFirst, ifOp.getResult(0)});
    return success();
  }
};

struct WgmmaReduceScatterSplitsLowering
    : OpConversionPattern<WgmmaReduceScatterSplitsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaReduceScatterSplitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    SmallVector<Value> acc = k.unpack(adaptor.getAcc());
    const int64_t splits = op.getSplits();
    const int64_t partValues = static_cast<int64_t>(acc.size()) / splits;
    const int64_t partGroups = partValues / 4;
    SplitExchange exchange(k, adaptor.getRing(), op.getRing().getType(), splits,
                           op.getWarpgroups() * 128, partValues,
                           op.getATiles().value_or(0));
    Value rank = exchange.begin(op.getReleaseReads());
    auto quad = [&](int64_t q, int64_t j) {
      return k.pack(VectorType::get({4}, k.f32),
                    ArrayRef<Value>(acc).slice(4 * (q * partGroups + j), 4));
    };
    auto is = [&](arith::CmpIPredicate p, Value x, Value y) {
      return arith::CmpIOp::create(b, p, x, y);
    };
    // Part q (q != rank) to its owner, as sender slot rank - (rank > q).
    for (int64_t q = 0; q < splits; ++q) {
      Value to = k.c32(q);
      auto ifOp = scf::IfOp::create(b, is(arith::CmpIPredicate::ne, rank, to),
                                    /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value slot = arith::SubIOp::create(
          b, rank,
          arith::ExtUIOp::create(b, k.i32,
                                 is(arith::CmpIPredicate::ugt, rank, to)));
      for (int64_t j = 0; j < partGroups; ++j)
        exchange.putTo(to, slot, j, quad(q, j));
    }
    exchange.exchangePuts();
    // This CTA's own part, and the sum of every split's in rank order: from
    // sender q's slot q - (q > rank) (clamped where q = rank, whose load is
    // not used), or its own values where q = rank.
    SmallVector<Value> isRank, slotOf;
    for (int64_t q = 0; q < splits; ++q) {
      isRank.push_back(is(arith::CmpIPredicate::eq, rank, k.c32(q)));
      Value fromQ = is(arith::CmpIPredicate::ult, rank, k.c32(q));
      slotOf.push_back(arith::MinUIOp::create(
          b,
          arith::SubIOp::create(b, k.c32(q),
                                arith::ExtUIOp::create(b, k.i32, fromQ)),
          k.c32(splits - 2)));
    }
    SmallVector<Value> sum;
    for (int64_t j = 0; j < partGroups; ++j) {
      SmallVector<Value> own(4);
      for (int64_t e = 0; e < 4; ++e) {
        own[e] = acc[4 * j + e];
        for (int64_t q = 1; q < splits; ++q)
          own[e] = arith::SelectOp::create(
              b, isRank[q], acc[4 * (q * partGroups + j) + e], own[e]);
      }
      SmallVector<Value> total(4);
      for (int64_t q = 0; q < splits; ++q) {
        Value got = exchange.getFrom(slotOf[q], j);
        Value mine = isRank[q];
        for (int64_t e = 0; e < 4; ++e) {
          Value v = arith::SelectOp::create(b, mine, own[e], k.extract(got, e));
          total[e] = q == 0 ? v : arith::AddFOp::create(b, total[e], v);
        }
      }
      llvm::append_range(sum, total);
    }
    Value rowOffset = arith::MulIOp::create(b, rank, k.c32(2 * partValues));
    rewriter.replaceOp(op, {rowOffset, k.pack(op.getPart().getType(), sum)});
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateReduceSplitsPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<WgmmaReduceSplitsLowering, WgmmaReduceScatterSplitsLowering>(
      converter, patterns.getContext());
}
