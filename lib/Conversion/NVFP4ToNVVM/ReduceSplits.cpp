//===- ReduceSplits.cpp - split-K's tiles added on chip in a cluster ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Lowers nvfp4.wgmma.reduce_splits (plan `split_cluster`): the split_k CTAs
// of one tile are a thread-block cluster, and the threads that hold each
// CTA's tile sum (wgmma's register fragments) hand them to the cluster's
// first CTA through distributed shared memory instead of fp32 partials in
// global memory and a sum kernel (nvfp4.sum_splits):
//
// - barrier.cluster phase 1 (arrive, wait) by the holders: every CTA of the
//   cluster runs, and every other thread of each CTA has exited (the
//   barrier waits for the cluster's non-exited threads only), so the first
//   CTA's ring memory is free;
// - CTAs 1.. store their fragments into the first CTA's ring (mapa, then
//   16-byte st.shared::cluster) and arrive at phase 2 (release) and exit;
// - the first CTA arrives and waits (acquire), then adds the other splits'
//   fragments to its own in rank order (16-byte ld.shared), as the sum
//   kernel adds the partials in split order.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "Lowerings.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// NVPTX's shared::cluster address space (mapa's result).
constexpr unsigned kSharedClusterSpace = 7;

struct WgmmaReduceSplitsLowering
    : OpConversionPattern<WgmmaReduceSplitsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaReduceSplitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    VectorType accType = op.getAcc().getType();
    SmallVector<Value> acc = k.unpack(adaptor.getAcc());
    const int64_t accCount = accType.getNumElements();
    const int64_t threads = op.getWarpgroups() * 128;
    auto v4f32 = VectorType::get({4}, k.f32);
    // Thread t's floats 4j .. 4j + 3 of split r (r >= 1) sit at byte
    // 4 x (((r - 1) x accCount + 4j) x T + 4t): for each j a warp's 16-byte
    // accesses are contiguous.
    Value t4 = arith::MulIOp::create(b, k.threadIdX(), k.c32(16));
    auto offset = [&](Value rankMinus1, int64_t j) -> Value {
      Value floats = arith::MulIOp::create(
          b,
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, rankMinus1, k.c32(accCount)),
              k.c32(4 * j)),
          k.c32(threads));
      return arith::AddIOp::create(
          b, arith::MulIOp::create(b, floats, k.c32(4)), t4);
    };

    // Phase 1: the cluster runs, and nothing else uses any CTA's ring.
    NVVM::ClusterArriveOp::create(b, UnitAttr());
    NVVM::ClusterWaitOp::create(b, UnitAttr());

    Value rank = NVVM::ClusterId::create(b, k.i32);
    Value isFirst =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, rank, k.c32(0));
    auto ifOp = scf::IfOp::create(b, TypeRange{accType}, isFirst,
                                  /*withElseRegion=*/true);
    {
      // The first CTA: phase 2 completes once every other CTA's holders
      // stored their fragments (or exited); add them in rank order.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      NVVM::ClusterArriveOp::create(b, UnitAttr());
      NVVM::ClusterWaitOp::create(b, UnitAttr());
      SmallVector<Value> sum(acc);
      for (int64_t r = 1; r < op.getSplits(); ++r)
        for (int64_t j = 0; j < accCount / 4; ++j) {
          Value address =
              arith::AddIOp::create(b, adaptor.getRing(), offset(k.c32(r - 1), j));
          Value part = LLVM::LoadOp::create(
              b, v4f32, LLVM::IntToPtrOp::create(b, k.sharedPtr, address), 16);
          for (int64_t e = 0; e < 4; ++e)
            sum[4 * j + e] =
                arith::AddFOp::create(b, sum[4 * j + e], k.extract(part, e));
        }
      scf::YieldOp::create(b, k.pack(accType, sum));
    }
    {
      // The others: store into the first CTA's ring, then arrive (release
      // orders the stores before it) and exit without waiting.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.elseBlock());
      Value local = LLVM::IntToPtrOp::create(b, k.sharedPtr, adaptor.getRing());
      auto clusterPtr =
          LLVM::LLVMPointerType::get(b.getContext(), kSharedClusterSpace);
      Value first = NVVM::MapaOp::create(b, clusterPtr, local, k.c32(0));
      Value rankMinus1 = arith::SubIOp::create(b, rank, k.c32(1));
      for (int64_t j = 0; j < accCount / 4; ++j) {
        Value part = k.pack(v4f32, ArrayRef<Value>(acc).slice(4 * j, 4));
        Value address = LLVM::GEPOp::create(b, clusterPtr, k.i8, first,
                                            ValueRange{offset(rankMinus1, j)});
        LLVM::StoreOp::create(b, part, address, 16);
      }
      NVVM::ClusterArriveOp::create(b, UnitAttr());
      scf::YieldOp::create(b, adaptor.getAcc());
    }
    rewriter.replaceOp(op, ifOp.getResult(0));
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateReduceSplitsPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<WgmmaReduceSplitsLowering>(converter, patterns.getContext());
}
