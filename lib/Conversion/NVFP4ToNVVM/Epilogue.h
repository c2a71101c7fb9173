//===- Epilogue.h - storing a GEMM tile's accumulators ----------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Where a GEMM tile's fp32 accumulators go, for every target's epilogue
// (wgmma's register fragments, tcgen05's TMEM loads): C in its element type,
// or split-K's fp32 partial copies of C. Private to
// lib/Conversion/NVFP4ToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_EPILOGUE_H
#define NVFP4_CONVERSION_NVFP4TONVVM_EPILOGUE_H

#include "KernelBuilder.h"

namespace mlir::nvfp4 {

/// Where accumulators go: C of `m` x `n` elements per batch, or (split-K)
/// fp32 partials at batch split x batches + batch.
struct AccumulatorStore {
  Value base; // global pointer
  Type type;
  int64_t bytes, m, n;
  Value batch64;
  /// Whether rows (of B) and columns (of A) past N and M exist.
  bool maskN, maskM;
  /// Where the columns end at run time (i32; a grouped GEMM's tile ends
  /// with its group), or null: columns from it on are not stored either.
  Value mEnd;
};

/// The output of a GEMM tile: C, or with `partials` (split-K) the fp32
/// copy of C of split `split`.
AccumulatorStore accumulatorStore(KernelBuilder &k, Value c, Value partials,
                                  Value batch, Value split);

/// Stores the fp32 `value` of C[m][n] (`mIdx`, `nIdx`: i32) converted to the
/// output's type, unless it lies past M or N (where `out` says they may).
void storeElement(KernelBuilder &k, const AccumulatorStore &out, Value value,
                  Value mIdx, Value nIdx);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_EPILOGUE_H
