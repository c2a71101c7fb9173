//===- NVFP4.cpp - C API of the nvfp4 compiler -----------------------------===//
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
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(NVFP4, nvfp4,
                                      mlir::nvfp4::NVFP4Dialect)

void nvfp4RegisterAllDialects(MlirDialectRegistry registry) {
  mlir::nvfp4::registerAllDialects(*unwrap(registry));
}

void nvfp4RegisterAllPasses(void) { mlir::nvfp4::registerAllPasses(); }

MlirLogicalResult nvfp4RunPipeline(MlirModule module, MlirStringRef target,
                                   MlirStringRef format,
                                   MlirStringRef toolkit) {
  mlir::ModuleOp op = unwrap(module);
  mlir::PassManager pm(op->getContext());
  mlir::nvfp4::NVFP4PipelineOptions options;
  options.target = unwrap(target).str();
  options.format = unwrap(format).str();
  options.toolkit = unwrap(toolkit).str();
  mlir::nvfp4::buildNVFP4PassPipeline(pm, options);
  return wrap(pm.run(op));
}
