//===- Nesting.cpp - refuse input the MLIR parser cannot take
//--------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Nesting.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ConvertUTF.h"

#include <algorithm>

using namespace mlir::nvfp4;

namespace {

bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isIdentifierChar(char c) {
  return isIdentifierStart(c) || (c >= '0' && c <= '9') || c == '$' || c == '.';
}

/// The scan of one text: bracket depth, alias depths, affine expressions.
class Scanner {
public:
  Scanner(llvm::StringRef text, unsigned limit) : text(text), limit(limit) {}

  std::optional<std::string> run();

private:
  std::string at() const { return " (at line " + std::to_string(line) + ")"; }
  std::optional<std::string> tooDeep(unsigned levels) const;
  std::optional<std::string> identifier(size_t &i, bool atLineStart);
  std::optional<std::string> affineOperator();

  llvm::StringRef text;
  unsigned limit;
  unsigned depth = 0, line = 1;
  bool lineStart = true;
  /// Nesting reached through each attribute or type alias defined so far.
  llvm::StringMap<unsigned> aliasDepth;
  /// The alias being defined (`#name = ...` at the top level), and the
  /// deepest nesting its definition reached.
  std::string defining;
  unsigned definingDepth = 0;
  /// Inside `affine_map<` / `affine_set<`: the depth outside it (else -1)
  /// and its operators so far.
  int affineOuterDepth = -1;
  unsigned affineOperators = 0;
  unsigned affineLine = 0;
};

std::optional<std::string> Scanner::tooDeep(unsigned levels) const {
  return "the input nests brackets or aliases more than " +
         std::to_string(levels) + " levels deep" + at() +
         ", beyond what the MLIR parser's recursion can take";
}

/// An identifier at text[i]: an alias use or definition (after `#` or `!`),
/// or the start of an affine map or set; `atLineStart` when only blanks
/// and the sigil precede it on its line. Leaves i on its last character.
std::optional<std::string> Scanner::identifier(size_t &i, bool atLineStart) {
  size_t start = i;
  char sigil = i > 0 ? text[i - 1] : 0;
  while (i + 1 < text.size() && isIdentifierChar(text[i + 1]))
    ++i;
  llvm::StringRef name = text.slice(start, i + 1);
  if (sigil == '#' || sigil == '!') {
    std::string key = std::string(1, sigil) + name.str();
    // A definition: `#name = ...` starting a top-level line.
    size_t j = i + 1;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
      ++j;
    if (depth == 0 && atLineStart && j < text.size() && text[j] == '=' &&
        (j + 1 >= text.size() || text[j + 1] != '=')) {
      defining = key;
      definingDepth = 0;
      return std::nullopt;
    }
    auto it = aliasDepth.find(key);
    if (it != aliasDepth.end()) {
      unsigned reached = depth + it->second;
      if (reached > limit)
        return tooDeep(limit);
      definingDepth = std::max(definingDepth, reached);
    }
    return std::nullopt;
  }
  if (affineOuterDepth < 0 && (name == "affine_map" || name == "affine_set") &&
      i + 1 < text.size() && text[i + 1] == '<') {
    affineOuterDepth = static_cast<int>(depth);
    affineOperators = 0;
    affineLine = line;
    return std::nullopt;
  }
  if (affineOuterDepth >= 0 &&
      (name == "floordiv" || name == "ceildiv" || name == "mod"))
    return affineOperator();
  return std::nullopt;
}

/// One more operator in the affine expression being scanned.
std::optional<std::string> Scanner::affineOperator() {
  if (++affineOperators > kMaxAffineOperators)
    return "an affine map or set at line " + std::to_string(affineLine) +
           " has more than " + std::to_string(kMaxAffineOperators) +
           " operators (+, -, *, floordiv, ceildiv, mod), beyond what the "
           "MLIR parser's recursion can take";
  return std::nullopt;
}

std::optional<std::string> Scanner::run() {
  // MLIR bytecode is read without recursion on the text; anything else must
  // be text.
  if (text.starts_with("ML\xef\x52"))
    return std::nullopt;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    if (text[i] == '\0')
      return "the input is not MLIR text: it holds a NUL byte at offset " +
             std::to_string(i) + " (line " +
             std::to_string(1 + text.take_front(i).count('\n')) + ")";
  }
  {
    const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
    const llvm::UTF8 *cursor = begin;
    if (!llvm::isLegalUTF8String(&cursor, begin + text.size())) {
      size_t offset = cursor - begin;
      return "the input is not MLIR text: it holds bytes that are not "
             "UTF-8 at offset " +
             std::to_string(offset) + " (line " +
             std::to_string(1 + text.take_front(offset).count('\n')) + ")";
    }
  }
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    bool wasLineStart = lineStart;
    lineStart = false;
    switch (c) {
    case '\n':
      ++line;
      lineStart = true;
      if (depth == 0 && !defining.empty()) {
        aliasDepth[defining] = definingDepth;
        defining.clear();
      }
      break;
    case ' ':
    case '\t':
    case '\r':
      lineStart = wasLineStart;
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
    case '#':
    case '!': // An alias's sigil keeps the line's start for its name.
      lineStart = wasLineStart;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return tooDeep(limit);
      definingDepth = std::max(definingDepth, depth);
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break; // `->` in function types and affine maps.
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth)
        --depth;
      if (affineOuterDepth >= 0 && static_cast<int>(depth) <= affineOuterDepth)
        affineOuterDepth = -1;
      break;
    case '+':
    case '*':
      if (affineOuterDepth >= 0)
        if (auto message = affineOperator())
          return message;
      break;
    case '-':
      if (affineOuterDepth >= 0 && !(i + 1 < e && text[i + 1] == '>'))
        if (auto message = affineOperator())
          return message;
      break;
    default:
      if (isIdentifierStart(c) && (i == 0 || !isIdentifierChar(text[i - 1])))
        if (auto message = identifier(i, wasLineStart))
          return message;
      break;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> mlir::nvfp4::checkNestingDepth(llvm::StringRef text,
                                                          unsigned limit) {
  return Scanner(text, limit).run();
}
