//===- KernelModule.h - the target of the kernels' gpu.module -*- C++ -*-===//
//-*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// One source of truth for the chip: the `#nvvm.target` of the gpu.module
// that holds the kernels. nvfp4-tile creates `@nvfp4_kernels` with the
// target it was given (or finds it, with its target, in the input);
// convert-nvfp4-to-nvvm reads each gpu.module's target and has no option.
// nvfp4-plan and nvfp4-tile run before or while that module is made: their
// `target` option defaults to the module's chip when the input already has
// `@nvfp4_kernels`, and a conflicting option is an error.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TARGET_KERNELMODULE_H
#define NVFP4_TARGET_KERNELMODULE_H

#include "nvfp4/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::nvfp4 {

/// The symbol of the gpu.module (and, after serialization, gpu.binary)
/// holding nvfp4's kernels.
constexpr StringLiteral kKernelModuleName = "nvfp4_kernels";

/// nvfp4-tile puts the kernels of at most this many ops in one gpu.module
/// (@nvfp4_kernels, then @nvfp4_kernels_1, ...), so that a module of many
/// ops is lowered and serialized on several threads.
constexpr size_t kOpsPerKernelModule = 64;

/// The chip of `module`'s `#nvvm.target`: the target, nullopt when the
/// module has no NVVM target, or failure (reported on the module) when its
/// chip is not one nvfp4 supports.
FailureOr<std::optional<GpuTarget>>
getKernelModuleTarget(gpu::GPUModuleOp module, StringRef pass);

/// The target `pass` builds for in `module`: `option` when given (it must
/// agree with an existing `@nvfp4_kernels`'s `#nvvm.target`), else that
/// module's chip, else sm_100a. Reports on `module` and fails on an unknown
/// name, a conflict, or an option that was `given` an empty value (a
/// script's unset variable must not mean the default).
FailureOr<GpuTarget> resolveGpuTarget(ModuleOp module, StringRef option,
                                      StringRef pass, bool given = false);

} // namespace mlir::nvfp4

#endif // NVFP4_TARGET_KERNELMODULE_H
