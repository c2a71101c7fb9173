//===- TensorMap.cpp - how a launcher encodes a tensor map ----------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runtime/TensorMap.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {
// cuda.h: CUtensorMapDataType, CUtensorMapL2promotion.
enum : uint32_t {
  kUint8 = 0,
  kUint16 = 1,
  kUint32 = 2,
  kFloat16 = 6,
  kFloat32 = 7,
  kBFloat16 = 9,
};
constexpr uint32_t kL2Promotion128B = 2;

uint32_t dataTypeOf(Type t) {
  if (t.isF16())
    return kFloat16;
  if (t.isBF16())
    return kBFloat16;
  if (t.isF32())
    return kFloat32;
  switch (t.getIntOrFloatBitWidth()) {
  case 8:
    return kUint8;
  case 16:
    return kUint16;
  default:
    return kUint32; // TensorMapType::verify admits i8, i16, i32 only.
  }
}
} // namespace

TensorMapEncoding mlir::nvfp4::getTensorMapEncoding(TensorMapType map) {
  TensorMapEncoding e;
  e.dataType = dataTypeOf(map.getElementType());
  const int64_t rank = map.getRank();
  e.rank = static_cast<uint32_t>(rank);
  uint64_t stride = map.getElementBytes();
  for (int64_t i = 0; i < rank; ++i) {
    // Dimension i, innermost first, is shape[rank - 1 - i].
    int64_t d = rank - 1 - i;
    e.globalDim[i] = static_cast<uint64_t>(map.getShape()[d]);
    e.boxDim[i] = static_cast<uint32_t>(map.getBox()[d]);
    e.elementStrides[i] = 1;
    if (i > 0)
      e.globalStrides[i - 1] = stride;
    stride *= e.globalDim[i];
  }
  // The enums share their numbering with CUtensorMapSwizzle.
  e.swizzle = static_cast<uint32_t>(map.getSwizzle());
  e.l2Promotion = kL2Promotion128B;
  return e;
}
