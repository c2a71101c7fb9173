//===- GroupedInputs.cpp - a grouped GEMM's run-time sizes in nvfp4-run ---===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/GroupedInputs.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Reference/Ops.h"

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

std::vector<int32_t> offsetsOf(const HostBuffer &buffer) {
  std::vector<int32_t> o(buffer.bytes.size() / sizeof(int32_t));
  std::memcpy(o.data(), buffer.bytes.data(), o.size() * sizeof(int32_t));
  return o;
}

} // namespace

bool mlir::nvfp4::writeGroupOffsets(func::FuncOp entry,
                                    MutableArrayRef<HostBuffer> args,
                                    std::optional<ArrayRef<int64_t>> sizes,
                                    bool keepGiven, std::string &error) {
  WalkResult result = entry.walk([&](GroupedMatmulOp op) {
    std::optional<unsigned> arg = entryArgument(entry, op.getOffsets());
    if (!arg || (keepGiven && !sizes))
      return WalkResult::advance();
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
    int64_t total = 0;
    for (int64_t s : m)
      total += s;
    if (static_cast<int64_t>(m.size()) != groups ||
        llvm::any_of(m, [](int64_t s) { return s < 0; }) || total > rows) {
      error = "--group-sizes gives " + std::to_string(m.size()) +
              " sizes summing to " + std::to_string(total) +
              ", but the grouped GEMM has " + std::to_string(groups) +
              " groups (sizes >= 0) of at most " + std::to_string(rows) +
              " rows in all";
      return WalkResult::interrupt();
    }
    std::vector<int32_t> offsets = {0};
    for (int64_t s : m)
      offsets.push_back(static_cast<int32_t>(offsets.back() + s));
    std::memcpy(args[*arg].bytes.data(), offsets.data(),
                offsets.size() * sizeof(int32_t));
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

SmallVector<DeviceRunOptions::Untouched>
mlir::nvfp4::untouchedGroupRows(func::FuncOp entry, ArrayRef<HostBuffer> args) {
  SmallVector<DeviceRunOptions::Untouched> untouched;
  entry.walk([&](GroupedMatmulOp op) {
    std::optional<unsigned> c = entryArgument(entry, op.getC());
    std::optional<unsigned> offsets = entryArgument(entry, op.getOffsets());
    if (!c || !offsets)
      return;
    MemRefType cType = op.getC().getType();
    const int64_t rows = cType.getDimSize(0);
    const int64_t rowBytes = cType.getDimSize(1) *
                             cType.getElementType().getIntOrFloatBitWidth() / 8;
    std::vector<int32_t> o = offsetsOf(args[*offsets]);
    auto groups = ::nvfp4::ref::groupRows(o.data(), op.getGroups(), rows);
    const int64_t first = groups.front().first, last = groups.back().second;
    if (first > 0)
      untouched.push_back({*c, 0, first * rowBytes});
    if (last < rows)
      untouched.push_back({*c, last * rowBytes, rows * rowBytes});
  });
  return untouched;
}
