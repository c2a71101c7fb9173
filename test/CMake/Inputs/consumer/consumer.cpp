//===- consumer.cpp - embed the nvfp4 pipeline from an installed package ---===//
//
// Parses a GEMV, runs buildNVFP4PassPipeline to PTX and prints the module.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/InitAll.h"
#include "nvfp4/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  mlir::nvfp4::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  const char *source =
      "func.func @f(%a: memref<64x1024xf4E2M1FN>, %sa: memref<64x64xf8E4M3FN>,"
      " %b: memref<1x1024xf4E2M1FN>, %sb: memref<1x64xf8E4M3FN>,"
      " %c: memref<64x1xbf16>) {\n"
      "  nvfp4.scaled_matmul ins(%a, %sa, %b, %sb : memref<64x1024xf4E2M1FN>,"
      " memref<64x64xf8E4M3FN>, memref<1x1024xf4E2M1FN>,"
      " memref<1x64xf8E4M3FN>) outs(%c : memref<64x1xbf16>)\n"
      "  return\n}\n";
  auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  mlir::nvfp4::NVFP4PipelineOptions options;
  options.target = "sm_90a";
  options.format = "isa";
  mlir::nvfp4::buildNVFP4PassPipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 2;
  module->print(llvm::outs());
  return 0;
}
