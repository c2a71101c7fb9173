//===- Target.cpp - the GPU targets nvfp4 compiles for ---------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Target/Target.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::nvfp4;

std::optional<GpuTarget> mlir::nvfp4::parseGpuTarget(StringRef name) {
  return llvm::StringSwitch<std::optional<GpuTarget>>(name)
      .Case("sm_100a", GpuTarget::SM100a)
      .Case("sm_90a", GpuTarget::SM90a)
      .Default(std::nullopt);
}

std::string mlir::nvfp4::supportedGpuTargets() { return "sm_100a, sm_90a"; }

const GpuTargetInfo &mlir::nvfp4::getTargetInfo(GpuTarget target) {
  static const GpuTargetInfo sm100a{GpuTarget::SM100a,
                                    "sm_100a",
                                    /*hasFp4Convert=*/true,
                                    /*hasWgmma=*/false,
                                    /*hasTcgen05=*/true,
                                    /*staticSharedBytes=*/48 * 1024,
                                    /*maxSharedBytes=*/227 * 1024,
                                    /*smCount=*/148};
  static const GpuTargetInfo sm90a{GpuTarget::SM90a,
                                   "sm_90a",
                                   /*hasFp4Convert=*/false,
                                   /*hasWgmma=*/true,
                                   /*hasTcgen05=*/false,
                                   /*staticSharedBytes=*/48 * 1024,
                                   /*maxSharedBytes=*/227 * 1024,
                                   /*smCount=*/132};
  return target == GpuTarget::SM100a ? sm100a : sm90a;
}

StringRef mlir::nvfp4::getChip(GpuTarget target) {
  return getTargetInfo(target).chip;
}

// PTX 8.8 (CUDA 12.9+) carries the sm_100a conversions and tcgen05; sm_90a
// code only needs 8.0 but one ISA version keeps the two outputs comparable.
StringRef mlir::nvfp4::getPtxFeatures(GpuTarget) { return "+ptx88"; }

int64_t mlir::nvfp4::getStagedBBytes(GpuTarget target, int64_t k) {
  // Decoded B values: f16 with the fp4 convert, signed bytes without.
  int64_t valueBytes = getTargetInfo(target).hasFp4Convert ? 2 : 1;
  return k * valueBytes + (k / 16) * 4;
}

std::string mlir::nvfp4::checkSerializationOptions(StringRef format,
                                                   StringRef toolkit) {
  if (format != "isa" && format != "bin" && format != "llvm" &&
      format != "none")
    return "unknown format '" + format.str() +
           "'; expected isa (PTX), bin (cubin), llvm (LLVM IR) or none";
  if (format != "bin")
    return "";
  std::string ptxas = (toolkit + "/bin/ptxas").str();
  if (!llvm::sys::fs::can_execute(ptxas))
    return "format=bin needs ptxas, but '" + ptxas +
           "' is not an executable; set toolkit= to a CUDA toolkit root or "
           "use format=isa";
  return "";
}
