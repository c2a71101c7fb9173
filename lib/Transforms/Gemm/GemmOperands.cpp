//===- GemmOperands.cpp - a GEMM-shaped kernel op's operands --------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "GemmOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

std::optional<GemmOperands> GemmOperands::of(Operation *op) {
  if (auto gemm = dyn_cast<ScaledMatmulOp>(op))
    return GemmOperands{op,
                        gemm.getA(),
                        gemm.getSfa(),
                        {gemm.getB()},
                        {gemm.getSfb()},
                        gemm.getC(),
                        gemm.getSfaLayout(),
                        gemm.getSfbLayout(),
                        Epilogue::Identity,
                        /*offsets=*/Value(),
                        gemm.getCScales(),
                        gemm.getCGlobalScale(),
                        gemm.getCScalesLayout(),
                        gemm.getCScaleRoundingAttr()};
  if (auto dual = dyn_cast<ScaledDualMatmulOp>(op))
    return GemmOperands{op,
                        dual.getA(),
                        dual.getSfa(),
                        {dual.getB1(), dual.getB2()},
                        {dual.getSfb1(), dual.getSfb2()},
                        dual.getC(),
                        dual.getSfaLayout(),
                        dual.getSfbLayout(),
                        Epilogue::SiluGate,
                        /*offsets=*/Value(),
                        dual.getCScales(),
                        dual.getCGlobalScale(),
                        dual.getCScalesLayout(),
                        dual.getCScaleRoundingAttr()};
  if (auto grouped = dyn_cast<GroupedMatmulOp>(op))
    return GemmOperands{op,
                        grouped.getA(),
                        grouped.getSfa(),
                        {grouped.getB()},
                        {grouped.getSfb()},
                        grouped.getC(),
                        grouped.getSfaLayout(),
                        grouped.getSfbLayout(),
                        Epilogue::Identity,
                        grouped.getOffsets()};
  return std::nullopt;
}

SmallVector<GemmOperands>
mlir::nvfp4::getProblemOperands(GroupedProblemsOp op) {
  SmallVector<GemmOperands> problems;
  for (int64_t g = 0; g < op.getProblems(); ++g)
    problems.push_back(GemmOperands{op,
                                    op.getA()[g],
                                    op.getSfa()[g],
                                    {op.getB()[g]},
                                    {op.getSfb()[g]},
                                    op.getC()[g],
                                    op.getSfaLayout(),
                                    op.getSfbLayout(),
                                    GemmOperands::Epilogue::Identity,
                                    /*offsets=*/Value()});
  return problems;
}

SmallVector<Value> GemmOperands::getKernelOperands() const {
  SmallVector<Value> operands = {a, sfa};
  for (auto [bi, sfbi] : llvm::zip(b, sfb))
    operands.append({bi, sfbi});
  operands.push_back(c);
  if (cScales)
    operands.push_back(cScales);
  if (cGlobalScale)
    operands.push_back(cGlobalScale);
  if (offsets)
    operands.push_back(offsets);
  return operands;
}

void GemmOperands::buildEpilogue(OpBuilder &builder, Location loc,
                                 Region &region) const {
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Type> types(b.size(), builder.getF32Type());
  SmallVector<Location> locs(b.size(), loc);
  Block *body = builder.createBlock(&region, {}, types, locs);
  if (epilogue == Epilogue::Identity) {
    YieldOp::create(builder, loc, body->getArgument(0));
    return;
  }
  // silu(x1) * x2 = x1 / (1 + 2^(-x1 log2 e)) * x2: e^-x as exp2, which
  // the conversion lowers to the GPU's ex2 (no libdevice call). Both
  // approximations are within a few ulp, far inside the contest's 1e-3.
  auto f32 = [&](double v) {
    return arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(v));
  };
  Value x1 = body->getArgument(0), x2 = body->getArgument(1);
  Value scaled = arith::MulFOp::create(builder, loc, x1, f32(-M_LOG2E));
  Value e = math::Exp2Op::create(builder, loc, scaled);
  // The division's `afn`: div.approx.f32 (2 ulp, like ex2.approx), not
  // the IEEE division, whose slow path is a called subroutine around which
  // ptxas spills the live accumulators (16 / 468 bytes of spill stores and
  // loads in a tcgen05 split cluster's epilogue).
  Value silu = arith::DivFOp::create(
      builder, loc, x1, arith::AddFOp::create(builder, loc, e, f32(1.0)),
      arith::FastMathFlags::afn);
  YieldOp::create(builder, loc,
                  arith::MulFOp::create(builder, loc, silu, x2).getResult());
}
