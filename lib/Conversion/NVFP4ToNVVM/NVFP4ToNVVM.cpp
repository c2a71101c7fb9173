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

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_CONVERTNVFP4TONVVMPASS
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

struct ConvertNVFP4ToNVVMPass
    : nvfp4::impl::ConvertNVFP4ToNVVMPassBase<ConvertNVFP4ToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    // Each gpu.module is lowered for the chip of its #nvvm.target.
    SmallVector<gpu::GPUModuleOp> modules;
    if (auto self = dyn_cast<gpu::GPUModuleOp>(getOperation()))
      modules.push_back(self);
    else
      getOperation()->walk(
          [&](gpu::GPUModuleOp module) { modules.push_back(module); });
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (isa<GemvTileOp, GemmTileOp, DecodeATileOp, SumSplitsOp>(op) &&
          !op->getParentOfType<gpu::GPUModuleOp>()) {
        op->emitOpError() << "must be inside a gpu.module with an "
                             "#nvvm.target to be lowered; run nvfp4-tile";
        failedAny = true;
      }
    });
    for (gpu::GPUModuleOp module : modules) {
      bool hasWork = false;
      module.walk([&](Operation *op) {
        hasWork |= isa<GemvTileOp, GemmTileOp, DecodeATileOp, SumSplitsOp>(op);
      });
      if (!hasWork)
        continue;
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
      RewritePatternSet patterns(&getContext());
      populateNVFP4ToNVVMConversionPatterns(patterns, **target);
      ConversionTarget conversionTarget(getContext());
      conversionTarget
          .addIllegalOp<GemvTileOp, GemmTileOp, DecodeATileOp, SumSplitsOp>();
      conversionTarget.markUnknownOpDynamicallyLegal(
          [](Operation *) { return true; });
      if (failed(applyPartialConversion(module, conversionTarget,
                                        std::move(patterns))))
        failedAny = true;
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace

void mlir::nvfp4::populateNVFP4ToNVVMConversionPatterns(
    RewritePatternSet &patterns, GpuTarget target) {
  populateGemvPatterns(patterns, target);
  populateSumSplitsPatterns(patterns);
  // The GEMM is lowered with wgmma only so far (nvfp4-plan says so for
  // sm_100a); a gemm_tile left for sm_100a fails to legalize.
  if (getTargetInfo(target).hasWgmma)
    populateGemmSm90Patterns(patterns);
}
