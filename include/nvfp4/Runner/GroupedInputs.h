//===- GroupedInputs.h - a grouped GEMM's sizes in nvfp4-run -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// What nvfp4-run does for nvfp4.grouped_matmul, whose group sizes are a
// run-time operand: writes the offsets from sizes (given, the op's size
// hint, or Mmax split evenly) and says which bytes of C the op leaves
// untouched, so that the device run can check that they were.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNNER_GROUPEDINPUTS_H
#define NVFP4_RUNNER_GROUPEDINPUTS_H

#include "nvfp4/Runner/DeviceRun.h"
#include "nvfp4/Runner/HostBuffer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::nvfp4 {

/// Whether `sizes` (--group-sizes) fit every grouped_matmul of `entry`
/// whose offsets are an entry argument (G sizes >= 0 summing to at most
/// Mmax), and there is one; else why not, in `error`. Checked before
/// anything is compiled.
bool checkGroupSizes(func::FuncOp entry, ArrayRef<int64_t> sizes,
                     std::string &error);

/// Writes the offsets of every grouped_matmul of `entry` whose offsets are
/// an entry argument: from `sizes` when given (G sizes >= 0 summing to at
/// most Mmax), else, unless `keepGiven` (they came from a file), from the
/// op's size_hint or Mmax split as evenly as the groups allow. `sizes`
/// must have passed checkGroupSizes.
void writeGroupOffsets(func::FuncOp entry, MutableArrayRef<HostBuffer> args,
                       std::optional<ArrayRef<int64_t>> sizes, bool keepGiven);

/// The G + 1 offsets a buffer of i32 holds.
std::vector<int32_t> readOffsets(const HostBuffer &buffer);

/// The bytes of C that the entry's grouped_matmul ops leave untouched (rows
/// outside every group of every op writing it, after clamping the offsets
/// in `args`); none of a buffer another op also uses.
SmallVector<DeviceRunOptions::Untouched>
untouchedGroupRows(func::FuncOp entry, ArrayRef<HostBuffer> args);

} // namespace mlir::nvfp4

#endif // NVFP4_RUNNER_GROUPEDINPUTS_H
