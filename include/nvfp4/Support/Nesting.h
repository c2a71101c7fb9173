//===- Nesting.h - refuse input the MLIR parser cannot take -----*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Upstream MLIR's parser recurses once per nesting level of regions,
// attributes and types, and once per operator of an affine expression; its
// printer recurses through attributes nested by aliases. Input nested
// thousands of levels deep, or an affine map of 10,000 unary minuses or
// 100,000 terms, overflows the stack (a crash, not a diagnostic). The tools
// scan their input first and refuse it with a message instead; binary data
// (other than MLIR bytecode) is refused as not text.
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

/// The most operators one affine map or set may have: real maps have a
/// handful; 1024 recursions of the affine parser fit an 8 MiB stack many
/// times over.
constexpr unsigned kMaxAffineOperators = 1024;

/// Scans MLIR text for brackets ( [ { < nested deeper than `limit` (outside
/// string literals and // comments; `->` is not a bracket), counting an
/// alias's own nesting where it is used (`#a1 = [#a0]` nests one level more
/// than #a0), and for affine maps or sets of more than kMaxAffineOperators
/// operators. Input that holds a NUL byte or is not UTF-8 is not text (MLIR
/// bytecode passes). Returns a message naming the line, else nullopt.
std::optional<std::string> checkNestingDepth(llvm::StringRef text,
                                             unsigned limit = kMaxInputNesting);

} // namespace mlir::nvfp4

#endif // NVFP4_SUPPORT_NESTING_H
