//===- Serialize.cpp - the binary stage: kernel modules to gpu.binary -----===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The binary stage: every gpu.module of the module becomes a gpu.binary
// holding one object per #nvvm.target (LLVM's NVPTX backend, then ptxas for
// format=bin), as upstream's gpu-module-to-binary does, with three
// differences:
//  - the options are checked first, and any error diagnostic emitted while
//    serializing fails the pass (upstream reports an unknown target or a
//    toolkit without ptxas without failing);
//  - the modules are serialized in parallel on the context's threads (a
//    module of many kernels is tiled into several gpu.modules);
//  - it calls the targets' serialization directly instead of running
//    upstream's pass in a nested pass manager, so --mlir-timing and
//    --mlir-print-ir-after-all see one pass, once.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Binary/Passes.h"
#include "nvfp4/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSwitch.h"

#include <atomic>
#include <optional>

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4SERIALIZEPASS
#include "nvfp4/Dialect/NVFP4/BinaryPasses.h.inc"
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
      return emitError(UnknownLoc::get(context))
             << "nvfp4-serialize: " << error;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    gpu::CompilationTarget kind =
        llvm::StringSwitch<gpu::CompilationTarget>(format)
            .Case("llvm", gpu::CompilationTarget::Offload)
            .Case("isa", gpu::CompilationTarget::Assembly)
            .Default(gpu::CompilationTarget::Binary);
    // Built before the threads start; they only read it.
    SymbolTable symbols(module);
    auto getSymbols = [&]() -> SymbolTable * { return &symbols; };
    // Only ptxas (format=bin) needs the toolkit.
    gpu::TargetOptions options(format == "bin" ? StringRef(toolkit)
                                               : StringRef(),
                               /*librariesToLink=*/{}, /*cmdOptions=*/{},
                               /*elfSection=*/{}, kind, getSymbols);

    SmallVector<gpu::GPUModuleOp> kernels(module.getOps<gpu::GPUModuleOp>());
    std::atomic<bool> sawError = false;
    ScopedDiagnosticHandler watch(&getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        sawError = true;
      return failure(); // Let the next handler report it.
    });
    // One object per module and target, serialized in parallel.
    SmallVector<SmallVector<std::optional<SmallVector<char, 0>>>> objects(
        kernels.size());
    LogicalResult serialized = failableParallelForEachN(
        &getContext(), 0, kernels.size(), [&](size_t i) -> LogicalResult {
          gpu::GPUModuleOp kernel = kernels[i];
          ArrayAttr targets = kernel.getTargetsAttr();
          if (!targets || targets.empty())
            return kernel.emitError()
                   << "nvfp4-serialize: gpu.module @" << kernel.getName()
                   << " has no target to serialize for";
          for (Attribute attr : targets) {
            auto target = dyn_cast<gpu::TargetAttrInterface>(attr);
            if (!target)
              return kernel.emitError() << "nvfp4-serialize: " << attr
                                        << " is not a GPU target attribute";
            objects[i].push_back(target.serializeToObject(kernel, options));
            if (!objects[i].back())
              return kernel.emitError()
                     << "nvfp4-serialize: cannot serialize gpu.module @"
                     << kernel.getName() << " for " << attr;
          }
          return success();
        });
    if (failed(serialized) || sawError)
      return signalPassFailure();

    // The binaries replace the modules, in order, on this thread.
    for (auto [kernel, moduleObjects] : llvm::zip(kernels, objects)) {
      SmallVector<Attribute> attrs;
      for (auto [attr, object] :
           llvm::zip(kernel.getTargetsAttr(), moduleObjects)) {
        Attribute built = cast<gpu::TargetAttrInterface>(attr).createObject(
            kernel, *object, options);
        if (!built) {
          kernel.emitError() << "nvfp4-serialize: cannot make the object of "
                                "gpu.module @"
                             << kernel.getName() << " for " << attr;
          return signalPassFailure();
        }
        attrs.push_back(built);
      }
      OpBuilder builder(kernel);
      gpu::BinaryOp::create(builder, kernel.getLoc(), kernel.getName(),
                            kernel.getOffloadingHandlerAttr(),
                            builder.getArrayAttr(attrs));
      kernel.erase();
    }
    if (sawError)
      signalPassFailure();
  }
};

} // namespace
