//===- TileQuantize.cpp - nvfp4-tile for nvfp4.quantize -------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// One kernel of nvfp4.quantize_tile CTAs: CTA i quantizes the plan's
// scale blocks from i x blocks_per_cta on, in row-major order over every
// batch, row and block of the input. A per-tensor scale computed on the
// device (returns_global_scale) adds three kernels of
// nvfp4.global_amax_tile before it (zero, amax, finalize: kernel
// boundaries order them), and the quantization reads the result.
//
//===----------------------------------------------------------------------===//

#include "../Planner.h"
#include "../TileBuilders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::nvfp4;

/// The amax step's CTAs: GlobalAmaxTileOp::kThreads threads, 16 words
/// (256 bytes) each.
static constexpr int64_t kAmaxThreads = GlobalAmaxTileOp::kThreads,
                         kAmaxWordsPerCta = 16 * kAmaxThreads;

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
  OpBuilder hb(op);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  // The quantization's per-tensor scale: given, computed here, or none.
  Value global = op.getGlobalScale();
  if (Value returned = op.getReturnedGlobalScale()) {
    global = returned;
    MemRefType xType = op.getX().getType();
    const int64_t words =
        xType.getNumElements() * xType.getElementTypeBitWidth() / 128;
    for (GlobalAmaxStep step : {GlobalAmaxStep::Zero, GlobalAmaxStep::Amax,
                                GlobalAmaxStep::Finalize}) {
      const bool amax = step == GlobalAmaxStep::Amax;
      kb.setInsertionPointToEnd(kernels.getBody());
      auto kernel = createKernel(
          kb, loc, (kernelName + "_" + stringifyGlobalAmaxStep(step)).str(),
          TypeRange{xType, returned.getType()}, kAmaxThreads, symbols);
      Block &body = kernel.getBody().front();
      Value base =
          amax ? scaledBlockId(kb, loc, gpu::Dimension::x, kAmaxWordsPerCta)
               : Value(arith::ConstantIndexOp::create(kb, loc, 0));
      GlobalAmaxTileOp::create(kb, loc, step, body.getArgument(0),
                               body.getArgument(1), base, kAmaxWordsPerCta);
      gpu::ReturnOp::create(kb, loc);
      const int64_t grid =
          amax ? llvm::divideCeil(words, kAmaxWordsPerCta) : 1;
      launchWithPlan(hb, loc, kernel, gpu::KernelDim3{idx(grid), idx(1), idx(1)},
                     gpu::KernelDim3{idx(kAmaxThreads), idx(1), idx(1)},
                     /*dynamicShared=*/Value(), ValueRange{op.getX(), returned},
                     /*plan=*/Attribute());
    }
  }
  kb.setInsertionPointToEnd(kernels.getBody());
  SmallVector<Value> operands{op.getX()};
  if (global)
    operands.push_back(global);
  operands.append({op.getQ(), op.getSf()});
  auto kernel = createKernel(kb, loc, kernelName, ValueRange(operands).getTypes(),
                             plan.getThreadsPerCta(), symbols);
  Block &body = kernel.getBody().front();
  const unsigned q = global ? 2 : 1;
  QuantizeTileOp::create(
      kb, loc, body.getArgument(0), global ? body.getArgument(1) : Value(),
      body.getArgument(q), body.getArgument(q + 1),
      scaledBlockId(kb, loc, gpu::Dimension::x, plan.getBlocksPerCta()), plan,
      op.getSfLayout(), op.getScaleRoundingAttr());
  gpu::ReturnOp::create(kb, loc);

  launchWithPlan(hb, loc, kernel, gpu::KernelDim3{idx(ctas), idx(1), idx(1)},
                 gpu::KernelDim3{idx(plan.getThreadsPerCta()), idx(1), idx(1)},
                 /*dynamicShared=*/Value(), operands, plan);
  op.erase();
  return success();
}
