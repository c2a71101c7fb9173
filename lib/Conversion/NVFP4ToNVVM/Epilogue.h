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

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

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
  /// An FP4 C: its scales' global pointer (null for a float C), their
  /// format, the per-tensor scale (NVFP4; f32, null: 1), whether the
  /// scales are blocked, and MXFP4's scale rounding.
  Value scales, global;
  BlockFormat format = BlockFormat::nvfp4();
  bool blockedScales = false;
  ScaleRounding rounding = ScaleRounding::Floor;
  /// NVFP4: RN(1 / (6 x global)): the block scales come from amax x
  /// inverse.
  Value inverse;
};

/// The output of a GEMM tile: C, or with `partials` (split-K) the fp32
/// copy of C of split `split`; an FP4 C with its `cScales` in `layout`,
/// its `cGlobal` scale (NVFP4; null: none) or its scale `rounding`
/// (MXFP4; null: floor).
AccumulatorStore accumulatorStore(KernelBuilder &k, Value c, Value partials,
                                  Value batch, Value split, Value cScales = {},
                                  Value cGlobal = {},
                                  ScaleLayout layout = ScaleLayout::Plain,
                                  ScaleRoundingAttr rounding = {});

/// Stores the fp32 `value` of C[m][n] (`mIdx`, `nIdx`: i32) converted to the
/// output's type, unless it lies past M or N (where `out` says they may).
void storeElement(KernelBuilder &k, const AccumulatorStore &out, Value value,
                  Value mIdx, Value nIdx);

/// One block (16 values, MXFP4 32) of a row of an FP4 C as one lane
/// holds it: its `values` (one or two f32) at columns `columns` (i32) of
/// row `mIdx`.
struct QuantizedBlock {
  SmallVector<Value, 2> values, columns;
  Value mIdx;
};

/// Quantizes and stores blocks of a row of an FP4 C whose values lie
/// across the lanes of a warp, as nvfp4.quantize does: NVFP4's scale from
/// amax x out.inverse, the quotients from an approximate reciprocal with
/// two corrections (within 2 ulp of the exact formulas); MXFP4's scale
/// from amax by out.rounding and exact quotients (nvfp4.quantize's bit
/// for bit). For each block the other lanes of this warp holding it differ
/// from this one in the lane bits of the `blockLanes` xor masks (the amax
/// is reduced over them by shuffles); where a block spans several warps,
/// `exchange` (called by every lane with the warp's amaxes) combines them,
/// and only the lanes where `scaleOwner` holds (null: all) store its
/// scale. The lane of the values' next columns (column + 1) is lane ^
/// `pairXor`. Every lane of the warp executes it (the shuffles); the
/// blocks' steps are interleaved (one branch for all their quotients); the
/// stores are masked at M and N, and the blocked layout's padding scales
/// (rows up to a multiple of 128, scale columns up to one of 4) are
/// written as zero: the padding columns by the owner of each row's last
/// block, the padding rows M apart from a row by the owners of its
/// blocks. e2m1 by cvt with `hardware` (sm_100a), else in software.
void storeQuantizedBlocks(
    KernelBuilder &k, const AccumulatorStore &out,
    ArrayRef<QuantizedBlock> blocks, ArrayRef<int64_t> blockLanes,
    int64_t pairXor, bool hardware,
    function_ref<void(MutableArrayRef<Value>)> exchange = {},
    Value scaleOwner = {});

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_EPILOGUE_H
