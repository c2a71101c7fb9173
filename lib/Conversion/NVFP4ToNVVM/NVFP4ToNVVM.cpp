//===- NVFP4ToNVVM.cpp - lower CTA-level nvfp4 ops to NVVM ----------------===//
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

#include "nvfp4/Conversion/Passes.h"

#include "nvfp4/Target/KernelModule.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_CONVERTNVFP4TONVVMPASS
#include "nvfp4/Dialect/NVFP4/ConversionPasses.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The CTA-level ops (nvfp4-tile) and the per-thread ops of
/// nvfp4-software-pipeline this pass lowers.
bool isCtaLevelOp(Operation *op) {
  return op->hasTrait<OpTrait::nvfp4::CtaLevel>();
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
      // Each MMA's ops exist for the chips that have it: say so rather
      // than "failed to legalize". A tcgen05 tile is always pipelined.
      const GpuTargetInfo &info = getTargetInfo(**target);
      WalkResult wrongChip = module.walk([&](Operation *op) {
        auto tile = dyn_cast<GemmTileOp>(op);
        if (tile && tile.getTcgen05Mainloop()) {
          op->emitOpError() << "has a ring (a #nvfp4.tcgen05_mainloop): run "
                               "nvfp4-software-pipeline before the conversion";
          return WalkResult::interrupt();
        }
        bool wgmma = op->hasTrait<OpTrait::nvfp4::NeedsWgmma>();
        bool tcgen05 = op->hasTrait<OpTrait::nvfp4::NeedsTcgen05>();
        if ((!wgmma || info.hasWgmma) && (!tcgen05 || info.hasTcgen05))
          return WalkResult::advance();
        op->emitOpError() << "is lowered with "
                          << (wgmma ? "wgmma (sm_90a)" : "tcgen05 (sm_100a)")
                          << " only, but gpu.module @" << module.getName()
                          << " targets " << getChip(**target);
        return WalkResult::interrupt();
      });
      if (wrongChip.wasInterrupted()) {
        failedAny = true;
        continue;
      }
      TypeConverter converter;
      populateNVFP4ToNVVMTypeConversions(converter);
      RewritePatternSet patterns(&getContext());
      populateNVFP4ToNVVMConversionPatterns(converter, patterns, **target);
      ConversionTarget conversionTarget(getContext());
      conversionTarget.markUnknownOpDynamicallyLegal(
          [](Operation *op) { return !isCtaLevelOp(op); });
      addEpilogueMathIllegalOps(conversionTarget);
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

void mlir::nvfp4::populateNVFP4ToNVVMTypeConversions(TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  addRingTypeConversion(converter);
  addTmemTypeConversion(converter);
  addTensorMapTypeConversion(converter);
}

void mlir::nvfp4::populateNVFP4ToNVVMConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    GpuTarget target) {
  populateGemvPatterns(patterns, target);
  populateSumSplitsPatterns(patterns);
  populateGroupTilePatterns(patterns);
  populateBlockScalesPatterns(patterns);
  populateGatherScalesPatterns(patterns);
  populateQuantizePatterns(patterns, target);
  populateRingPatterns(converter, patterns);
  populateEpilogueMathPatterns(patterns);
  // Each chip's MMA: wgmma (sm_90a) or tcgen05 (sm_100a).
  if (getTargetInfo(target).hasWgmma) {
    populateGemmSm90Patterns(patterns);
    populateWgmmaPatterns(converter, patterns);
    populateReduceSplitsPatterns(converter, patterns);
  }
  if (getTargetInfo(target).hasTcgen05)
    populateGemmSm100Patterns(converter, patterns);
}
