//===- InitAll.cpp - register nvfp4 and the upstream pieces it uses --------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/InitAll.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::nvfp4::registerAllDialects(DialectRegistry &registry) {
  registry.insert<nvfp4::NVFP4Dialect, arith::ArithDialect,
                  func::FuncDialect, memref::MemRefDialect>();
}

void mlir::nvfp4::registerAllPasses() {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
}
