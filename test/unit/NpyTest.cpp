//===- NpyTest.cpp - Tests of the .npy reader and writer --------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// Files are built byte by byte here following the .npy format description
// (magic, version, little-endian header length, dict, data) so that the
// reader is tested against the format, not against the writer alone.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Support/Npy.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using namespace nvfp4;
namespace fs = std::filesystem;

namespace {

/// Gives each test its own empty temporary directory.
class NpyTest : public ::testing::Test {
protected:
  fs::path dir;

  void SetUp() override {
    static std::atomic<int> counter{0};
    std::random_device rd;
    dir = fs::temp_directory_path() /
          ("nvfp4-npy-test-" + std::to_string(rd()) + "-" +
           std::to_string(counter++));
    fs::create_directories(dir);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  std::string path(const std::string &name) const {
    return (dir / name).string();
  }

  /// Writes raw bytes to a file in the temporary directory.
  std::string writeRaw(const std::string &name, const std::string &bytes) {
    std::string p = path(name);
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return p;
  }

  /// Reads a whole file.
  static std::string slurp(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  /// Builds a .npy file: magic, version, header length (2 bytes for major 1,
  /// else 4), `dict` padded with spaces plus a newline to a 64-byte
  /// boundary, then `data`.
  static std::string makeNpy(int major, int minor, const std::string &dict,
                             const std::string &data) {
    size_t prefix = major == 1 ? 10 : 12;
    size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
    size_t len = total - prefix;
    std::string header = dict + std::string(len - dict.size() - 1, ' ') + "\n";
    std::string s = "\x93NUMPY";
    s += char(major);
    s += char(minor);
    for (size_t i = 0; i < prefix - 8; ++i)
      s += char((len >> (8 * i)) & 0xFF);
    return s + header + data;
  }

  /// Expects read() of `p` to fail with a message naming the path and
  /// containing `phrase`.
  void expectReadError(const std::string &p, const std::string &phrase) {
    npy::Array a;
    std::string error;
    EXPECT_FALSE(npy::read(p, a, error)) << "read unexpectedly succeeded";
    EXPECT_NE(error.find(p), std::string::npos) << "no path in: " << error;
    EXPECT_NE(error.find(phrase), std::string::npos)
        << "expected '" << phrase << "' in: " << error;
  }
};

const char kDict23[] =
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";

std::string bytesOfFloats(std::vector<float> v) {
  return std::string(reinterpret_cast<const char *>(v.data()),
                     v.size() * sizeof(float));
}

} // namespace

TEST_F(NpyTest, RoundTripAllDtypesAndShapes) {
  std::mt19937 rng(5);
  const std::vector<std::pair<std::string, int>> dtypes = {
      {"<f4", 4}, {"<f2", 2}, {"|u1", 1}, {"<u2", 2}, {"<f8", 8},
      {"<i4", 4}, {"|i1", 1}, {"|b1", 1}, {"<i8", 8}, {"<u8", 8},
      {"<u4", 4}, {"<i2", 2}};
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {0}, {5}, {2, 3}, {2, 0, 3}, {3, 1, 4, 2}, {7168, 2}};
  int index = 0;
  for (const auto &[descr, size] : dtypes)
    for (const auto &shape : shapes) {
      npy::Array a;
      a.descr = descr;
      a.shape = shape;
      EXPECT_EQ(a.itemSize(), size) << descr;
      a.bytes.resize(size_t(a.numElements() * size));
      for (auto &b : a.bytes)
        b = uint8_t(rng());
      std::string p = path("a" + std::to_string(index++) + ".npy");
      std::string error;
      ASSERT_TRUE(npy::write(p, a, error)) << error;
      npy::Array b;
      ASSERT_TRUE(npy::read(p, b, error)) << error;
      EXPECT_EQ(b.descr, descr);
      EXPECT_EQ(b.shape, shape);
      EXPECT_EQ(b.bytes, a.bytes) << descr;
      // The data starts on a 64-byte boundary and fills the rest.
      std::string raw = slurp(p);
      ASSERT_GE(raw.size(), a.bytes.size());
      EXPECT_EQ((raw.size() - a.bytes.size()) % 64, 0u);
    }
}

TEST_F(NpyTest, WrittenFileFollowsVersion1Layout) {
  npy::Array a{"<f4", {2, 3}, {}};
  a.bytes.resize(24, 0x11);
  std::string p = path("f.npy"), error;
  ASSERT_TRUE(npy::write(p, a, error)) << error;
  std::string raw = slurp(p);
  ASSERT_EQ(raw.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  size_t len = uint8_t(raw[8]) | (size_t(uint8_t(raw[9])) << 8);
  EXPECT_EQ((10 + len) % 64, 0u);
  EXPECT_EQ(raw.size(), 10 + len + 24);
  std::string header = raw.substr(10, len);
  EXPECT_EQ(header.rfind(kDict23, 0), 0u) << header;
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(header.find_first_not_of(' ', sizeof(kDict23) - 1), len - 1);
  EXPECT_EQ(raw, makeNpy(1, 0, kDict23, std::string(24, '\x11')));

  // 1-d and 0-d shapes are written as Python tuples.
  npy::Array v{"|u1", {5}, std::vector<uint8_t>(5, 1)};
  ASSERT_TRUE(npy::write(p, v, error)) << error;
  EXPECT_NE(slurp(p).find("'shape': (5,), }"), std::string::npos);
  npy::Array s{"<f8", {}, std::vector<uint8_t>(8, 0)};
  ASSERT_TRUE(npy::write(p, s, error)) << error;
  EXPECT_NE(slurp(p).find("'shape': (), }"), std::string::npos);
}

TEST_F(NpyTest, ReadsHandBuiltFilesOfAllVersions) {
  const std::string data = bytesOfFloats({1, 2, 3, 4, 5, 6});
  for (int major : {1, 2, 3}) {
    std::string p = writeRaw("v" + std::to_string(major) + ".npy",
                             makeNpy(major, 0, kDict23, data));
    npy::Array a;
    std::string error;
    ASSERT_TRUE(npy::read(p, a, error)) << error;
    EXPECT_EQ(a.descr, "<f4");
    EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
    ASSERT_EQ(a.bytes.size(), 24u);
    float v[6];
    std::memcpy(v, a.bytes.data(), 24);
    EXPECT_EQ(v[0], 1.0f);
    EXPECT_EQ(v[5], 6.0f);
  }
}

TEST_F(NpyTest, AcceptsHeaderVariants) {
  struct Case {
    const char *dict;
    const char *descr;
    std::vector<int64_t> shape;
  };
  const std::vector<Case> cases = {
      // Other key order, double quotes, no trailing comma, extra spaces.
      {"{\"shape\": (3,),\"fortran_order\":False , \"descr\": \"<u2\"}", "<u2",
       {3}},
      // Python 2 long suffix and a one-byte type with '<' order.
      {"{'descr': '<u1', 'fortran_order': False, 'shape': (2L, 3L), }", "|u1",
       {2, 3}},
      // Native byte order and a big-endian one-byte type.
      {"{'descr': '=i4', 'fortran_order': False, 'shape': (1, ), }", "<i4",
       {1}},
      {"{'descr': '>i1', 'fortran_order': False, 'shape': (), }", "|i1", {}},
  };
  int i = 0;
  for (const Case &c : cases) {
    npy::Array probe{c.descr, c.shape, {}};
    std::string data(size_t(probe.numElements() * probe.itemSize()), '\x07');
    std::string p = writeRaw("h" + std::to_string(i++) + ".npy",
                             makeNpy(1, 0, c.dict, data));
    npy::Array a;
    std::string error;
    ASSERT_TRUE(npy::read(p, a, error)) << c.dict << ": " << error;
    EXPECT_EQ(a.descr, c.descr) << c.dict;
    EXPECT_EQ(a.shape, c.shape) << c.dict;
    EXPECT_EQ(a.bytes.size(), data.size());
  }
}

TEST_F(NpyTest, IgnoresBytesAfterTheData) {
  std::string p = writeRaw(
      "t.npy", makeNpy(1, 0, kDict23, bytesOfFloats({1, 2, 3, 4, 5, 6, 7})));
  npy::Array a;
  std::string error;
  ASSERT_TRUE(npy::read(p, a, error)) << error;
  EXPECT_EQ(a.bytes.size(), 24u);
}

TEST_F(NpyTest, RejectsMissingAndUnreadableFiles) {
  expectReadError(path("does-not-exist.npy"), "cannot open");
  fs::create_directories(dir / "sub.npy");
  expectReadError(path("sub.npy"), "cannot read");
}

TEST_F(NpyTest, RejectsBadMagic) {
  expectReadError(writeRaw("empty.npy", ""), "bad magic");
  expectReadError(writeRaw("short.npy", "\x93NUM"), "bad magic");
  std::string good = makeNpy(1, 0, kDict23, std::string(24, '\0'));
  std::string bad = good;
  bad[1] = 'M';
  expectReadError(writeRaw("bad.npy", bad), "bad magic");
  expectReadError(writeRaw("text.npy", "hello world, not npy"), "bad magic");
}

TEST_F(NpyTest, RejectsUnsupportedVersions) {
  std::string data(24, '\0');
  expectReadError(writeRaw("v4.npy", makeNpy(4, 0, kDict23, data)),
                  "unsupported .npy format version 4.0");
  expectReadError(writeRaw("v11.npy", makeNpy(1, 1, kDict23, data)),
                  "unsupported .npy format version 1.1");
  expectReadError(writeRaw("v0.npy", makeNpy(0, 0, kDict23, data)),
                  "unsupported .npy format version 0.0");
}

TEST_F(NpyTest, RejectsTruncatedHeaders) {
  std::string good = makeNpy(1, 0, kDict23, "");
  expectReadError(writeRaw("h1.npy", good.substr(0, 9)), "truncated header");
  expectReadError(writeRaw("h2.npy", good.substr(0, 40)), "truncated header");
  std::string v2 = makeNpy(2, 0, kDict23, "");
  expectReadError(writeRaw("h3.npy", v2.substr(0, 11)), "truncated header");
}

TEST_F(NpyTest, RejectsMalformedHeaderDicts) {
  struct Case {
    const char *dict;
    const char *phrase;
  };
  const std::vector<Case> cases = {
      {"not a dict", "expected '{'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)",
       "expected ',' or '}'"},
      {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
      {"{'fortran_order': False, 'shape': (2, 3)}", "missing key 'descr'"},
      {"{'descr': '<f4', 'shape': (2, 3)}", "missing key 'fortran_order'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}",
       "unexpected key 'x'"},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
       "'shape': (2, 3)}",
       "duplicate key 'descr'"},
      {"{'descr': '<f4', 'fortran_order': maybe, 'shape': (2, 3)}",
       "not True or False"},
      {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2, 3)}",
       "not True or False"},
      {"{'descr': 4, 'fortran_order': False, 'shape': (2, 3)}",
       "'descr' is not a string"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (6)}",
       "trailing comma"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}",
       "non-negative integer"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}",
       "expected a tuple"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}",
       "expected ',' or ')'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} x",
       "after the closing '}'"},
      {"{descr: '<f4', 'fortran_order': False, 'shape': (2, 3)}",
       "expected a quoted key"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': "
       "(99999999999999999999,)}",
       "too large"},
  };
  int i = 0;
  for (const Case &c : cases) {
    SCOPED_TRACE(c.dict);
    std::string p = writeRaw("m" + std::to_string(i++) + ".npy",
                             makeNpy(1, 0, c.dict, std::string(24, '\0')));
    expectReadError(p, "malformed header dict");
    expectReadError(p, c.phrase);
  }
}

TEST_F(NpyTest, RejectsFortranOrder) {
  const char *dict =
      "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }";
  std::string p =
      writeRaw("fo.npy", makeNpy(1, 0, dict, std::string(24, '\0')));
  expectReadError(p, "fortran_order=True");
}

TEST_F(NpyTest, RejectsUnsupportedAndBigEndianDescrs) {
  auto file = [&](const std::string &name, const std::string &descr) {
    return writeRaw(name, makeNpy(1, 0,
                                  "{'descr': " + descr +
                                      ", 'fortran_order': False, 'shape': "
                                      "(2,), }",
                                  std::string(64, '\0')));
  };
  expectReadError(file("c8.npy", "'<c8'"), "unsupported dtype descr '<c8'");
  expectReadError(file("u4s.npy", "'<U4'"), "unsupported dtype descr '<U4'");
  expectReadError(file("o.npy", "'|O'"), "unsupported dtype descr '|O'");
  expectReadError(file("f3.npy", "'<f3'"), "unsupported dtype descr '<f3'");
  expectReadError(file("b2.npy", "'<b2'"), "unsupported dtype descr '<b2'");
  expectReadError(file("pf4.npy", "'|f4'"), "only valid for 1-byte types");
  expectReadError(file("st.npy", "[('a', '<f4'), ('b', '<i4')]"),
                  "structured dtypes are not supported");
  expectReadError(file("be.npy", "'>f4'"), "big-endian dtype '>f4'");
  expectReadError(file("be2.npy", "'>u2'"), "big-endian");
}

TEST_F(NpyTest, RejectsTruncatedData) {
  std::string p = writeRaw(
      "td.npy", makeNpy(1, 0, kDict23, bytesOfFloats({1, 2, 3, 4, 5})));
  expectReadError(p, "truncated data");
  expectReadError(p, "needs 24 bytes but only 20");
  // A huge shape must be reported as truncation, not attempted.
  std::string huge = writeRaw(
      "huge.npy",
      makeNpy(1, 0,
              "{'descr': '<f8', 'fortran_order': False, 'shape': "
              "(1000000000, 1000000), }",
              std::string(16, '\0')));
  expectReadError(huge, "truncated data");
}

TEST_F(NpyTest, WriteRejectsInvalidArrays) {
  std::string error;
  npy::Array bad{"<c8", {2}, std::vector<uint8_t>(16)};
  EXPECT_FALSE(npy::write(path("w1.npy"), bad, error));
  EXPECT_NE(error.find("unsupported dtype descr '<c8'"), std::string::npos)
      << error;
  npy::Array be{">f4", {2}, std::vector<uint8_t>(8)};
  EXPECT_FALSE(npy::write(path("w2.npy"), be, error));
  EXPECT_NE(error.find("big-endian"), std::string::npos) << error;
  npy::Array mismatch{"<f4", {2, 3}, std::vector<uint8_t>(23)};
  EXPECT_FALSE(npy::write(path("w3.npy"), mismatch, error));
  EXPECT_NE(error.find("data size mismatch"), std::string::npos) << error;
  EXPECT_NE(error.find(path("w3.npy")), std::string::npos) << error;
  npy::Array negative{"<f4", {-1}, {}};
  EXPECT_FALSE(npy::write(path("w4.npy"), negative, error));
  EXPECT_NE(error.find("invalid shape"), std::string::npos) << error;
  npy::Array ok{"<f4", {1}, std::vector<uint8_t>(4)};
  std::string noDir = path("no-such-dir/x.npy");
  EXPECT_FALSE(npy::write(noDir, ok, error));
  EXPECT_NE(error.find("cannot open file for writing"), std::string::npos)
      << error;
  EXPECT_NE(error.find(noDir), std::string::npos) << error;
}

TEST_F(NpyTest, DescrItemSizes) {
  EXPECT_EQ(npy::descrItemSize("<f4"), 4);
  EXPECT_EQ(npy::descrItemSize("<f2"), 2);
  EXPECT_EQ(npy::descrItemSize("|u1"), 1);
  EXPECT_EQ(npy::descrItemSize("<u1"), 1);
  EXPECT_EQ(npy::descrItemSize("<f8"), 8);
  EXPECT_EQ(npy::descrItemSize("<i4"), 4);
  EXPECT_EQ(npy::descrItemSize(">f4"), -1);
  EXPECT_EQ(npy::descrItemSize("<c8"), -1);
  EXPECT_EQ(npy::descrItemSize(""), -1);
  npy::Array scalar{"<f4", {}, {}};
  EXPECT_EQ(scalar.numElements(), 1);
  npy::Array empty{"<f4", {3, 0}, {}};
  EXPECT_EQ(empty.numElements(), 0);
}
