//===- SoftwarePipeline.cpp - multi-stage producer/consumer K loops -------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4-software-pipeline: a CTA-level nvfp4.gemm_tile whose plan has a ring
// (stages > 0) becomes its K loop, written out per thread by the kernel
// template of its mainloop (lib/Transforms/Gemm):
//
// - a #nvfp4.wgmma_mainloop (sm_90a): KernelTemplate.cpp composes the ring,
//   the thread roles, the mainloop (MainloopSm90.cpp), the reductions
//   (Reduction.cpp) and the epilogue (Epilogue.cpp);
// - a #nvfp4.tcgen05_mainloop (sm_100a): MainloopSm100.cpp, a TMA producer
//   thread, a tcgen05 MMA thread and a TMEM epilogue on the same ring.
//
// The chip of the kernel's gpu.module picks the consumer; a plan whose
// consumer the chip lacks is an error.
//
//===----------------------------------------------------------------------===//

#include "PipelineBuilders.h"

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
      if (failed(buildWgmmaPipeline(op, b))) {
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
