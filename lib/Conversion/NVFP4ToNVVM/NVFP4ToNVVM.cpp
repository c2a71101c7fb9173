//===- NVFP4ToNVVM.cpp - lower CTA-level nvfp4 ops to NVVM
//-----------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The convert-nvfp4-to-nvvm pass: collects the lowering of each CTA-level
// op for the target (GemvLowering.cpp, GemmSm90.cpp) and applies them.
// Shared pieces: KernelBuilder.h (typed builders), Fp4Decode.h (the fp4 and
// scale decodes per target).
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Conversion/NVFP4ToNVVM/NVFP4ToNVVM.h"

#include "Lowerings.h"

#include "nvfp4/Transforms/Passes.h"

#include "nvfp4/Target/KernelModule.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_CONVERTNVFP4TONVVMPASS
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The CTA-level ops (nvfp4-tile) and the per-thread ops of
/// nvfp4-software-pipeline this pass lowers.
bool isCtaLevelOp(Operation *op) {
  return isa<GemvTileOp, GemmTileOp, DecodeATileOp, SumSplitsOp, RingAllocOp,
             RingFillOp, RingAcquireOp, RingWaitOp, RingReleaseOp,
             RingRetireOp,
             WgmmaLoadBOp, WgmmaDecodeBOp, WgmmaMmaOp, WgmmaReduceKGroupsOp,
             WgmmaStoreOp>(op);
}

struct ConvertNVFP4ToNVVMPass
    : nvfp4::impl::ConvertNVFP4ToNVVMPassBase<ConvertNVFP4ToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    // The gpu.modules holding CTA-level ops, each lowered below for the
    // chip of its #nvvm.target; such an op outside any gpu.module is an
    // error.
    llvm::SetVector<gpu::GPUModuleOp> modules;
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (!isCtaLevelOp(op))
        return;
      auto module = op->getParentOfType<gpu::GPUModuleOp>();
      if (!module) {
        op->emitOpError() << "must be inside a gpu.module with an "
                             "#nvvm.target to be lowered; run nvfp4-tile";
        failedAny = true;
        return;
      }
      modules.insert(module);
    });
    for (gpu::GPUModuleOp module : modules) {
      FailureOr<std::optional<GpuTarget>> target =
          getKernelModuleTarget(module, "convert-nvfp4-to-nvvm");
      if (failed(target)) {
        failedAny = true;
        continue;
      }
      if (!*target) {
        module.emitError() << "convert-nvfp4-to-nvvm: gpu.module @"
                           << module.getName()
                           << " holds nvfp4 ops but has no #nvvm.target to "
                              "say which chip they are for (nvfp4-tile "
                              "creates its module with one)";
        failedAny = true;
        continue;
      }
      // The GEMM's ops exist for wgmma only so far: say so rather than
      // "failed to legalize".
      if (!getTargetInfo(**target).hasWgmma) {
        WalkResult wgmmaOps = module.walk([&](Operation *op) {
          if (!isa<GemmTileOp, DecodeATileOp, WgmmaLoadBOp, WgmmaDecodeBOp,
                   WgmmaMmaOp, WgmmaReduceKGroupsOp, WgmmaStoreOp>(op))
            return WalkResult::advance();
          op->emitOpError() << "is lowered with wgmma (sm_90a) only, but "
                               "gpu.module @"
                            << module.getName() << " targets "
                            << getChip(**target);
          return WalkResult::interrupt();
        });
        if (wgmmaOps.wasInterrupted()) {
          failedAny = true;
          continue;
        }
      }
      TypeConverter converter;
      populateNVFP4ToNVVMTypeConversions(converter);
      RewritePatternSet patterns(&getContext());
      populateNVFP4ToNVVMConversionPatterns(converter, patterns, **target);
      ConversionTarget conversionTarget(getContext());
      conversionTarget.markUnknownOpDynamicallyLegal(
          [](Operation *op) { return !isCtaLevelOp(op); });
      if (failed(applyPartialConversion(module, conversionTarget,
                                        std::move(patterns))))
        failedAny = true;
    }
    // Tensor-map parameters cross convert-gpu-to-nvvm as plain pointers:
    // say which they are for nvfp4-tensor-map-params.
    getOperation()->walk([](gpu::GPUFuncOp kernel) {
      if (kernel.isKernel())
        markTensorMapParams(kernel);
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace

void mlir::nvfp4::populateNVFP4ToNVVMTypeConversions(
    TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  addRingTypeConversion(converter);
  addTensorMapTypeConversion(converter);
}

void mlir::nvfp4::populateNVFP4ToNVVMConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    GpuTarget target) {
  populateGemvPatterns(patterns, target);
  populateSumSplitsPatterns(patterns);
  populateRingPatterns(converter, patterns);
  // The GEMM is lowered with wgmma only so far (nvfp4-plan says so for
  // sm_100a); a gemm_tile left for sm_100a fails to legalize.
  if (getTargetInfo(target).hasWgmma)
    populateGemmSm90Patterns(converter, patterns);
}
