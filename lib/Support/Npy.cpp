//===- Npy.cpp - NumPy .npy file reader and writer --------------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// File layout (all versions): the magic string "\x93NUMPY", one byte major
// version, one byte minor version, the header length (little-endian uint16
// for 1.0, uint32 for 2.0 and 3.0), then the header: the repr of a Python
// dict literal with the keys 'descr', 'fortran_order' and 'shape', padded
// with spaces and terminated by a newline. The raw element data follows.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Npy.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

namespace nvfp4 {
namespace npy {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
/// Data offsets of written files are multiples of this.
constexpr size_t kAlignment = 64;
/// Largest dimension, element count or byte count accepted (keeps all the
/// size arithmetic far from int64_t overflow).
constexpr int64_t kMaxExtent = int64_t(1) << 62;

/// Outcome of parsing a descr string.
enum class DescrStatus { Ok, Unsupported, BigEndian };

/// Parses a descr such as "<f4". On success sets `canonical` and `itemSize`.
/// On failure sets `reason` to a short explanation.
DescrStatus parseDescr(const std::string &descr, std::string &canonical,
                       int64_t &itemSize, std::string &reason) {
  std::string body = descr;
  char order = '=';
  if (!body.empty() && (body[0] == '<' || body[0] == '>' || body[0] == '|' ||
                        body[0] == '=')) {
    order = body[0];
    body = body.substr(1);
  }
  if (body.size() < 2) {
    reason = "not a numeric scalar dtype";
    return DescrStatus::Unsupported;
  }
  char kind = body[0];
  std::string sizeText = body.substr(1);
  int64_t size = -1;
  if (sizeText == "1" || sizeText == "2" || sizeText == "4" || sizeText == "8")
    size = sizeText[0] - '0';
  bool kindOk = false;
  switch (kind) {
  case 'b':
    kindOk = size == 1;
    break;
  case 'i':
  case 'u':
    kindOk = size > 0;
    break;
  case 'f':
    kindOk = size == 2 || size == 4 || size == 8;
    break;
  default:
    break;
  }
  if (!kindOk) {
    reason = "supported dtypes are b1, i1/i2/i4/i8, u1/u2/u4/u8 and "
             "f2/f4/f8";
    return DescrStatus::Unsupported;
  }
  if (size > 1 && order == '>') {
    reason = "big-endian data is not supported";
    return DescrStatus::BigEndian;
  }
  if (size > 1 && order == '|') {
    reason = "byte order '|' is only valid for 1-byte types";
    return DescrStatus::Unsupported;
  }
  canonical = std::string(1, size == 1 ? '|' : '<') + kind + sizeText;
  itemSize = size;
  return DescrStatus::Ok;
}

/// Formats a shape as a Python tuple: "()", "(5,)", "(2, 3)".
std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

/// Computes the element count of `shape` into `count`; false if a dimension
/// is negative or the count exceeds kMaxExtent.
bool checkedElementCount(const std::vector<int64_t> &shape, int64_t &count) {
  count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return false;
    if (dim != 0 && count > kMaxExtent / dim)
      return false;
    count *= dim;
  }
  return true;
}

/// A recursive-descent parser for the header dict of a .npy file.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &headerText) : text(headerText) {}

  /// Parses the whole header. On failure returns false and sets `error` to
  /// a description of the problem.
  bool parse(std::string &descr, bool &fortranOrder,
             std::vector<int64_t> &shape, bool &descrIsStructured,
             std::string &error) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    descrIsStructured = false;
    skipSpace();
    if (!consume('{'))
      return fail("expected '{' at the start of the header dict", error);
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return fail("expected a quoted key", error);
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after key '" + key + "'", error);
      skipSpace();
      if (key == "descr") {
        if (haveDescr)
          return fail("duplicate key 'descr'", error);
        haveDescr = true;
        if (peek() == '[') {
          descrIsStructured = true;
          return fail("structured dtypes are not supported", error);
        }
        if (!parseString(descr))
          return fail("the value of 'descr' is not a string", error);
      } else if (key == "fortran_order") {
        if (haveOrder)
          return fail("duplicate key 'fortran_order'", error);
        haveOrder = true;
        if (consumeWord("True"))
          fortranOrder = true;
        else if (consumeWord("False"))
          fortranOrder = false;
        else
          return fail("the value of 'fortran_order' is not True or False",
                      error);
      } else if (key == "shape") {
        if (haveShape)
          return fail("duplicate key 'shape'", error);
        haveShape = true;
        std::string shapeError;
        if (!parseShape(shape, shapeError))
          return fail("bad 'shape': " + shapeError, error);
      } else {
        return fail("unexpected key '" + key + "'", error);
      }
      skipSpace();
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return fail("expected ',' or '}' after the value of '" + key + "'",
                  error);
    }
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the closing '}'", error);
    if (!haveDescr)
      return fail("missing key 'descr'", error);
    if (!haveOrder)
      return fail("missing key 'fortran_order'", error);
    if (!haveShape)
      return fail("missing key 'shape'", error);
    return true;
  }

private:
  const std::string &text;
  size_t pos = 0;

  static bool fail(const std::string &message, std::string &error) {
    error = message;
    return false;
  }

  char peek() const { return pos < text.size() ? text[pos] : '\0'; }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos;
    return true;
  }

  /// Consumes `word` if it is next and not followed by an identifier
  /// character.
  bool consumeWord(const char *word) {
    size_t n = std::strlen(word);
    if (text.compare(pos, n, word) != 0)
      return false;
    char next = pos + n < text.size() ? text[pos + n] : '\0';
    if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
        (next >= '0' && next <= '9') || next == '_')
      return false;
    pos += n;
    return true;
  }

  /// Parses a single- or double-quoted string without escape sequences.
  bool parseString(std::string &out) {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return false;
    size_t end = text.find(quote, pos + 1);
    if (end == std::string::npos)
      return false;
    std::string body = text.substr(pos + 1, end - pos - 1);
    if (body.find('\\') != std::string::npos ||
        body.find('\n') != std::string::npos)
      return false;
    out = body;
    pos = end + 1;
    return true;
  }

  /// Parses a Python tuple of non-negative integers (an optional Python 2
  /// 'L' suffix is accepted). A one-element tuple needs its trailing comma.
  bool parseShape(std::vector<int64_t> &shape, std::string &error) {
    shape.clear();
    if (!consume('(')) {
      error = "expected a tuple";
      return false;
    }
    bool trailingComma = false;
    while (true) {
      skipSpace();
      if (consume(')'))
        break;
      if (peek() < '0' || peek() > '9') {
        error = "expected a non-negative integer";
        return false;
      }
      int64_t value = 0;
      while (peek() >= '0' && peek() <= '9') {
        const int digit = peek() - '0';
        if (value > (kMaxExtent - digit) / 10) {
          error = "dimension too large";
          return false;
        }
        value = value * 10 + digit;
        ++pos;
      }
      consume('L');
      shape.push_back(value);
      skipSpace();
      trailingComma = consume(',');
      if (trailingComma)
        continue;
      skipSpace();
      if (consume(')'))
        break;
      error = "expected ',' or ')'";
      return false;
    }
    if (shape.size() == 1 && !trailingComma) {
      error = "a 1-element tuple needs a trailing comma";
      return false;
    }
    return true;
  }
};

/// Closes a FILE on scope exit.
struct FileCloser {
  std::FILE *file;
  ~FileCloser() {
    if (file)
      std::fclose(file);
  }
};

/// Reads exactly `size` bytes; returns the number actually read.
size_t readBytes(std::FILE *file, void *dst, size_t size) {
  return size == 0 ? 0 : std::fread(dst, 1, size, file);
}

} // namespace

int64_t Array::numElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

int64_t Array::itemSize() const { return descrItemSize(descr); }

int64_t descrItemSize(const std::string &descr) {
  std::string canonical, reason;
  int64_t size = -1;
  if (parseDescr(descr, canonical, size, reason) != DescrStatus::Ok)
    return -1;
  return size;
}

bool read(const std::string &path, Array &out, std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = path + ": cannot open file: " + std::strerror(errno);
    return false;
  }
  FileCloser closer{file};

  // Magic string, version and header length.
  unsigned char prefix[12];
  errno = 0;
  size_t got = readBytes(file, prefix, 8);
  if (std::ferror(file)) {
    error = path + ": cannot read file: " +
            std::strerror(errno ? errno : EIO);
    return false;
  }
  if (got < kMagicSize || std::memcmp(prefix, kMagic, kMagicSize) != 0) {
    error = path + ": not a .npy file (bad magic string)";
    return false;
  }
  if (got < 8) {
    error = path + ": truncated header: the file ends inside the version";
    return false;
  }
  const int major = prefix[6], minor = prefix[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    error = path + ": unsupported .npy format version " +
            std::to_string(major) + "." + std::to_string(minor) +
            " (supported: 1.0, 2.0, 3.0)";
    return false;
  }
  const size_t lengthBytes = major == 1 ? 2 : 4;
  if (readBytes(file, prefix + 8, lengthBytes) != lengthBytes) {
    error = path + ": truncated header: the file ends inside the header "
                   "length field";
    return false;
  }
  uint64_t headerLength = uint64_t(prefix[8]) | (uint64_t(prefix[9]) << 8);
  if (lengthBytes == 4)
    headerLength |= (uint64_t(prefix[10]) << 16) | (uint64_t(prefix[11]) << 24);

  std::string header(static_cast<size_t>(headerLength), '\0');
  size_t headerGot = readBytes(file, &header[0], header.size());
  if (headerGot != header.size()) {
    error = path + ": truncated header: header length is " +
            std::to_string(headerLength) + " bytes but only " +
            std::to_string(headerGot) + " bytes follow";
    return false;
  }

  // The header dict.
  std::string descr, parseError;
  bool fortranOrder = false, structured = false;
  std::vector<int64_t> shape;
  HeaderParser parser(header);
  if (!parser.parse(descr, fortranOrder, shape, structured, parseError)) {
    if (structured) {
      error = path + ": unsupported dtype descr: " + parseError;
      return false;
    }
    std::string shown = header;
    while (!shown.empty() && (shown.back() == ' ' || shown.back() == '\n'))
      shown.pop_back();
    if (shown.size() > 200)
      shown = shown.substr(0, 200) + "...";
    error = path + ": malformed header dict: " + parseError + " in \"" +
            shown + "\"";
    return false;
  }
  if (fortranOrder) {
    error = path + ": fortran_order=True arrays are not supported (only "
                   "C-order data can be read)";
    return false;
  }
  std::string canonical, reason;
  int64_t itemSize = -1;
  switch (parseDescr(descr, canonical, itemSize, reason)) {
  case DescrStatus::Ok:
    break;
  case DescrStatus::BigEndian:
    error = path + ": big-endian dtype '" + descr + "' is not supported";
    return false;
  case DescrStatus::Unsupported:
    error = path + ": unsupported dtype descr '" + descr + "' (" + reason +
            ")";
    return false;
  }
  int64_t count = 0;
  if (!checkedElementCount(shape, count) || count > kMaxExtent / itemSize) {
    error = path + ": malformed header dict: shape " + shapeString(shape) +
            " is too large";
    return false;
  }
  const int64_t dataBytes = count * itemSize;

  // The data. Check the remaining size first so that a corrupt shape does
  // not make us allocate a huge buffer.
  auto truncated = [&](int64_t available) {
    error = path + ": truncated data: shape " + shapeString(shape) + " of '" +
            canonical + "' needs " + std::to_string(dataBytes) +
            " bytes but only " + std::to_string(available) +
            " bytes follow the header";
    return false;
  };
  long here = std::ftell(file);
  if (here >= 0 && std::fseek(file, 0, SEEK_END) == 0) {
    long end = std::ftell(file);
    if (end >= here && end - here < dataBytes)
      return truncated(end - here);
    if (std::fseek(file, here, SEEK_SET) != 0) {
      error = path + ": cannot read file: " + std::strerror(errno);
      return false;
    }
  }
  out.descr = canonical;
  out.shape = shape;
  out.bytes.assign(static_cast<size_t>(dataBytes), 0);
  size_t dataGot = readBytes(file, out.bytes.data(), out.bytes.size());
  if (dataGot != out.bytes.size()) {
    if (std::ferror(file)) {
      error = path + ": cannot read file: " +
              std::strerror(errno ? errno : EIO);
      return false;
    }
    return truncated(static_cast<int64_t>(dataGot));
  }
  return true;
}

bool write(const std::string &path, const Array &a, std::string &error) {
  std::string canonical, reason;
  int64_t itemSize = -1;
  switch (parseDescr(a.descr, canonical, itemSize, reason)) {
  case DescrStatus::Ok:
    break;
  case DescrStatus::BigEndian:
    error = path + ": big-endian dtype '" + a.descr + "' is not supported";
    return false;
  case DescrStatus::Unsupported:
    error = path + ": unsupported dtype descr '" + a.descr + "' (" + reason +
            ")";
    return false;
  }
  int64_t count = 0;
  if (!checkedElementCount(a.shape, count) ||
      count > kMaxExtent / itemSize) {
    error = path + ": invalid shape " + shapeString(a.shape) +
            " (negative or too large dimension)";
    return false;
  }
  if (static_cast<uint64_t>(count * itemSize) != a.bytes.size()) {
    error = path + ": data size mismatch: shape " + shapeString(a.shape) +
            " of '" + canonical + "' needs " +
            std::to_string(count * itemSize) + " bytes but " +
            std::to_string(a.bytes.size()) + " were given";
    return false;
  }

  std::string dict = "{'descr': '" + canonical +
                     "', 'fortran_order': False, 'shape': " +
                     shapeString(a.shape) + ", }";
  // Version 1.0 has a 10-byte prefix and a 16-bit header length; fall back
  // to 2.0 (12-byte prefix, 32-bit length) if the header cannot fit.
  int major = 1;
  size_t prefixSize = 10;
  size_t total = prefixSize + dict.size() + 1;
  total = (total + kAlignment - 1) / kAlignment * kAlignment;
  if (total - prefixSize > 0xFFFF) {
    major = 2;
    prefixSize = 12;
    total = prefixSize + dict.size() + 1;
    total = (total + kAlignment - 1) / kAlignment * kAlignment;
  }
  const size_t headerLength = total - prefixSize;
  std::string header = dict;
  header.append(headerLength - dict.size() - 1, ' ');
  header += '\n';

  std::string prefix(kMagic, kMagicSize);
  prefix += static_cast<char>(major);
  prefix += '\0';
  for (size_t i = 0; i < prefixSize - 8; ++i)
    prefix += static_cast<char>((headerLength >> (8 * i)) & 0xFF);

  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) {
    error = path + ": cannot open file for writing: " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(prefix.data(), 1, prefix.size(), file) ==
                prefix.size() &&
            std::fwrite(header.data(), 1, header.size(), file) ==
                header.size() &&
            (a.bytes.empty() || std::fwrite(a.bytes.data(), 1, a.bytes.size(),
                                            file) == a.bytes.size());
  int writeErrno = errno;
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    writeErrno = errno;
  }
  if (!ok) {
    error = path + ": cannot write file: " +
            std::strerror(writeErrno ? writeErrno : EIO);
    return false;
  }
  return true;
}

} // namespace npy
} // namespace nvfp4
