//===- CpuExecutor.h - run an entry function on the CPU reference -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Executes the nvfp4 operations of an entry function on host buffers with the
// CPU reference (nvfp4/Reference): the ground truth every GPU result is
// checked against.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNNER_CPUEXECUTOR_H
#define NVFP4_RUNNER_CPUEXECUTOR_H

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Reference/Layout.h"
#include "nvfp4/Runner/HostBuffer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::nvfp4 {

/// The CPU reference's spelling of a scale layout, and of an MXFP4
/// quantization's scale rounding (`floor` without one).
::nvfp4::ref::ScaleLayout toRef(ScaleLayout layout);
::nvfp4::ref::MXRounding toRef(std::optional<ScaleRounding> rounding);

/// Which entry arguments an entry function reads and writes.
struct EntrySignature {
  SmallVector<unsigned> inputs;
  SmallVector<unsigned> outputs;
};

/// Checks that `entry` is something nvfp4-run can execute: static memref
/// arguments, a body of nvfp4 ops whose operands are the entry's arguments,
/// and a plain `return`. Reports problems as diagnostics on the offending op.
FailureOr<EntrySignature> analyzeEntry(func::FuncOp entry);

/// Runs every nvfp4 op of `entry` in order on `args` (one buffer per entry
/// argument), writing the outputs in place.
LogicalResult executeOnCpu(func::FuncOp entry,
                           MutableArrayRef<HostBuffer> args);

/// Runs one nvfp4 op of an entry function on `args` (one buffer per entry
/// argument), writing its outputs in place.
LogicalResult executeOpOnCpu(Operation *op, MutableArrayRef<HostBuffer> args);

/// The entry's nvfp4 ops, in order.
SmallVector<Operation *> getEntryOps(func::FuncOp entry);

/// For each output argument of an entry made of `nvfp4.scaled_matmul` or
/// `nvfp4.grouped_matmul` ops,
/// a bound on how far two fp32 evaluations of each output element may
/// differ only through the order of accumulation: 2 * (K/16) * 2^-24 *
/// sum |a_k b_k| (within a 16-value block the sums are exact; the bound is
/// the textbook (n-1)u sum|x| for each of the two evaluations). The sum of
/// magnitudes is the reference product of |A| and |B|. A gated dual GEMM
/// (alone in its entry) propagates its two products' bounds through
/// silu(x1) x2. Returns one empty vector per output for entries of several
/// ops or of another op.
FailureOr<SmallVector<std::vector<float>>>
accumulationBounds(func::FuncOp entry, ArrayRef<HostBuffer> args,
                   const EntrySignature &signature);

/// accumulationBounds for one op of an entry, for the entry arguments
/// `outputs` (an empty vector for those it does not write, and for every
/// output of an op other than a GEMM).
FailureOr<SmallVector<std::vector<float>>>
accumulationBounds(Operation *op, ArrayRef<HostBuffer> args,
                   ArrayRef<unsigned> outputs);

} // namespace mlir::nvfp4

#endif // NVFP4_RUNNER_CPUEXECUTOR_H
