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
// GEMM (scaled_dual_matmul) has two and silu(x1) * x2. Private to
// lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TRANSFORMS_GEMM_GEMMOPERANDS_H
#define NVFP4_TRANSFORMS_GEMM_GEMMOPERANDS_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

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

  /// The operands of a GEMM-shaped kernel op: a scaled_matmul or a
  /// scaled_dual_matmul; none for another op.
  static std::optional<GemmOperands> of(Operation *op);

  int64_t getWeights() const { return static_cast<int64_t>(b.size()); }
  OperandShape getAShape() const {
    return getOperandShape(cast<MemRefType>(a.getType()));
  }
  /// Rows of every weight (N).
  int64_t getN() const {
    return getOperandShape(cast<MemRefType>(b.front().getType())).rows;
  }
  /// What the op is, for diagnostics ("GEMM", "gated dual GEMM").
  StringRef getKind() const {
    return epilogue == Epilogue::Identity ? "GEMM" : "gated dual GEMM";
  }
  /// The op's operands in the order of its kernel's parameters: A, its
  /// scales, each weight and its scales, C.
  SmallVector<Value> getKernelOperands() const;
  /// The gemm_tile's epilogue region: one f32 argument per weight, the
  /// ops of `epilogue`, nvfp4.yield.
  void buildEpilogue(OpBuilder &b, Location loc, Region &region) const;
};

} // namespace mlir::nvfp4

#endif // NVFP4_TRANSFORMS_GEMM_GEMMOPERANDS_H
