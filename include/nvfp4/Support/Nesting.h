//===- Nesting.h - refuse input nested too deeply to parse ------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Upstream MLIR's parser recurses once per nesting level of regions,
// attributes and types, so input nested thousands of levels deep overflows
// the stack (a crash, not a diagnostic). The tools scan their input first
// and refuse it with a message instead.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_SUPPORT_NESTING_H
#define NVFP4_SUPPORT_NESTING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::nvfp4 {

/// The deepest nesting the tools accept: far beyond any real kernel (the
/// pipeline's output nests about 10 levels), well within what the parser's
/// recursion takes on an 8 MiB stack.
constexpr unsigned kMaxInputNesting = 256;

/// Scans MLIR text for brackets ( [ { < nested deeper than `limit` (outside
/// string literals and // comments; `->` is not a bracket). Returns a
/// message naming the line when it is, else nullopt.
std::optional<std::string> checkNestingDepth(llvm::StringRef text,
                                             unsigned limit = kMaxInputNesting);

} // namespace mlir::nvfp4

#endif // NVFP4_SUPPORT_NESTING_H
