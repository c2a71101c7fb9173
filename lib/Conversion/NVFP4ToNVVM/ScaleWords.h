//===- ScaleWords.h - the scale pre-passes' word copies ---------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// What the scale pre-passes (BlockScales.cpp, GatherScales.cpp) share: a
// 32-bit word of 4 scales loaded where the source has it, else zero, and
// stored to a word of the blocked destination. Private to
// lib/Conversion/NVFP4ToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_SCALEWORDS_H
#define NVFP4_CONVERSION_NVFP4TONVVM_SCALEWORDS_H

#include "KernelBuilder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::nvfp4 {

/// Word `dstWord` (i64) of `dst` := word `srcWord` (i64, computed by
/// `srcWord` inside the load's branch) of the read-only `src` where
/// `present`, else zero.
inline void copyScaleWord(KernelBuilder &k, Value present, Value src,
                          function_ref<Value()> srcWord, Value dst,
                          Value dstWord) {
  ImplicitLocOpBuilder &b = k.b;
  auto load = scf::IfOp::create(b, k.i32, present, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(load.thenBlock());
    scf::YieldOp::create(
        b, k.load(k.i32,
                  k.offset(src, arith::MulIOp::create(b, srcWord(), k.c64(4))),
                  4, /*invariant=*/true));
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(load.elseBlock());
    scf::YieldOp::create(b, k.c32(0));
  }
  LLVM::StoreOp::create(
      b, load.getResult(0),
      k.offset(dst, arith::MulIOp::create(b, dstWord, k.c64(4))), 4);
}

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_SCALEWORDS_H
