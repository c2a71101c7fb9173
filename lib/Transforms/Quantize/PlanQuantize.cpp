//===- PlanQuantize.cpp - nvfp4-plan for nvfp4.quantize
//---------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Quantizing reads every input byte once and writes a quarter (f16, bf16)
// or an eighth (f32) of it: a bandwidth-bound elementwise kernel whose
// only choices are how much a thread loads at once and how many threads a
// CTA has. A thread takes whole blocks of 16 values of one row, 64 bytes
// of input where the row allows (one f32 block, two f16/bf16 blocks: four
// 16-byte loads in flight per thread); a CTA has 8 warps.
//
//===----------------------------------------------------------------------===//

#include "../Planner.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

constexpr int64_t kWarpsPerCta = 8;
constexpr int64_t kBytesPerThread = 64;

/// CTAs of `plan` over `blocks` scale blocks.
int64_t gridOf(QuantizePlanAttr plan, int64_t blocks) {
  return llvm::divideCeil(blocks, plan.getBlocksPerCta());
}

} // namespace

LogicalResult mlir::nvfp4::planQuantize(QuantizeOp op, const PlanTarget &) {
  MLIRContext *ctx = op.getContext();
  MemRefType xType = op.getX().getType();
  OperandShape x = getOperandShape(xType);
  const int64_t blockSize = BlockFormat::of(op.getSf().getType()).blockSize;
  const int64_t rowBlocks = x.k / blockSize;
  const int64_t blocks = x.batch * x.rows * rowBlocks;
  QuantizePlanAttr plan;
  if (Attribute given = op->getAttr(NVFP4Dialect::kPlanAttrName)) {
    plan = dyn_cast<QuantizePlanAttr>(given);
    if (!plan)
      return op.emitOpError()
             << "expects a #nvfp4.quantize_plan, but got " << given;
    if (rowBlocks % plan.getBlocksPerThread() != 0)
      return op.emitOpError()
             << "has a plan of " << plan.getBlocksPerThread()
             << " blocks per thread, which do not divide the rows' "
             << rowBlocks << " blocks of " << blockSize << " values";
  } else {
    const int64_t blockBytes =
        blockSize * xType.getElementTypeBitWidth() / 8;
    int64_t perThread = std::max<int64_t>(1, kBytesPerThread / blockBytes);
    while (rowBlocks % perThread != 0)
      perThread /= 2;
    plan = QuantizePlanAttr::get(ctx, kWarpsPerCta, perThread);
  }
  if (gridOf(plan, blocks) > kMaxGridX)
    return op.emitOpError() << "needs " << gridOf(plan, blocks)
                            << " CTAs, more than a grid's " << kMaxGridX;
  op->setAttr(NVFP4Dialect::kPlanAttrName, plan);
  return success();
}
