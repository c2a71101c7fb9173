//===- InitAll.cpp - register nvfp4 and the upstream pieces it uses
//--------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/InitAll.h"

#include "nvfp4/Conversion/NVFP4ToNVVM/NVFP4ToNVVM.h"
#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Pipelines/Pipelines.h"
#include "nvfp4/Binary/Passes.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::nvfp4::registerAllDialects(DialectRegistry &registry) {
  registry.insert<nvfp4::NVFP4Dialect, arith::ArithDialect,
                  cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, vector::VectorDialect>();
  // convert-gpu-to-nvvm lowers the other dialects inside a gpu.module
  // through their ConvertToLLVMPatternInterface extensions.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  nvfp4::registerConvertNVFP4ToLLVMInterface(registry);
  // Serialization of gpu.module to PTX/cubin and its LLVM IR translation.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void mlir::nvfp4::registerAllPasses() {
  registerNVFP4Passes();
  registerNVFP4ConversionPasses();
  registerNVFP4BinaryPasses();
  registerNVFP4Pipelines();
  // The upstream passes the pipeline is made of, for running stages alone.
  registerCanonicalizerPass();
  registerCSEPass();
  registerSCFToControlFlowPass();
  registerConvertGpuOpsToNVVMOpsPass();
  registerReconcileUnrealizedCastsPass();
  registerGpuModuleToBinaryPass();
  // An embedder's host lowering of the result (test/Pipelines).
  registerGpuToLLVMConversionPass();
}
