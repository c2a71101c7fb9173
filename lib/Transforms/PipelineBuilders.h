//===- PipelineBuilders.h - the K loops the pipeline writes -----*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// One builder per consumer of the ring; the pass (SoftwarePipeline.cpp)
// picks it by the tile's plan. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TRANSFORMS_PIPELINEBUILDERS_H
#define NVFP4_TRANSFORMS_PIPELINEBUILDERS_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::nvfp4 {

/// The i32 arithmetic both K-loop builders write, folding as it builds:
/// the prologue's constant round and slot numbers, and multiplications by
/// one, fold away instead of cluttering the IR.
struct FoldingBuilder {
  explicit FoldingBuilder(ImplicitLocOpBuilder &b)
      : b(b), i32(b.getI32Type()) {}

  Value c32(int64_t v) { return arith::ConstantIntOp::create(b, i32, v); }
  Value add(Value x, Value y) { return b.createOrFold<arith::AddIOp>(x, y); }
  Value sub(Value x, Value y) { return b.createOrFold<arith::SubIOp>(x, y); }
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulIOp>(x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(p, x, y);
  }

  ImplicitLocOpBuilder &b;
  Type i32;
};

/// The producer's wait before it refills `slot` (i32) for its `use`-th use
/// (i32, from 0): from the second use on, `nvfp4.ring.acquire` of the
/// previous use, whose parity is (use - 1) % 2.
void acquireForReuse(ImplicitLocOpBuilder &b, Value ring, Value slot,
                     Value use);

/// Checks that the kernel around `op`, when it declares its clusters
/// (known_cluster_size), declares the plan's `shape` (x, y, z), and that it
/// declares them when the plan needs a cluster: a kernel launched otherwise
/// would store into CTAs that do not exist. Reports on `op`.
LogicalResult checkClusterShape(GemmTileOp op, ArrayRef<int64_t> shape);

/// Writes the K loop of a gemm_tile with a #nvfp4.wgmma_mainloop ring
/// (sm_90a) in its place, from its plan's parts (Gemm/KernelTemplate.cpp).
/// Reports on `op` and fails when the kernel around it does not match the
/// plan.
LogicalResult buildWgmmaPipeline(GemmTileOp op, ImplicitLocOpBuilder &b);

/// Writes the K loop of a gemm_tile with a #nvfp4.tcgen05_mainloop
/// (sm_100a) in its place: a TMA producer thread, a tcgen05 MMA thread and
/// a TMEM epilogue (Gemm/MainloopSm100.cpp). Reports on `op` and fails when
/// the kernel around it does not match the plan.
LogicalResult buildTcgen05Pipeline(GemmTileOp op, ImplicitLocOpBuilder &b);

} // namespace mlir::nvfp4

#endif // NVFP4_TRANSFORMS_PIPELINEBUILDERS_H
