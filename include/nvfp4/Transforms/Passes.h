//===- Passes.h - nvfp4 passes ----------------------------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TRANSFORMS_PASSES_H
#define NVFP4_TRANSFORMS_PASSES_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nvfp4 {

#define GEN_PASS_DECL
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nvfp4/Dialect/NVFP4/Passes.h.inc"

} // namespace mlir::nvfp4

#endif // NVFP4_TRANSFORMS_PASSES_H
