//===- Passes.h - the binary stage's pass (nvfp4-serialize) -----*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The declarations and registration of the binary stage's pass
// (nvfp4-serialize), generated from dialects/NVFP4/BinaryPasses.td.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_BINARY_PASSES_H
#define NVFP4_BINARY_PASSES_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nvfp4 {

#define GEN_PASS_DECL
#include "nvfp4/Dialect/NVFP4/BinaryPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "nvfp4/Dialect/NVFP4/BinaryPasses.h.inc"

} // namespace mlir::nvfp4

#endif // NVFP4_BINARY_PASSES_H
