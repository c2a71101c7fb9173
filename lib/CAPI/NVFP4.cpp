//===- NVFP4.cpp - C API of the nvfp4 compiler
//-----------------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4-c/NVFP4.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/InitAll.h"
#include "nvfp4/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(NVFP4, nvfp4, mlir::nvfp4::NVFP4Dialect)

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

MlirLogicalResult nvfp4GetKernelBinary(MlirModule module, MlirStringRef *object,
                                       MlirStringRef *format) {
  auto binary =
      unwrap(module).lookupSymbol<mlir::gpu::BinaryOp>("nvfp4_kernels");
  if (!binary || binary.getObjects().size() != 1)
    return mlirLogicalResultFailure();
  auto obj = llvm::cast<mlir::gpu::ObjectAttr>(binary.getObjects()[0]);
  *object = wrap(obj.getObject().getValue());
  // The pipeline's own names for the formats (its `format` option).
  llvm::StringRef name;
  switch (obj.getFormat()) {
  case mlir::gpu::CompilationTarget::Assembly:
    name = "isa";
    break;
  case mlir::gpu::CompilationTarget::Binary:
    name = "bin";
    break;
  case mlir::gpu::CompilationTarget::Offload:
    name = "llvm";
    break;
  case mlir::gpu::CompilationTarget::Fatbin:
    name = "fatbin";
    break;
  }
  *format = wrap(name);
  return mlirLogicalResultSuccess();
}
