//===- NVFP4ToNVVM.h - lower CTA-level nvfp4 ops to NVVM --------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_NVFP4TONVVM_H
#define NVFP4_CONVERSION_NVFP4TONVVM_NVFP4TONVVM_H

#include "nvfp4/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::nvfp4 {

/// Adds the patterns that lower CTA-level nvfp4 ops (`nvfp4.gemv_tile`) for
/// `target` into NVVM, LLVM, arith, math, vector, scf and gpu ops; the
/// upstream convert-gpu-to-nvvm finishes the job. The result depends on the
/// target (the fp4 decode), hence the argument.
/// The type conversions the patterns below rely on: !nvfp4.ring becomes the
/// i32 shared-memory address of its first slot, !nvfp4.tensor_map the
/// generic address of the map; every other type is kept.
void populateNVFP4ToNVVMTypeConversions(TypeConverter &converter);

/// The lowerings of the CTA-level and pipeline-level nvfp4 ops for
/// `target` (the ones it has: the GEMM's only for a chip with wgmma).
void populateNVFP4ToNVVMConversionPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           GpuTarget target);

/// !nvfp4.tensor_map -> !llvm.ptr, the generic address of the by-value
/// map (TensorMapParams.cpp).
void addTensorMapTypeConversion(TypeConverter &converter);

/// Records on `kernel` which of its parameters are tensor maps, for
/// nvfp4-tensor-map-params after convert-gpu-to-nvvm.
void markTensorMapParams(gpu::GPUFuncOp kernel);

/// Registers the nvfp4 dialect's ConvertToLLVMPatternInterface (the tensor
/// map's type conversion), which convert-gpu-to-nvvm uses for kernel
/// signatures.
void registerConvertNVFP4ToLLVMInterface(DialectRegistry &registry);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_NVFP4TONVVM_H
