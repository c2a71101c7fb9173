//===- Serialize.cpp - gpu-module-to-binary that fails on any error --------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Upstream's gpu-module-to-binary emits some errors without signalling
// failure (an unknown compilation target; a toolkit path without ptxas), so
// a pipeline ending in it can "succeed" with a broken gpu.binary. This pass
// checks its options first, runs it as a nested pipeline, and fails when
// any error diagnostic was emitted meanwhile.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Target/Target.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4SERIALIZEPASS
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

struct NVFP4SerializePass
    : nvfp4::impl::NVFP4SerializePassBase<NVFP4SerializePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    std::string error = format == "none"
                            ? "format=none means no serialization; leave "
                              "the pass out of the pipeline instead"
                            : checkSerializationOptions(format, toolkit);
    if (!error.empty())
      return emitError(UnknownLoc::get(context)) << "nvfp4-serialize: "
                                                 << error;
    GpuModuleToBinaryPassOptions options;
    options.compilationTarget = format;
    // Only ptxas (format=bin) needs the toolkit.
    if (format == "bin")
      options.toolkitPath = toolkit;
    serialize = OpPassManager(ModuleOp::getOperationName());
    serialize.addPass(createGpuModuleToBinaryPass(options));
    return success();
  }

  void runOnOperation() override {
    bool sawError = false;
    ScopedDiagnosticHandler watch(&getContext(), [&](Diagnostic &diag) {
      sawError |= diag.getSeverity() == DiagnosticSeverity::Error;
      return failure(); // Let the next handler report it.
    });
    if (failed(runPipeline(serialize, getOperation())) || sawError)
      signalPassFailure();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    serialize.getDependentDialects(registry);
  }

  OpPassManager serialize{ModuleOp::getOperationName()};
};

} // namespace
