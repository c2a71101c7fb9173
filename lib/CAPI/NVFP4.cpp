//===- NVFP4.cpp - C API of the nvfp4 compiler ----------------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-c/NVFP4.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/InitAll.h"
#include "nvfp4/Pipelines/Pipelines.h"
#include "nvfp4/Support/Nesting.h"
#include "nvfp4/Target/KernelModule.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(NVFP4, nvfp4, mlir::nvfp4::NVFP4Dialect)

MlirModule nvfp4ModuleCreateParseFromFile(MlirContext context,
                                          MlirStringRef fileName) {
  mlir::MLIRContext *ctx = unwrap(context);
  llvm::StringRef name = unwrap(fileName);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(name, &error);
  if (!file) {
    mlir::emitError(mlir::UnknownLoc::get(ctx))
        << "cannot read '" << name << "': " << error;
    return MlirModule{nullptr};
  }
  // What the parser's recursion cannot take is refused before it runs.
  if (std::optional<std::string> refused =
          mlir::nvfp4::checkNestingDepth(file->getBuffer())) {
    mlir::emitError(mlir::FileLineColLoc::get(ctx, name, 0, 0))
        << "cannot parse '" << name << "': " << *refused;
    return MlirModule{nullptr};
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, ctx);
  return module ? wrap(module.release()) : MlirModule{nullptr};
}

void nvfp4RegisterAllDialects(MlirDialectRegistry registry) {
  mlir::nvfp4::registerAllDialects(*unwrap(registry));
}

void nvfp4RegisterAllPasses(void) { mlir::nvfp4::registerAllPasses(); }

MlirLogicalResult nvfp4RunPipeline(MlirModule module, MlirStringRef target,
                                   MlirStringRef format,
                                   MlirStringRef toolkit) {
  mlir::nvfp4::NVFP4PipelineOptions options;
  // "" means the default (the C API's documented spelling of "not given").
  if (unwrap(target).size())
    options.target = unwrap(target).str();
  options.format = unwrap(format).str();
  options.toolkit = unwrap(toolkit).str();
  return wrap(mlir::nvfp4::runNVFP4Pipeline(unwrap(module), options));
}

/// The kernel binaries of `module`, in module order.
static llvm::SmallVector<mlir::gpu::BinaryOp>
kernelBinaries(MlirModule module) {
  return llvm::to_vector(unwrap(module).getOps<mlir::gpu::BinaryOp>());
}

intptr_t nvfp4GetNumKernelBinaries(MlirModule module) {
  return kernelBinaries(module).size();
}

MlirLogicalResult nvfp4GetKernelBinaryAt(MlirModule module, intptr_t index,
                                         MlirStringRef *name,
                                         MlirStringRef *object,
                                         MlirStringRef *format) {
  llvm::SmallVector<mlir::gpu::BinaryOp> binaries = kernelBinaries(module);
  if (index < 0 || index >= static_cast<intptr_t>(binaries.size()) ||
      binaries[index].getObjects().size() != 1)
    return mlirLogicalResultFailure();
  mlir::gpu::BinaryOp binary = binaries[index];
  auto obj = llvm::cast<mlir::gpu::ObjectAttr>(binary.getObjects()[0]);
  *name = wrap(binary.getSymNameAttr().getValue());
  *object = wrap(obj.getObject().getValue());
  // The pipeline's own names for the formats (its `format` option).
  llvm::StringRef formatName;
  switch (obj.getFormat()) {
  case mlir::gpu::CompilationTarget::Assembly:
    formatName = "isa";
    break;
  case mlir::gpu::CompilationTarget::Binary:
    formatName = "bin";
    break;
  case mlir::gpu::CompilationTarget::Offload:
    formatName = "llvm";
    break;
  case mlir::gpu::CompilationTarget::Fatbin:
    formatName = "fatbin";
    break;
  }
  *format = wrap(formatName);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult nvfp4GetKernelBinary(MlirModule module, MlirStringRef *object,
                                       MlirStringRef *format) {
  llvm::SmallVector<mlir::gpu::BinaryOp> binaries = kernelBinaries(module);
  if (binaries.size() > 1) {
    mlir::emitError(unwrap(module).getLoc())
        << "the module's kernels are in " << binaries.size()
        << " gpu.binary ops (one per " << mlir::nvfp4::kOpsPerKernelModule
        << " ops); read them with nvfp4GetNumKernelBinaries and "
           "nvfp4GetKernelBinaryAt";
    return mlirLogicalResultFailure();
  }
  MlirStringRef name;
  return nvfp4GetKernelBinaryAt(module, 0, &name, object, format);
}
