//===- SmemPlan.cpp - an sm_90a GEMM CTA's shared memory ------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/SmemPlan.h"

using namespace mlir;
using namespace mlir::nvfp4;

WgmmaSmemPlan::Exchange
WgmmaSmemPlan::getExchange(int64_t floatsPerSplit) const {
  const int64_t bytes =
      SplitKAttr::exchangeBytes(plan.getSplitK(), floatsPerSplit);
  if (mainloop.getBTma()) {
    const int64_t start =
        ring.getSplitExchangeStart(bytes, mainloop.getATileBytes());
    if (start >= getKGroupSumsBytes())
      return {start, mainloop.getATileBytes()};
  }
  return {ring.getSplitExchangeStart(bytes, 0), 0};
}

std::optional<int64_t>
WgmmaSmemPlan::getStagingOffset(int64_t bytes, int64_t exchangeFloats) const {
  const int64_t offset = getKGroupSumsBytes();
  const int64_t limit = plan.getSplitCluster()
                            ? getExchange(exchangeFloats).start
                            : ring.getDataBytes();
  if (offset + bytes > limit)
    return std::nullopt;
  return offset;
}

std::optional<int64_t>
WgmmaSmemPlan::getMXExchangeOffset(int64_t bytes,
                                   int64_t exchangeFloats) const {
  if (std::optional<int64_t> offset = getStagingOffset(bytes, exchangeFloats))
    return offset;
  if (!plan.getSplitCluster())
    return std::nullopt;
  const Exchange exchange = getExchange(exchangeFloats);
  if (exchange.aTileBytes == 0 ||
      exchange.aTileBytes + bytes > ring.getSlotBytes())
    return std::nullopt;
  return exchange.start + exchange.aTileBytes;
}
