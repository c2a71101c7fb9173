//===- PipelineBuilders.cpp - pieces both K-loop builders share -----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "PipelineBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

void mlir::nvfp4::acquireForReuse(ImplicitLocOpBuilder &b, Value ring,
                                  Value slot, Value use) {
  Type i32 = b.getI32Type();
  Value zero = arith::ConstantIntOp::create(b, i32, 0);
  auto reuse = scf::IfOp::create(
      b, b.createOrFold<arith::CmpIOp>(arith::CmpIPredicate::ugt, use, zero),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(reuse.thenBlock());
  Value one = arith::ConstantIntOp::create(b, i32, 1);
  RingAcquireOp::create(
      b, ring, slot,
      arith::AndIOp::create(b, arith::SubIOp::create(b, use, one), one));
}
