//===- NVFP4ToNVVM.cpp - lower CTA-level nvfp4 ops to NVVM -----------------===//
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
    std::optional<GpuTarget> gpu = parseGpuTarget(target);
    if (!gpu) {
      getOperation()->emitError()
          << "convert-nvfp4-to-nvvm: unsupported target '" << target
          << "'; supported targets: " << supportedGpuTargets();
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateNVFP4ToNVVMConversionPatterns(patterns, *gpu);
    ConversionTarget conversionTarget(getContext());
    conversionTarget.addIllegalOp<GemvTileOp, GemmTileOp, DecodeATileOp>();
    conversionTarget.markUnknownOpDynamicallyLegal(
        [](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), conversionTarget,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::nvfp4::populateNVFP4ToNVVMConversionPatterns(
    RewritePatternSet &patterns, GpuTarget target) {
  populateGemvPatterns(patterns, target);
  // The GEMM is lowered with wgmma only so far (nvfp4-plan says so for
  // sm_100a); a gemm_tile left for sm_100a fails to legalize.
  if (getTargetInfo(target).hasWgmma)
    populateGemmSm90Patterns(patterns);
}
