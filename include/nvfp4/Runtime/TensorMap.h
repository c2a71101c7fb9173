//===- TensorMap.h - how a launcher encodes a tensor map --------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The one translation from `!nvfp4.tensor_map` to the arguments of
// cuTensorMapEncodeTiled, for nvfp4-run and for embedders that lower the
// host op `nvfp4.tensor_map` with their own runtime.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNTIME_TENSORMAP_H
#define NVFP4_RUNTIME_TENSORMAP_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Runtime/Device.h"

namespace mlir::nvfp4 {

/// The cuTensorMapEncodeTiled arguments of `map` (all but the address):
/// dimensions and box reversed to innermost first, dense row-major byte
/// strides, unit element strides, no interleave, the map's swizzle, L2
/// promotion of 128 bytes, zero fill out of bounds.
TensorMapEncoding getTensorMapEncoding(TensorMapType map);

} // namespace mlir::nvfp4

#endif // NVFP4_RUNTIME_TENSORMAP_H
