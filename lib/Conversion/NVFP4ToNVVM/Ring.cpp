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
// barrier (expect_tx); waits are try_wait.parity loops.
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

enum class Barrier { Full = 0, Empty = 1 };

/// NVPTX's shared::cluster address space.
constexpr unsigned kSharedClusterSpace = 7;

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
      }
      NVVM::FenceMbarrierInitOp::create(b);
    }
    gpu::BarrierOp::create(b);
    rewriter.replaceOp(op, base);
    return success();
  }
};

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
    NVVM::MBarrierArriveExpectTxOp::create(
        b, Type(), full, k.c32(ring.getSlotBytes()),
        NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::CTA),
        b.getBoolAttr(false), Value());
    // The TMA copy's destination is a shared::cluster address (on sm_90a
    // only that form selects), its coordinates innermost first.
    Value destination = LLVM::AddrSpaceCastOp::create(
        b, LLVM::LLVMPointerType::get(b.getContext(), kSharedClusterSpace),
        LLVM::IntToPtrOp::create(b, k.sharedPtr,
                                 ringSlotAddress(k, ring, base, slot)));
    SmallVector<Value> coordinates(llvm::reverse(adaptor.getCoordinates()));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, destination, adaptor.getMap(), coordinates, full,
        /*im2colOffsets=*/ValueRange(), /*multicastMask=*/Value(),
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
        /*isCTAOnly=*/false, /*group=*/NVVM::CTAGroupKindAttr(),
        /*predicate=*/Value());
    rewriter.eraseOp(op);
    return success();
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
    NVVM::MBarrierArriveOp::create(
        b, Type(),
        barrierOf(k, op.getRing().getType(), adaptor.getRing(),
                  adaptor.getSlot(), Barrier::Empty),
        Value());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

Value mlir::nvfp4::ringSlotAddress(KernelBuilder &k, RingType ring, Value base,
                                   Value slot) {
  return arith::AddIOp::create(
      k.b, base, arith::MulIOp::create(k.b, slot, k.c32(ring.getSlotBytes())));
}

void mlir::nvfp4::populateRingPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<RingAllocLowering, RingFillLowering,
               RingWaitLowering<RingWaitOp, Barrier::Full>,
               RingWaitLowering<RingAcquireOp, Barrier::Empty>,
               RingReleaseLowering>(converter, patterns.getContext());
}

void mlir::nvfp4::addRingTypeConversion(TypeConverter &converter) {
  converter.addConversion([](RingType ring) -> Type {
    return IntegerType::get(ring.getContext(), 32);
  });
}
