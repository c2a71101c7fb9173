//===- Lowerings.h - the patterns of convert-nvfp4-to-nvvm ------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// One file per lowering of a CTA-level op; the pass (NVFP4ToNVVM.cpp)
// collects their patterns. Private to lib/Conversion/NVFP4ToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_LOWERINGS_H
#define NVFP4_CONVERSION_NVFP4TONVVM_LOWERINGS_H

#include "KernelBuilder.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Target/Target.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::nvfp4 {

/// nvfp4.gemv_tile for `target` (GemvLowering.cpp).
void populateGemvPatterns(RewritePatternSet &patterns, GpuTarget target);

/// nvfp4.gemm_tile without a ring and nvfp4.decode_a_tile for sm_90a:
/// register-A wgmma (GemmSm90.cpp).
void populateGemmSm90Patterns(RewritePatternSet &patterns);

/// nvfp4.group_tile: the grouped GEMM's tile scheduler (GroupTile.cpp).
void populateGroupTilePatterns(RewritePatternSet &patterns);

/// The pipeline's nvfp4.wgmma.* consumer ops for sm_90a (WgmmaOps.cpp).
void populateWgmmaPatterns(const TypeConverter &converter,
                           RewritePatternSet &patterns);

/// nvfp4.wgmma.reduce_splits: split-K's tiles added in a cluster through
/// distributed shared memory (ReduceSplits.cpp).
void populateReduceSplitsPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);

/// The math ops a gemm_tile's epilogue may hold, cloned onto accumulator
/// fragments: math.exp2 -> ex2.approx.f32 per element (the GPU-to-NVVM
/// conversion would call libdevice, which the binary stage does not link)
/// (Epilogue.cpp).
void populateEpilogueMathPatterns(RewritePatternSet &patterns);
void addEpilogueMathIllegalOps(ConversionTarget &target);

/// The pipeline's nvfp4.ring.* ops, for every target (Ring.cpp).
void populateRingPatterns(const TypeConverter &converter,
                          RewritePatternSet &patterns);
/// !nvfp4.ring -> the i32 shared-memory address of its first slot.
void addRingTypeConversion(TypeConverter &converter);
/// The i32 shared-memory address of `slot` of a ring at `base` (its
/// converted value), the one place that knows the slots' layout.
Value ringSlotAddress(KernelBuilder &k, RingType ring, Value base, Value slot);
/// The `empty` mbarrier of `slot` of a ring at `base`, as a shared pointer
/// (tcgen05.commit arrives on it).
Value ringEmptyBarrier(KernelBuilder &k, RingType ring, Value base,
                       Value slot);

/// The pipeline's sm_100a ops: TMEM and the tcgen05 MMA thread and
/// epilogue (GemmSm100.cpp).
void populateGemmSm100Patterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);
/// !nvfp4.tmem -> the i32 TMEM address of its first column.
void addTmemTypeConversion(TypeConverter &converter);

/// nvfp4.sum_splits, the split-K GEMM's last kernel, for every target
/// (SumSplits.cpp).
void populateSumSplitsPatterns(RewritePatternSet &patterns);

/// nvfp4.block_scales_tile, the sm_100a GEMM's scale pre-pass, for every target
/// (BlockScales.cpp).
void populateBlockScalesPatterns(RewritePatternSet &patterns);

/// nvfp4.gather_scales_tile: a grouped tile's rows of A's scales, blocked
/// (GatherScales.cpp).
void populateGatherScalesPatterns(RewritePatternSet &patterns);

/// nvfp4.quantize_tile (Quantize.cpp): e2m1 by cvt on sm_100a, by
/// rounding the f32 bits on sm_90a.
void populateQuantizePatterns(RewritePatternSet &patterns, GpuTarget target);

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_LOWERINGS_H
