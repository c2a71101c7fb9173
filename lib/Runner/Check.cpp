//===- Check.cpp - compare a kernel's outputs with the CPU reference -------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/Check.h"

#include "nvfp4/Reference/Compare.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

static bool isFloatOutput(Type e) { return e.isF16() || e.isBF16() || e.isF32(); }

std::string mlir::nvfp4::formatIndex(MemRefType type, int64_t flat) {
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(index, os);
  os << "]";
  return s;
}

void mlir::nvfp4::countNonFinite(const HostBuffer &output, OutputCheck &check) {
  if (!isFloatOutput(output.type.getElementType()))
    return;
  std::vector<float> values = output.toFloats();
  for (auto [i, v] : llvm::enumerate(values)) {
    if (std::isfinite(v))
      continue;
    if (check.nonFinite++ == 0) {
      check.firstNonFinite = static_cast<int64_t>(i);
      check.firstNonFiniteValue = v;
    }
  }
}

FailureOr<SmallVector<OutputCheck>>
mlir::nvfp4::checkOutputs(func::FuncOp entry, ArrayRef<HostBuffer> got,
                          ArrayRef<HostBuffer> want,
                          const EntrySignature &signature) {
  FailureOr<SmallVector<std::vector<float>>> bounds =
      accumulationBounds(entry, want, signature);
  if (failed(bounds))
    return failure();
  SmallVector<OutputCheck> checks;
  for (auto [oi, o] : llvm::enumerate(signature.outputs)) {
    OutputCheck check;
    check.argIndex = o;
    Type e = got[o].type.getElementType();
    check.isFloat = isFloatOutput(e);
    if (!check.isFloat) {
      // Packed fp4, e4m3 scales: bit for bit.
      const std::vector<uint8_t> &g = got[o].bytes, &w = want[o].bytes;
      check.values = static_cast<int64_t>(g.size());
      for (size_t i = 0; i < g.size(); ++i) {
        if (g[i] == w[i])
          continue;
        if (check.mismatches++ == 0) {
          check.firstBad = static_cast<int64_t>(i);
          check.got = g[i];
          check.want = w[i];
        }
      }
      checks.push_back(check);
      continue;
    }
    std::vector<float> g = got[o].toFloats(), w = want[o].toFloats();
    // The contest's rule, plus the fp32 accumulation-order bound (it only
    // matters when large partial sums cancel), plus one bf16 ulp (2^-7
    // relative, more than the rule's 1e-3).
    std::vector<float> extra = (*bounds)[oi];
    extra.resize(g.size(), 0.0f);
    if (e.isBF16())
      for (size_t i = 0; i < extra.size(); ++i)
        extra[i] += std::fabs(w[i]) * 0x1p-7f;
    // f16 and bf16 outputs overflow where round-to-nearest gives infinity:
    // 65520, and 2^128 (1 - 2^-9).
    const double overflowAt = e.isF16()    ? 65520.0
                              : e.isBF16() ? 0x1.ffp127
                                           : 0.0;
    ::nvfp4::ref::CompareResult cmp = ::nvfp4::ref::compareOutputs(
        g.data(), w.data(), static_cast<int64_t>(g.size()), 1e-3, 1e-3,
        extra.data(), overflowAt);
    check.values = static_cast<int64_t>(g.size());
    check.mismatches = cmp.mismatches;
    check.firstBad = cmp.firstBad;
    check.got = cmp.firstGot;
    check.want = cmp.firstWant;
    check.allowed = cmp.firstAllowed;
    check.maxAbsErr = cmp.maxAbsErr;
    check.maxRelErr = cmp.maxRelErr;
    check.widened = cmp.widened;
    countNonFinite(got[o], check);
    checks.push_back(check);
  }
  return checks;
}

std::string mlir::nvfp4::describeMismatch(const HostBuffer &output,
                                          const OutputCheck &check) {
  if (!check.isFloat)
    return llvm::formatv("argument #{0} differs from the CPU reference in {1} "
                         "of {2} bytes; first at byte {3}: got 0x{4:x-2}, "
                         "want 0x{5:x-2}",
                         check.argIndex, check.mismatches, check.values,
                         check.firstBad, static_cast<unsigned>(check.got),
                         static_cast<unsigned>(check.want))
        .str();
  Type e = output.type.getElementType();
  return llvm::formatv(
             "argument #{0} differs from the CPU reference in {1} of {2} "
             "values; first at {3} (flat index {4}): got {5}, want {6}, "
             "allowed difference {7} (1e-3 + 1e-3 |ref| + fp32 accumulation "
             "bound{8})",
             check.argIndex, check.mismatches, check.values,
             formatIndex(output.type, check.firstBad), check.firstBad,
             check.got, check.want, check.allowed,
             e.isBF16() ? " + 1 bf16 ulp" : "")
      .str();
}

std::string mlir::nvfp4::describeNonFinite(const HostBuffer &output,
                                           const OutputCheck &check) {
  if (!check.nonFinite)
    return "";
  return llvm::formatv("argument #{0} holds {1} non-finite values of {2} "
                       "({3:f1}%); the first at {4} is {5}",
                       check.argIndex, check.nonFinite, check.values,
                       100.0 * check.nonFinite / std::max<int64_t>(1, check.values),
                       formatIndex(output.type, check.firstNonFinite),
                       check.firstNonFiniteValue)
      .str();
}
