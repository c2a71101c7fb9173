//===- KernelModule.cpp - the target a module's kernels are built for -----===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Target/KernelModule.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::nvfp4;

FailureOr<std::optional<GpuTarget>>
mlir::nvfp4::getKernelModuleTarget(gpu::GPUModuleOp module, StringRef pass) {
  std::optional<GpuTarget> found;
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets)
    return found;
  for (Attribute attr : targets) {
    auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
    if (!nvvm)
      continue;
    std::optional<GpuTarget> target = parseGpuTarget(nvvm.getChip());
    if (!target) {
      module.emitError() << pass << ": the #nvvm.target chip '"
                         << nvvm.getChip()
                         << "' is not supported; supported targets: "
                         << supportedGpuTargets();
      return failure();
    }
    // The kernels are built once, for one chip.
    if (found && *found != *target) {
      module.emitError() << pass << ": gpu.module @" << module.getName()
                         << " has #nvvm.targets for both " << getChip(*found)
                         << " and " << getChip(*target)
                         << "; nvfp4 builds its kernels for one chip";
      return failure();
    }
    found = target;
  }
  return found;
}

FailureOr<GpuTarget> mlir::nvfp4::resolveGpuTarget(ModuleOp module,
                                                   StringRef option,
                                                   StringRef pass,
                                                   bool optionGiven) {
  if (optionGiven && option.empty()) {
    module.emitError() << pass
                       << ": target was given an empty value; name one ("
                       << supportedGpuTargets()
                       << ") or leave the option out for the default";
    return failure();
  }
  std::optional<GpuTarget> fromModule;
  if (auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName)) {
    FailureOr<std::optional<GpuTarget>> chip =
        getKernelModuleTarget(kernels, pass);
    if (failed(chip))
      return failure();
    fromModule = *chip;
  }
  if (option.empty())
    return fromModule.value_or(GpuTarget::SM100a);
  std::optional<GpuTarget> given = parseGpuTarget(option);
  if (!given) {
    module.emitError() << pass << ": unsupported target '" << option
                       << "'; supported targets: " << supportedGpuTargets();
    return failure();
  }
  if (fromModule && *fromModule != *given) {
    module.emitError() << pass << ": target '" << option
                       << "' conflicts with the #nvvm.target chip '"
                       << getChip(*fromModule) << "' of gpu.module @"
                       << kKernelModuleName;
    return failure();
  }
  return *given;
}
