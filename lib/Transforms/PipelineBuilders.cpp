//===- PipelineBuilders.cpp - pieces both K-loop builders share -----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "PipelineBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

LogicalResult mlir::nvfp4::checkClusterShape(GemmTileOp op,
                                             ArrayRef<int64_t> shape) {
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  if (!kernel)
    return success();
  DenseI32ArrayAttr cluster = kernel.getKnownClusterSizeAttr();
  const bool clustered = shape[0] * shape[1] * shape[2] > 1;
  if (cluster ? llvm::equal(cluster.asArrayRef(), shape) : !clustered)
    return success();
  return op.emitOpError() << "has a plan for clusters of " << shape[0] << " x "
                          << shape[1] << " x " << shape[2]
                          << " CTAs, but its kernel's known_cluster_size "
                             "says otherwise (it must be "
                          << shape[0] << " x " << shape[1] << " x " << shape[2]
                          << (clustered ? "" : ", or absent") << ")";
}
