//===- TileQuantize.cpp - nvfp4-tile for nvfp4.quantize
//---------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// One kernel of nvfp4.quantize_tile CTAs: CTA i quantizes the plan's
// blocks of 16 values from i x blocks_per_cta on, in row-major order over
// every batch, row and block of the input.
//
//===----------------------------------------------------------------------===//

#include "../Planner.h"
#include "../TileBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::nvfp4;

LogicalResult mlir::nvfp4::tileQuantize(QuantizeOp op, QuantizePlanAttr plan,
                                        gpu::GPUModuleOp kernels,
                                        SymbolTable &symbols,
                                        StringRef kernelName) {
  Location loc = op.getLoc();
  OperandShape x = getOperandShape(op.getX().getType());
  const int64_t ctas =
      llvm::divideCeil(x.batch * x.rows *
                           BlockFormat::of(op.getSf().getType())
                               .getScaleColumns(x.k),
                       plan.getBlocksPerCta());
  // (A plan written by hand reaches here without nvfp4-plan's check.)
  if (ctas > kMaxGridX)
    return op.emitOpError()
           << "needs " << ctas << " CTAs, more than a grid's " << kMaxGridX;

  OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());
  auto kernel =
      createKernel(kb, loc, kernelName, TypeRange(op->getOperandTypes()),
                   plan.getThreadsPerCta(), symbols);
  Block &body = kernel.getBody().front();
  Value global = op.getGlobalScale() ? body.getArgument(1) : Value();
  const unsigned q = global ? 2 : 1;
  QuantizeTileOp::create(
      kb, loc, body.getArgument(0), global, body.getArgument(q),
      body.getArgument(q + 1),
      scaledBlockId(kb, loc, gpu::Dimension::x, plan.getBlocksPerCta()), plan,
      op.getSfLayout(), op.getScaleRoundingAttr());
  gpu::ReturnOp::create(kb, loc);

  OpBuilder hb(op);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  launchWithPlan(hb, loc, kernel, gpu::KernelDim3{idx(ctas), idx(1), idx(1)},
                 gpu::KernelDim3{idx(plan.getThreadsPerCta()), idx(1), idx(1)},
                 /*dynamicShared=*/Value(), op->getOperands(), plan);
  op.erase();
  return success();
}
