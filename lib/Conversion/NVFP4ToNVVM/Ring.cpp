//===- Ring.cpp - the pipeline's shared-memory ring on mbarriers ----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Lowers the ring ops of nvfp4-software-pipeline (nvfp4.ring.*), for every
// target. A !nvfp4.ring becomes the 32-bit shared-memory address of its
// first slot: the kernel's dynamic shared memory rounded up to 1024 bytes
// (the 128B swizzle works on absolute addresses). Slot s is at
// base + s x slot_bytes; after the ring's data (max(stages x slot_bytes,
// scratch_bytes)) come the 8-byte mbarriers full[0 .. stages) and
// empty[0 .. stages). Fills are TMA tile copies (cp.async.bulk.tensor,
// the map a by-value kernel parameter) that complete their slot's full
// barrier (expect_tx), or for a slot of several parts an expect followed
// by TMA tile copies and 1-D bulk copies (cp.async.bulk); waits are
// try_wait.parity loops.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "Lowerings.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Suspend-time hint of the mbarrier waits, in ns (ptxas's own loops use
/// a similar bound; it only limits how long one try_wait may sleep).
constexpr int64_t kWaitHintNs = 10000000;

/// A slot's mbarriers: full, empty and (a CTA pair's ring) peer_full,
/// each an array of `stages` after the ring's data.
enum class Barrier { Full = 0, Empty = 1, PeerFull = 2 };

/// The mbarrier of `slot` (i32) as a shared-memory pointer.
Value barrierOf(KernelBuilder &k, RingType ring, Value base, Value slot,
                Barrier which) {
  ImplicitLocOpBuilder &b = k.b;
  Value address = arith::AddIOp::create(
      b,
      arith::AddIOp::create(
          b, base,
          k.c32(ring.getDataBytes() +
                8 * ring.getStages() * static_cast<int64_t>(which))),
      arith::MulIOp::create(b, slot, k.c32(8)));
  return LLVM::IntToPtrOp::create(b, k.sharedPtr, address);
}

/// A shared-memory address (i32) as a shared::cluster pointer, the form
/// the bulk copies' destinations take (on sm_90a only that form selects).
Value clusterPointer(KernelBuilder &k, Value address) {
  return LLVM::AddrSpaceCastOp::create(
      k.b, k.clusterPtr, LLVM::IntToPtrOp::create(k.b, k.sharedPtr, address));
}

/// An L2 cache policy (createpolicy.fractional.L2::evict_last.b64, fraction
/// 1.0) under which the lines an access brings in are evicted after
/// evict_normal ones. LLVM 22's NVVM dialect has no op for createpolicy.
Value l2EvictLastPolicy(KernelBuilder &k) {
  MLIRContext *ctx = k.b.getContext();
  return LLVM::InlineAsmOp::create(
             k.b, k.i64, ValueRange(),
             k.b.getStringAttr(
                 "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;"),
             k.b.getStringAttr("=l"), /*has_side_effects=*/UnitAttr(),
             /*is_align_stack=*/UnitAttr(),
             LLVM::TailCallKindAttr::get(ctx, LLVM::TailCallKind::None),
             LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
             ArrayAttr())
      .getResult(0);
}

/// Waits until the phase of parity `phase` of `barrier` completed, with
/// acquire semantics at cluster scope (mbarrier.try_wait.parity
/// .acquire.cluster, in a loop): a pair's first CTA waiting for the second
/// CTA's release-at-cluster-scope arrivals. LLVM 22's
/// nvvm.mbarrier.try_wait.parity has no scope (its PTX is .acquire.cta).
void tryWaitParityAcquireCluster(KernelBuilder &k, Value barrier, Value phase) {
  MLIRContext *ctx = k.b.getContext();
  Value address = LLVM::PtrToIntOp::create(k.b, k.i32, barrier);
  LLVM::InlineAsmOp::create(
      k.b, TypeRange(), ValueRange{address, phase, k.c32(kWaitHintNs)},
      k.b.getStringAttr(
          "{\n.reg .pred P1;\nLAB_WAIT:\n"
          "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, "
          "[$0], $1, $2;\n@P1 bra DONE;\nbra LAB_WAIT;\nDONE:\n}"),
      k.b.getStringAttr("r,r,r,~{memory}"),
      /*has_side_effects=*/UnitAttr::get(ctx),
      /*is_align_stack=*/UnitAttr(),
      LLVM::TailCallKindAttr::get(ctx, LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT), ArrayAttr());
}

/// A TMA tile copy of `map` at `coordinates` (innermost first) to the
/// shared address `destination`, completing `barrier`'s transaction, under
/// the L2 cache policy `l2Hint` (if any).
void tensorCopy(KernelBuilder &k, Value destination, Value map,
                ValueRange coordinates, Value barrier, Value l2Hint = Value()) {
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      k.b, clusterPointer(k, destination), map, coordinates, barrier,
      /*im2colOffsets=*/ValueRange(), /*multicastMask=*/Value(), l2Hint,
      NVVM::TMALoadMode::TILE,
      /*isCTAOnly=*/false, /*group=*/NVVM::CTAGroupKindAttr(),
      /*predicate=*/Value());
}

struct RingAllocLowering : OpConversionPattern<RingAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RingAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->getParentOfType<gpu::GPUModuleOp>())
      return op.emitOpError() << "must be inside a gpu.module (the ring is "
                                 "its kernel's dynamic shared memory)";
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    RingType ring = op.getType();
    Value dynamic = k.dynamicSharedMemory(rewriter, op, "__nvfp4_dynamic_smem");
    Value base32 = LLVM::PtrToIntOp::create(b, k.i32, dynamic);
    Value base = arith::AndIOp::create(
        b, arith::AddIOp::create(b, base32, k.c32(1023)), k.c32(~1023));
    Value isThread0 = arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                            k.threadIdX(), k.c32(0));
    {
      auto ifOp = scf::IfOp::create(b, isThread0, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      for (int64_t s = 0; s < ring.getStages(); ++s) {
        NVVM::MBarrierInitOp::create(
            b, barrierOf(k, ring, base, k.c32(s), Barrier::Full), k.c32(1),
            Value());
        NVVM::MBarrierInitOp::create(
            b, barrierOf(k, ring, base, k.c32(s), Barrier::Empty),
            k.c32(ring.getConsumers()), Value());
        // A pair's first CTA: one arrival per use from the second.
        if (ring.getCtaGroup() == 2)
          NVVM::MBarrierInitOp::create(
              b, barrierOf(k, ring, base, k.c32(s), Barrier::PeerFull),
              k.c32(1), Value());
      }
      NVVM::FenceMbarrierInitOp::create(b);
    }
    gpu::BarrierOp::create(b);
    rewriter.replaceOp(op, base);
    return success();
  }
};

/// Arms a slot's full barrier (`full`) for the slot's bytes: the one
/// arrival of its phase, expecting that many transaction bytes.
void arriveExpectSlot(KernelBuilder &k, RingType ring, Value full,
                      int64_t bytes = 0) {
  NVVM::MBarrierArriveExpectTxOp::create(
      k.b, Type(), full, k.c32(bytes ? bytes : ring.getSlotBytes()),
      NVVM::MemScopeKindAttr::get(k.b.getContext(), NVVM::MemScopeKind::CTA),
      k.b.getBoolAttr(false), Value());
}

struct RingFillLowering : OpConversionPattern<RingFillOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RingFillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    RingType ring = op.getRing().getType();
    Value base = adaptor.getRing(), slot = adaptor.getSlot();
    Value full = barrierOf(k, ring, base, slot, Barrier::Full);
    arriveExpectSlot(k, ring, full);
    // The TMA copy's destination is a shared::cluster address (on sm_90a
    // only that form selects), its coordinates innermost first.
    Value destination = ringSlotAddress(k, ring, base, slot);
    SmallVector<Value> coordinates(llvm::reverse(adaptor.getCoordinates()));
    // Every CTA reads every tile of A (the activations) while the weights
    // stream through L2 once: A's lines are kept longer than B's.
    tensorCopy(k, destination, adaptor.getMap(), coordinates, full,
               l2EvictLastPolicy(k));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Arms a slot's full barrier for the copies that follow.
struct RingExpectLowering : OpConversionPattern<RingExpectOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RingExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    RingType ring = op.getRing().getType();
    arriveExpectSlot(
        k, ring,
        barrierOf(k, ring, adaptor.getRing(), adaptor.getSlot(), Barrier::Full),
        static_cast<int64_t>(op.getBytes().value_or(0)));
    rewriter.eraseOp(op);
    return success();
  }
};

/// A copy into part of a slot (ring.copy, ring.copy_bytes): the shared
/// address `offset` bytes into the slot, and the slot's full barrier that
/// the copy's bytes complete. `emit` issues the copy.
template <typename OpTy>
struct RingPartCopyLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;

  virtual void emit(KernelBuilder &k, OpTy op, Adaptor adaptor,
                    Value destination, Value full) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    RingType ring = op.getRing().getType();
    Value base = adaptor.getRing(), slot = adaptor.getSlot();
    Value destination = arith::AddIOp::create(
        b, ringSlotAddress(k, ring, base, slot), k.c32(op.getOffset()));
    emit(k, op, adaptor, destination,
         barrierOf(k, ring, base, slot, Barrier::Full));
    rewriter.eraseOp(op);
    return success();
  }
};

/// A TMA tile copy into part of a slot.
struct RingCopyLowering : RingPartCopyLowering<RingCopyOp> {
  using RingPartCopyLowering::RingPartCopyLowering;

  void emit(KernelBuilder &k, RingCopyOp op, OpAdaptor adaptor,
            Value destination, Value full) const override {
    SmallVector<Value> coordinates(llvm::reverse(adaptor.getCoordinates()));
    tensorCopy(k, destination, adaptor.getMap(), coordinates, full,
               op.getKeepInL2() ? l2EvictLastPolicy(k) : Value());
  }
};

/// A 1-D bulk copy (cp.async.bulk.shared::cluster.global.mbarrier).
struct RingCopyBytesLowering : RingPartCopyLowering<RingCopyBytesOp> {
  using RingPartCopyLowering::RingPartCopyLowering;

  void emit(KernelBuilder &k, RingCopyBytesOp op, OpAdaptor adaptor,
            Value destination, Value full) const override {
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        k.b, clusterPointer(k, destination),
        k.offset(k.pointer(adaptor.getSource()), adaptor.getSourceOffset()),
        full, k.c32(op.getBytes()),
        /*multicastMask=*/Value(), /*l2CacheHint=*/Value());
  }
};

/// ring.wait (full) and ring.acquire (empty): a try_wait.parity loop.
template <typename OpTy, Barrier which>
struct RingWaitLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    NVVM::MBarrierTryWaitParityOp::create(
        b,
        barrierOf(k, op.getRing().getType(), adaptor.getRing(),
                  adaptor.getSlot(), which),
        adaptor.getPhase(), k.c32(kWaitHintNs));
    // A pair's first CTA: the second CTA's bytes of the slot too, acquired
    // at cluster scope (the second CTA's arrival releases at that scope).
    if constexpr (std::is_same_v<OpTy, RingWaitOp>)
      if (op.getPeer())
        tryWaitParityAcquireCluster(
            k,
            barrierOf(k, op.getRing().getType(), adaptor.getRing(),
                      adaptor.getSlot(), Barrier::PeerFull),
            adaptor.getPhase());
    rewriter.eraseOp(op);
    return success();
  }
};

/// ring.forward: one arrival, released at cluster scope, on peer_full of
/// the same slot in the pair's first CTA (cluster rank with bit 0 clear).
struct RingForwardLowering : OpConversionPattern<RingForwardOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RingForwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Value first =
        arith::AndIOp::create(b, NVVM::ClusterId::create(b, k.i32), k.c32(~1));
    Value peerFull = NVVM::MapaOp::create(
        b, k.clusterPtr,
        barrierOf(k, op.getRing().getType(), adaptor.getRing(),
                  adaptor.getSlot(), Barrier::PeerFull),
        first);
    NVVM::MBarrierArriveOp::create(
        b, Type(), peerFull, Value(),
        NVVM::MemScopeKindAttr::get(b.getContext(),
                                    NVVM::MemScopeKind::CLUSTER),
        b.getBoolAttr(false));
    rewriter.eraseOp(op);
    return success();
  }
};

struct RingReleaseLowering : OpConversionPattern<RingReleaseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RingReleaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    RingType ring = op.getRing().getType();
    Value empty = barrierOf(k, ring, adaptor.getRing(), adaptor.getSlot(),
                            Barrier::Empty);
    NVVM::MBarrierArriveOp::create(b, Type(), empty, Value());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

Value mlir::nvfp4::ringEmptyBarrier(KernelBuilder &k, RingType ring, Value base,
                                    Value slot) {
  return barrierOf(k, ring, base, slot, Barrier::Empty);
}

Value mlir::nvfp4::ringSlotAddress(KernelBuilder &k, RingType ring, Value base,
                                   Value slot) {
  return arith::AddIOp::create(
      k.b, base, arith::MulIOp::create(k.b, slot, k.c32(ring.getSlotBytes())));
}

void mlir::nvfp4::populateRingPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<RingAllocLowering, RingFillLowering, RingExpectLowering,
               RingCopyLowering, RingCopyBytesLowering,
               RingWaitLowering<RingWaitOp, Barrier::Full>,
               RingWaitLowering<RingAcquireOp, Barrier::Empty>,
               RingForwardLowering, RingReleaseLowering>(converter,
                                                         patterns.getContext());
}

void mlir::nvfp4::addRingTypeConversion(TypeConverter &converter) {
  converter.addConversion([](RingType ring) -> Type {
    return IntegerType::get(ring.getContext(), 32);
  });
}
