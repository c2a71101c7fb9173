//===- TensorMapParams.cpp - tensor maps as by-value kernel parameters ----===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// How a !nvfp4.tensor_map crosses the kernel boundary. Inside the kernel
// it is the generic address of the 128-byte map (!llvm.ptr), for this
// conversion and, through the dialect's ConvertToLLVMPatternInterface, for
// convert-gpu-to-nvvm's signature conversion. convert-nvfp4-to-nvvm
// records which parameters are maps (markTensorMapParams); after
// convert-gpu-to-nvvm, nvfp4-tensor-map-params makes them byval grid
// constants, which is what passes them by value.
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "nvfp4/Conversion/NVFP4ToNVVM/NVFP4ToNVVM.h"
#include "nvfp4/Conversion/Passes.h"
#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Runtime/Device.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace mlir::nvfp4 {
#define GEN_PASS_DEF_NVFP4TENSORMAPPARAMSPASS
#include "nvfp4/Dialect/NVFP4/ConversionPasses.h.inc"
} // namespace mlir::nvfp4

using namespace mlir;
using namespace mlir::nvfp4;

/// Bytes and alignment of a CUtensorMap, as the launcher holds it.
static constexpr int64_t kTensorMapBytes = sizeof(TensorMapBytes),
                         kTensorMapAlign = alignof(TensorMapBytes);

void mlir::nvfp4::addTensorMapTypeConversion(TypeConverter &converter) {
  converter.addConversion([](TensorMapType map) -> Type {
    return LLVM::LLVMPointerType::get(map.getContext());
  });
  // A kernel parameter keeps its map type until convert-gpu-to-nvvm
  // converts the signature; its uses meet it through a cast, which
  // reconcile-unrealized-casts removes once both sides are pointers.
  converter.addTargetMaterialization(
      [](OpBuilder &b, LLVM::LLVMPointerType type, ValueRange inputs,
         Location loc) -> Value {
        if (inputs.size() != 1 || !isa<TensorMapType>(inputs[0].getType()))
          return Value();
        return UnrealizedConversionCastOp::create(b, loc, type, inputs)
            .getResult(0);
      });
}

void mlir::nvfp4::markTensorMapParams(gpu::GPUFuncOp kernel) {
  // The parameter count first, then the maps' indices: the indices only
  // hold for the llvm.func if every parameter stays one parameter (bare
  // pointers), which nvfp4-tensor-map-params checks against the count.
  SmallVector<int64_t> record = {
      static_cast<int64_t>(kernel.getNumArguments())};
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (isa<TensorMapType>(type))
      record.push_back(i);
  if (record.size() > 1)
    kernel->setAttr(NVFP4Dialect::kTensorMapParamsAttrName,
                    DenseI64ArrayAttr::get(kernel.getContext(), record));
}

namespace {

/// Lets convert-gpu-to-nvvm (and convert-to-llvm) convert the kernel
/// parameters of tensor-map type.
struct NVFP4ToLLVMDialectInterface : ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;

  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &typeConverter,
      RewritePatternSet &patterns) const override {
    addTensorMapTypeConversion(typeConverter);
  }
};

struct NVFP4TensorMapParamsPass
    : nvfp4::impl::NVFP4TensorMapParamsPassBase<NVFP4TensorMapParamsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto byval =
        LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), kTensorMapBytes);
    WalkResult result = getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      auto indices = func->getAttrOfType<DenseI64ArrayAttr>(
          NVFP4Dialect::kTensorMapParamsAttrName);
      if (!indices)
        return WalkResult::advance();
      if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName())) {
        func.emitError() << "nvfp4-tensor-map-params: '"
                         << NVFP4Dialect::kTensorMapParamsAttrName
                         << "' on a function that is not an NVVM kernel "
                            "(run convert-gpu-to-nvvm first)";
        return WalkResult::interrupt();
      }
      ArrayRef<int64_t> record = indices.asArrayRef();
      if (record.empty() ||
          record.front() != static_cast<int64_t>(func.getNumArguments())) {
        func.emitError() << "nvfp4-tensor-map-params: the kernel had "
                         << (record.empty() ? -1 : record.front())
                         << " parameters before convert-gpu-to-nvvm and has "
                         << func.getNumArguments()
                         << " now; the tensor maps' positions only hold "
                            "with bare-pointer memrefs "
                            "(use-bare-ptr-memref-call-conv)";
        return WalkResult::interrupt();
      }
      for (int64_t i : record.drop_front()) {
        if (!isa<LLVM::LLVMPointerType>(func.getArgumentTypes()[i])) {
          func.emitError() << "nvfp4-tensor-map-params: parameter " << i
                           << " of the kernel should be the tensor map's "
                              "pointer, but it is "
                           << func.getArgumentTypes()[i]
                           << " (kernel memrefs must be bare pointers)";
          return WalkResult::interrupt();
        }
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(byval));
        func.setArgAttr(
            i, LLVM::LLVMDialect::getAlignAttrName(),
            IntegerAttr::get(IntegerType::get(ctx, 64), kTensorMapAlign));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(ctx));
      }
      func->removeAttr(NVFP4Dialect::kTensorMapParamsAttrName);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::nvfp4::registerConvertNVFP4ToLLVMInterface(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NVFP4Dialect *dialect) {
    dialect->addInterfaces<NVFP4ToLLVMDialectInterface>();
  });
}
