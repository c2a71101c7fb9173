//===- nvfp4-opt.cpp - the nvfp4 dialect's mlir-opt -------------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// MlirOptMain with the nvfp4 dialect, its passes and pipeline, and the
// upstream dialects and passes the pipeline is built from.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::nvfp4::registerAllDialects(registry);
  mlir::nvfp4::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "nvfp4 optimizer driver: block-scaled FP4 kernels to NVVM\n",
      registry));
}
