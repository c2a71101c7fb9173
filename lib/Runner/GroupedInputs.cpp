//===- GroupedInputs.cpp - a grouped GEMM's run-time sizes in nvfp4-run ---===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/GroupedInputs.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Reference/Ops.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// The entry argument `v` is, if it is one.
std::optional<unsigned> entryArgument(func::FuncOp entry, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &entry.getBody().front())
    return std::nullopt;
  return arg.getArgNumber();
}

} // namespace

std::vector<int32_t> mlir::nvfp4::readOffsets(const HostBuffer &buffer) {
  std::vector<int32_t> o(buffer.bytes.size() / sizeof(int32_t));
  std::memcpy(o.data(), buffer.bytes.data(), o.size() * sizeof(int32_t));
  return o;
}

/// Whether `m` are valid row counts for `op`'s groups; else why not.
static bool validSizes(GroupedMatmulOp op, ArrayRef<int64_t> m,
                       std::string &error) {
  const int64_t groups = op.getGroups();
  const int64_t rows = op.getA().getType().getDimSize(0);
  const std::string has = "the grouped GEMM's A has " + std::to_string(rows) +
                          " rows (" + std::to_string(groups) + " groups)";
  if (static_cast<int64_t>(m.size()) != groups) {
    error = "--group-sizes gives " + std::to_string(m.size()) +
            " sizes, but the grouped GEMM has " + std::to_string(groups) +
            " groups";
    return false;
  }
  int64_t total = 0;
  for (auto [g, s] : llvm::enumerate(m)) {
    if (s < 0) {
      error = "--group-sizes gives group " + std::to_string(g) + " " +
              std::to_string(s) + " rows (sizes are >= 0)";
      return false;
    }
    // Each size at most the rows before it is added: no overflow.
    if (s > rows) {
      error = "--group-sizes gives group " + std::to_string(g) + " " +
              std::to_string(s) + " rows, but " + has;
      return false;
    }
    if (total + s > rows) {
      error = "--group-sizes: the sizes reach " + std::to_string(total + s) +
              " rows at group " + std::to_string(g) + " (" + std::to_string(s) +
              " rows), but " + has;
      return false;
    }
    total += s;
  }
  return true;
}

bool mlir::nvfp4::checkGroupSizes(func::FuncOp entry, ArrayRef<int64_t> sizes,
                                  std::string &error) {
  bool found = false;
  WalkResult result = entry.walk([&](GroupedMatmulOp op) {
    if (!entryArgument(entry, op.getOffsets()))
      return WalkResult::advance();
    found = true;
    return validSizes(op, sizes, error) ? WalkResult::advance()
                                        : WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return false;
  if (!found) {
    error = "--group-sizes gives a grouped GEMM's row counts, but @" +
            entry.getSymName().str() +
            " has no nvfp4.grouped_matmul whose offsets are an argument";
    return false;
  }
  return true;
}

void mlir::nvfp4::writeGroupOffsets(func::FuncOp entry,
                                    MutableArrayRef<HostBuffer> args,
                                    std::optional<ArrayRef<int64_t>> sizes,
                                    bool keepGiven) {
  entry.walk([&](GroupedMatmulOp op) {
    std::optional<unsigned> arg = entryArgument(entry, op.getOffsets());
    if (!arg || (keepGiven && !sizes))
      return;
    const int64_t groups = op.getGroups();
    const int64_t rows = op.getA().getType().getDimSize(0);
    SmallVector<int64_t> m;
    if (sizes) {
      m.assign(sizes->begin(), sizes->end());
    } else if (std::optional<ArrayRef<int64_t>> hint = op.getSizeHint()) {
      m.assign(hint->begin(), hint->end());
    } else {
      for (int64_t g = 0; g < groups; ++g)
        m.push_back(rows / groups + (g < rows % groups ? 1 : 0));
    }
    // Given sizes passed checkGroupSizes, the verifier checked the hint,
    // and the even split fits by construction.
    assert(static_cast<int64_t>(m.size()) == groups && "unchecked sizes");
    std::vector<int32_t> offsets = {0};
    for (int64_t s : m)
      offsets.push_back(static_cast<int32_t>(offsets.back() + s));
    std::memcpy(args[*arg].bytes.data(), offsets.data(),
                offsets.size() * sizeof(int32_t));
  });
}

SmallVector<DeviceRunOptions::Untouched>
mlir::nvfp4::untouchedGroupRows(func::FuncOp entry, ArrayRef<HostBuffer> args) {
  // Per C buffer: the rows some grouped_matmul writes; a buffer another op
  // uses too is not checked.
  llvm::MapVector<unsigned, std::vector<bool>> written;
  llvm::DenseSet<unsigned> other;
  for (Operation &op : entry.getBody().front()) {
    auto grouped = dyn_cast<GroupedMatmulOp>(op);
    std::optional<unsigned> c, offsets;
    if (grouped) {
      c = entryArgument(entry, grouped.getC());
      offsets = entryArgument(entry, grouped.getOffsets());
    }
    if (!c || !offsets) {
      for (Value v : op.getOperands())
        if (std::optional<unsigned> arg = entryArgument(entry, v))
          other.insert(*arg);
      continue;
    }
    const int64_t rows = grouped.getC().getType().getDimSize(0);
    std::vector<bool> &rowsWritten = written[*c];
    rowsWritten.resize(static_cast<size_t>(rows), false);
    std::vector<int32_t> o = readOffsets(args[*offsets]);
    for (auto [begin, end] :
         ::nvfp4::ref::groupRows(o.data(), grouped.getGroups(), rows))
      std::fill(rowsWritten.begin() + begin, rowsWritten.begin() + end, true);
  }
  SmallVector<DeviceRunOptions::Untouched> untouched;
  for (auto &[c, rowsWritten] : written) {
    if (other.contains(c))
      continue;
    MemRefType cType = args[c].type;
    const int64_t rowBytes = cType.getDimSize(1) *
                             cType.getElementType().getIntOrFloatBitWidth() / 8;
    const int64_t rows = static_cast<int64_t>(rowsWritten.size());
    for (int64_t r = 0; r < rows;) {
      if (rowsWritten[r]) {
        ++r;
        continue;
      }
      int64_t end = r;
      while (end < rows && !rowsWritten[end])
        ++end;
      untouched.push_back({c, r * rowBytes, end * rowBytes});
      r = end;
    }
  }
  return untouched;
}
