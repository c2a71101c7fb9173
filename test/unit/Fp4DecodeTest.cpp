//===- Fp4DecodeTest.cpp - the sm_90a NVFP4 decode, executed on the host --===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Every sm_90a tensor-core kernel decodes A and B with decodeWordPairs
// (lib/Conversion/NVFP4ToNVVM/Fp4Decode.cpp): shifts and masks put each
// nibble's bits where an f16's are (the value times 2^-14), one byte
// permute per pair places the bytes, and an f16x2 multiply applies the
// scale (scaleSplat). MXFP4's decode (decodeWordPairsMX, bf16) runs here
// too, in both of its forms, for every e2m1 value times every e8m0 code.
// This test builds those ops for one word and one scale code and executes
// them here, op by op (prmt with its byte-select and sign-replicate modes,
// f16 multiplies rounded as the GPU rounds them, with Formats.h's f16
// converters), against the reference decode: every e2m1 value in every
// nibble position, every finite e4m3 scale code. The GPU suite checks the
// same decode end to end; this one needs no GPU and names the nibble that
// differs.
//
//===----------------------------------------------------------------------===//

#include "Conversion/NVFP4ToNVVM/Fp4Decode.h"
#include "Conversion/NVFP4ToNVVM/KernelBuilder.h"

#include "nvfp4/Reference/Formats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

using namespace mlir;

namespace {

/// An f16's bits from a float that f16 holds exactly (fails otherwise).
uint16_t exactHalf(float value) {
  const uint16_t bits = ::nvfp4::ref::floatToHalf(value);
  EXPECT_EQ(::nvfp4::ref::halfToFloat(bits), value)
      << value << " is not an f16";
  return bits;
}

/// The product of two f16s rounded to f16 (mul.rn.f16): their product is
/// exact in a float (22 significant bits), so one rounding to f16 remains.
uint16_t mulHalf(uint16_t x, uint16_t y) {
  return ::nvfp4::ref::floatToHalf(::nvfp4::ref::halfToFloat(x) *
                                   ::nvfp4::ref::halfToFloat(y));
}

/// prmt.b32 (default mode): result byte i from selector nibble i of the
/// eight bytes {hi, lo}; nibble bit 3 replicates the byte's top bit.
uint32_t prmt(uint32_t lo, uint32_t hi, uint32_t selector) {
  const uint64_t bytes = (static_cast<uint64_t>(hi) << 32) | lo;
  uint32_t out = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t s = (selector >> (4 * i)) & 0xF;
    uint32_t byte = (bytes >> (8 * (s & 7))) & 0xFF;
    if (s & 8)
      byte = byte & 0x80 ? 0xFF : 0x00;
    out |= byte << (8 * i);
  }
  return out;
}

/// Which decode a DecodeProgram builds: NVFP4's, or MXFP4's with the
/// scale's two multiplies or (codes up to kMXRestoringCodeMax) one.
enum class Decode { NVFP4, MX, MXRestoring };

/// A bf16 multiply rounded as the GPU rounds it: the product of two bf16s
/// is exact in a float (16 significant bits; here never below 2^-149).
uint16_t mulBF16(uint16_t x, uint16_t y) {
  return ::nvfp4::ref::floatToBF16(::nvfp4::ref::bf16ToFloat(x) *
                                   ::nvfp4::ref::bf16ToFloat(y));
}

/// The decode's ops for one word and one scale code, and their execution.
class DecodeProgram {
public:
  explicit DecodeProgram(Decode decode = Decode::NVFP4) {
    context
        .loadDialect<func::FuncDialect, arith::ArithDialect, LLVM::LLVMDialect,
                     NVVM::NVVMDialect, vector::VectorDialect>();
    OpBuilder builder(&context);
    Location loc = builder.getUnknownLoc();
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
    Type i32 = builder.getI32Type();
    func = func::FuncOp::create(builder, loc, "decode",
                                builder.getFunctionType({i32, i32}, {}));
    Block *body = func.addEntryBlock();
    builder.setInsertionPointToStart(body);
    ImplicitLocOpBuilder b(loc, builder);
    mlir::nvfp4::KernelBuilder k(b);
    Value code = body->getArgument(1), word = body->getArgument(0);
    const bool mx = decode != Decode::NVFP4;
    const bool restoring = decode == Decode::MXRestoring;
    Value scale = !mx         ? mlir::nvfp4::scaleSplat(k, code)
                  : restoring ? mlir::nvfp4::scaleSplatMXRestoring(k, code)
                              : mlir::nvfp4::scaleSplatMX(k, code);
    pairs = mx ? mlir::nvfp4::decodeWordPairsMX(k, word, scale, restoring)
               : mlir::nvfp4::decodeWordPairs(k, word, scale);
    func::ReturnOp::create(b);
  }

  /// The 4 f16x2 pairs (as i32) of `word` times scale code `code`, or
  /// nothing (with a test failure) on an op this executor does not know.
  std::optional<std::array<uint32_t, 4>> run(uint32_t word, uint32_t code) {
    DenseMap<Value, uint64_t> bits;
    Block &body = func.getBody().front();
    bits[body.getArgument(0)] = word;
    bits[body.getArgument(1)] = code;
    for (Operation &op : body.without_terminator()) {
      auto in = [&](unsigned i) { return bits.lookup(op.getOperand(i)); };
      auto width = [&](Value v) -> int64_t {
        Type type = v.getType();
        if (auto vec = dyn_cast<VectorType>(type))
          return vec.getNumElements() *
                 vec.getElementType().getIntOrFloatBitWidth();
        return type.getIntOrFloatBitWidth();
      };
      uint64_t result = 0;
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        result =
            cast<IntegerAttr>(constant.getValue()).getValue().getZExtValue();
      else if (isa<arith::AndIOp>(op))
        result = in(0) & in(1);
      else if (isa<arith::OrIOp>(op))
        result = in(0) | in(1);
      else if (isa<arith::ShLIOp>(op))
        result = in(1) >= 32 ? 0 : in(0) << in(1); // shl.b32 clamps
      else if (isa<arith::ShRUIOp>(op))
        result = in(1) >= 64 ? 0 : in(0) >> in(1);
      else if (isa<arith::AddIOp>(op))
        result = in(0) + in(1);
      else if (isa<arith::SubIOp>(op))
        result = in(0) - in(1);
      else if (auto cmp = dyn_cast<arith::CmpIOp>(op))
        result = cmp.getPredicate() == arith::CmpIPredicate::ult ? in(0) < in(1)
                 : cmp.getPredicate() == arith::CmpIPredicate::eq
                     ? in(0) == in(1)
                     : (ADD_FAILURE() << "cmpi predicate", 0);
      else if (isa<arith::SelectOp>(op))
        result = in(0) ? in(1) : in(2);
      else if (isa<arith::TruncIOp, LLVM::BitcastOp>(op))
        result = in(0);
      else if (isa<NVVM::PermuteOp>(op))
        result =
            prmt(static_cast<uint32_t>(in(0)), static_cast<uint32_t>(in(1)),
                 static_cast<uint32_t>(in(2)));
      else if (isa<NVVM::ConvertF8x2ToF16x2Op>(op)) {
        // Two e4m3 codes to two f16s (exact).
        for (int h = 0; h < 2; ++h)
          result |= static_cast<uint64_t>(exactHalf(::nvfp4::ref::decodeE4M3(
                        static_cast<uint8_t>(in(0) >> (8 * h)))))
                    << (16 * h);
      } else if (isa<arith::MulFOp>(op)) {
        // f16x2 or bf16x2, each half rounded as the GPU rounds it.
        auto mul = cast<VectorType>(op.getResult(0).getType())
                           .getElementType()
                           .isBF16()
                       ? mulBF16
                       : mulHalf;
        for (int h = 0; h < 2; ++h)
          result |= static_cast<uint64_t>(
                        mul(static_cast<uint16_t>(in(0) >> (16 * h)),
                            static_cast<uint16_t>(in(1) >> (16 * h))))
                    << (16 * h);
      } else {
        ADD_FAILURE() << "the decode emits an op this test does not execute: "
                      << op.getName().getStringRef().str();
        return std::nullopt;
      }
      const int64_t w = width(op.getResult(0));
      bits[op.getResult(0)] = w >= 64 ? result : result & ((1ull << w) - 1);
    }
    std::array<uint32_t, 4> out;
    for (int j = 0; j < 4; ++j)
      out[j] = static_cast<uint32_t>(bits.lookup(pairs[j]));
    return out;
  }

  /// The ops the decode of one word takes (the scale's splat excluded:
  /// the kernels share it between words).
  int64_t wordOps() {
    int64_t ops = 0;
    func.getBody().front().walk([&](Operation *op) {
      if (!isa<arith::ConstantOp, func::ReturnOp, LLVM::BitcastOp>(op))
        ++ops;
    });
    return ops;
  }

private:
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  SmallVector<Value, 4> pairs;
};

/// Checks the pairs of `word` times scale code `code` against the
/// reference times 2^-14 (kNVFP4OperandScale): nibbles (0, 2), (1, 3),
/// (4, 6), (5, 7) in pairs 0 .. 3 (low half, high half).
void expectDecodes(DecodeProgram &program, uint32_t word, uint8_t code) {
  std::optional<std::array<uint32_t, 4>> pairs = program.run(word, code);
  ASSERT_TRUE(pairs);
  const float scale = ::nvfp4::ref::decodeE4M3(code);
  for (int i = 0; i < 8; ++i) {
    const uint8_t nibble = (word >> (4 * i)) & 0xF;
    const uint16_t expected =
        exactHalf(::nvfp4::ref::decodeE2M1(nibble) * scale *
                  mlir::nvfp4::kNVFP4OperandScale);
    const int pair = 2 * (i / 4) + i % 2, half = i / 2 % 2;
    const uint16_t got = static_cast<uint16_t>((*pairs)[pair] >> (16 * half));
    EXPECT_EQ(got, expected)
        << "word 0x" << llvm::utohexstr(word) << ", nibble " << i << " (0x"
        << llvm::utohexstr(nibble) << ") x scale code 0x"
        << llvm::utohexstr(code);
  }
}

TEST(Fp4Decode, EveryValueInEveryNibbleTimesEveryFiniteScale) {
  DecodeProgram program;
  std::vector<uint32_t> words;
  // Each value in each position: value v at nibble i, its neighbours
  // other values (a sign or byte that leaks shows up next door).
  for (uint32_t v = 0; v < 16; ++v)
    for (int i = 0; i < 8; ++i) {
      uint32_t word = 0;
      for (int j = 0; j < 8; ++j)
        word |= (j == i ? v : (v + 5 * j + 3) & 0xF) << (4 * j);
      words.push_back(word);
    }
  std::mt19937 random(7);
  for (int r = 0; r < 32; ++r)
    words.push_back(static_cast<uint32_t>(random()));
  words.push_back(0x00000000u);
  words.push_back(0xFFFFFFFFu);
  words.push_back(0x88888888u); // negative zeros
  for (int code = 0; code < 256; ++code) {
    if ((code & 0x7F) == 0x7F) // e4m3 NaN: the kernels' scales are finite
      continue;
    for (uint32_t word : words) {
      expectDecodes(program, word, static_cast<uint8_t>(code));
      if (::testing::Test::HasFailure())
        return;
    }
  }
}

/// MXFP4 (decodeWordPairsMX): pair j holds nibbles j and j + 4, each value
/// times 2^(code - 129) (kMXOperandScale) in bf16, exact; code 0xFF is NaN.
/// Both forms, the one-multiply one for every code it takes (up to
/// kMXRestoringCodeMax, where its splat is 2^127), the two-multiply one
/// for every code.
TEST(Fp4Decode, MXFP4EveryValueTimesEveryScaleBothForms) {
  for (Decode form : {Decode::MX, Decode::MXRestoring}) {
    DecodeProgram program(form);
    const int last =
        form == Decode::MX ? 255 : mlir::nvfp4::kMXRestoringCodeMax;
    for (int code = 0; code <= last; ++code)
      for (uint32_t v = 0; v < 16; ++v) {
        uint32_t word = 0;
        for (int j = 0; j < 8; ++j)
          word |= ((v + 3 * j) & 0xF) << (4 * j);
        std::optional<std::array<uint32_t, 4>> pairs = program.run(word, code);
        ASSERT_TRUE(pairs);
        for (int i = 0; i < 8; ++i) {
          const uint8_t nibble = (word >> (4 * i)) & 0xF;
          const float got = ::nvfp4::ref::bf16ToFloat(
              static_cast<uint16_t>((*pairs)[i % 4] >> (16 * (i / 4))));
          if (code == 0xFF) {
            EXPECT_TRUE(std::isnan(got)) << "code 0xFF, nibble " << i;
            continue;
          }
          const double want =
              static_cast<double>(::nvfp4::ref::decodeE2M1(nibble)) *
              std::ldexp(1.0, code - 129);
          ASSERT_EQ(static_cast<double>(got), want)
              << (form == Decode::MX ? "two multiplies" : "one multiply")
              << ": word 0x" << llvm::utohexstr(word) << ", nibble " << i
              << " x e8m0 code " << code;
        }
      }
  }
}

/// decode v3's cost (performance.md): 17 ops a word of B, which ptxas
/// issues as 15 instructions (each byte's and + or of the sign is one
/// lop3); the scale's splat (and, shl, or, trunc, cvt) is shared by the
/// words of a scale block and not counted. A decode that grows fails here
/// first.
TEST(Fp4Decode, SeventeenOpsAWord) {
  DecodeProgram program;
  EXPECT_EQ(program.wordOps() - 5, 17);
}

} // namespace
