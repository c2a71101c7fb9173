//===- GemmOperands.h - a GEMM-shaped kernel op's operands ------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The kernel ops nvfp4-plan and nvfp4-tile lower as a GEMM, seen the same
// way: A and its scales, one or more weights with theirs (each multiplied
// with the same A into its own accumulator), C, and the epilogue that
// makes C's element from the accumulators' (gemm_tile's region). The GEMM
// (scaled_matmul, N > 1) has one weight and the identity; the gated dual
// GEMM (scaled_dual_matmul) has two and silu(x1) * x2; the grouped GEMM
// (grouped_matmul) has one weight per group and its groups' run-time row
// offsets; each problem of a grouped_problems is a GEMM of its own, in one
// kernel. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TRANSFORMS_GEMM_GEMMOPERANDS_H
#define NVFP4_TRANSFORMS_GEMM_GEMMOPERANDS_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Dialect/NVFP4/WgmmaBTiles.h"

#include <optional>

namespace mlir::nvfp4 {

struct GemmOperands {
  /// How C's element is made from the accumulators' elements.
  enum class Epilogue {
    /// The GEMM: the one accumulator.
    Identity,
    /// The gated dual GEMM: silu(x1) * x2 with silu(x) = x / (1 + e^-x).
    SiluGate,
  };

  Operation *op;
  Value a, sfa;
  SmallVector<Value, 2> b, sfb;
  Value c;
  ScaleLayout sfaLayout, sfbLayout;
  Epilogue epilogue;
  /// A grouped GEMM's G + 1 row offsets (a device buffer), else null.
  Value offsets;
  /// An FP4 C's block scales (in `cScalesLayout`) and optional
  /// per-tensor scale (NVFP4) or scale rounding (MXFP4), else null.
  Value cScales = {}, cGlobalScale = {};
  ScaleLayout cScalesLayout = ScaleLayout::Plain;
  ScaleRoundingAttr cScaleRounding = {};

  /// The operands of a GEMM-shaped kernel op: a scaled_matmul, a
  /// scaled_dual_matmul or a grouped_matmul; none for another op.
  static std::optional<GemmOperands> of(Operation *op);

  int64_t getWeights() const { return static_cast<int64_t>(b.size()); }
  OperandShape getAShape() const {
    return getOperandShape(cast<MemRefType>(a.getType()));
  }
  /// Rows of every weight (N).
  int64_t getN() const {
    return getOperandShape(cast<MemRefType>(b.front().getType())).rows;
  }
  /// Whether this is a grouped GEMM (the weights are G x N x K).
  bool isGrouped() const { return static_cast<bool>(offsets); }
  /// The weights' batch: G for a grouped GEMM, else A's.
  int64_t getWeightBatch() const {
    return getOperandShape(cast<MemRefType>(b.front().getType())).batch;
  }
  /// What the op is, for diagnostics ("GEMM", "gated dual GEMM").
  StringRef getKind() const {
    if (isGrouped())
      return "grouped GEMM";
    return epilogue == Epilogue::Identity ? "GEMM" : "gated dual GEMM";
  }
  /// Whether C is NVFP4 (quantized in the epilogue).
  bool isQuantizedOutput() const { return static_cast<bool>(cScales); }
  /// The operands' block format (NVFP4 or MXFP4).
  BlockFormat getFormat() const {
    return BlockFormat::of(sfb.front().getType());
  }
  /// Whether B's scales can come through the ring (b_tma) at this K.
  bool bTmaScalesFit() const {
    return nvfp4::bTmaScalesFit(sfbLayout, getAShape().k, getFormat());
  }
  /// The op's operands in the order of its kernel's parameters: A, its
  /// scales, each weight and its scales, C, then an NVFP4 C's scales and
  /// per-tensor scale or a grouped GEMM's offsets.
  SmallVector<Value> getKernelOperands() const;
  /// The gemm_tile's epilogue region: one f32 argument per weight, the
  /// ops of `epilogue`, nvfp4.yield.
  void buildEpilogue(OpBuilder &b, Location loc, Region &region) const;
};

/// Each problem of a grouped_problems as a GEMM of its own.
SmallVector<GemmOperands> getProblemOperands(GroupedProblemsOp op);

} // namespace mlir::nvfp4

#endif // NVFP4_TRANSFORMS_GEMM_GEMMOPERANDS_H
