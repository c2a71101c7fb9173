//===- Nesting.cpp - refuse input nested too deeply to parse ---------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Nesting.h"

using namespace mlir::nvfp4;

std::optional<std::string>
mlir::nvfp4::checkNestingDepth(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, line = 1;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      break;
    case '"': // A string literal: skip to its closing quote.
      for (++i; i < e && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n')
          ++line;
      }
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return "the input nests brackets more than " + std::to_string(limit) +
               " levels deep (at line " + std::to_string(line) +
               "), beyond what the MLIR parser's recursion can take";
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break; // `->` in function types.
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}
