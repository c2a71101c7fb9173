//===- ScaleWords.h - the scale pre-passes' word copies ---------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// What the scale pre-passes (BlockScales.cpp, GatherScales.cpp) share: their
// i64 index arithmetic, the place of a row's word in a blocked atom, and a
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

/// i64 index arithmetic of the scale pre-passes.
struct ScaleIndex {
  KernelBuilder &k;

  Value div(Value x, int64_t d) {
    return arith::DivUIOp::create(k.b, x, k.c64(d));
  }
  Value rem(Value x, int64_t d) {
    return arith::RemUIOp::create(k.b, x, k.c64(d));
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(k.b, arith::CmpIPredicate::ult, x, y);
  }
  Value lt(Value x, int64_t v) { return lt(x, k.c64(v)); }
  /// x * s + y.
  Value mulAdd(Value x, int64_t s, Value y) {
    return arith::AddIOp::create(k.b, arith::MulIOp::create(k.b, x, k.c64(s)),
                                 y);
  }
  /// The row of word j of an atom of 128-row block `block`: row
  /// 32 (j % 4) + j / 4 of the block (lib/Reference/Layout.h).
  Value rowOfWord(Value block, Value word) {
    // (Named steps: the ops in one order whatever the compiler's order of
    // evaluating arguments.)
    Value quarter = rem(word, 4);
    Value lane = div(word, 4);
    return mulAdd(block, 128, mulAdd(quarter, 32, lane));
  }
  /// The inverse: the word of row r in its block's atoms, 4 (r % 32) +
  /// (r % 128) / 32.
  Value wordOfRow(Value row) {
    Value inBlock = rem(row, 128);
    Value lane = rem(inBlock, 32);
    Value quarter = div(inBlock, 32);
    return mulAdd(lane, 4, quarter);
  }
};

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
