//===- Nesting.cpp - refuse input the MLIR parser cannot take -------------===//
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

/// A character of an alias name (an MLIR suffix id).
bool isAliasChar(char c) { return isIdentifierChar(c) || c == '-'; }

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// The scan of one text: bracket depth, alias depths, affine expressions.
class Scanner {
public:
  Scanner(llvm::StringRef text, unsigned limit) : text(text), limit(limit) {}

  std::optional<std::string> run();

private:
  std::string at() const { return " (at line " + std::to_string(line) + ")"; }
  std::optional<std::string> tooDeep(unsigned levels) const;
  std::optional<std::string> checkText() const;
  std::optional<std::string> alias(size_t &i);
  void endDefinition();
  std::optional<std::string> identifier(size_t &i);
  std::optional<std::string> affineOperator();

  llvm::StringRef text;
  unsigned limit;
  unsigned depth = 0, line = 1;
  /// Nesting reached through each attribute or type alias defined so far.
  llvm::StringMap<unsigned> aliasDepth;
  /// The alias being defined (`#name = ...` at the top level, until the
  /// next top-level line or definition), and the deepest nesting its
  /// definition reached.
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

/// Refuses binary data: a NUL byte, or bytes that are not UTF-8.
std::optional<std::string> Scanner::checkText() const {
  auto lineOf = [&](size_t offset) {
    return std::to_string(1 + text.take_front(offset).count('\n'));
  };
  size_t nul = text.find('\0');
  if (nul != llvm::StringRef::npos)
    return "the input is not MLIR text: it holds a NUL byte at offset " +
           std::to_string(nul) + " (line " + lineOf(nul) + ")";
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(text.data());
  const llvm::UTF8 *cursor = begin;
  if (!llvm::isLegalUTF8String(&cursor, begin + text.size())) {
    size_t offset = cursor - begin;
    return "the input is not MLIR text: it holds bytes that are not UTF-8 "
           "at offset " +
           std::to_string(offset) + " (line " + lineOf(offset) + ")";
  }
  return std::nullopt;
}

/// An alias after its sigil `#` or `!` at text[i]: a use, or at the top
/// level and followed by `=`, a definition (which ends the one before it).
/// Alias names are MLIR suffix ids (letters, digits, `_ $ . -`). Leaves i
/// on the name's last character.
std::optional<std::string> Scanner::alias(size_t &i) {
  const char sigil = text[i];
  const size_t start = i + 1;
  while (i + 1 < text.size() && isAliasChar(text[i + 1]))
    ++i;
  if (i + 1 == start)
    return std::nullopt; // A lone sigil: not an alias.
  std::string key = sigil + text.slice(start, i + 1).str();
  size_t j = i + 1;
  while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
    ++j;
  if (depth == 0 && j < text.size() && text[j] == '=' &&
      (j + 1 >= text.size() || text[j + 1] != '=')) {
    endDefinition();
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

void Scanner::endDefinition() {
  if (defining.empty())
    return;
  aliasDepth[defining] = definingDepth;
  defining.clear();
}

/// A keyword at text[i]: the start of an affine map or set, or an affine
/// operator word inside one. Leaves i on its last character.
std::optional<std::string> Scanner::identifier(size_t &i) {
  const size_t start = i;
  while (i + 1 < text.size() && isIdentifierChar(text[i + 1]))
    ++i;
  llvm::StringRef name = text.slice(start, i + 1);
  if (affineOuterDepth < 0 && (name == "affine_map" || name == "affine_set")) {
    // `affine_map <...>`: blanks may precede the bracket.
    size_t j = i + 1;
    while (j < text.size() && isBlank(text[j]))
      ++j;
    if (j < text.size() && text[j] == '<') {
      affineOuterDepth = static_cast<int>(depth);
      affineOperators = 0;
      affineLine = line;
    }
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
  if (std::optional<std::string> binary = checkText())
    return binary;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      if (depth == 0)
        endDefinition();
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
    case '!':
      if (auto message = alias(i))
        return message;
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
      // `->` in function types and affine maps; `>=` in integer sets.
      if ((i > 0 && text[i - 1] == '-') || (i + 1 < e && text[i + 1] == '='))
        break;
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
        if (auto message = identifier(i))
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
