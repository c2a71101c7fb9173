//===- RunnerTest.cpp - nvfp4-run's host buffers and CPU execution --------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/InitAll.h"
#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Runner/Check.h"
#include "nvfp4/Runner/CpuExecutor.h"
#include "nvfp4/Runner/HostBuffer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

class RunnerTest : public ::testing::Test {
protected:
  RunnerTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(const char *source) {
    return parseSourceString<ModuleOp>(source, context.get());
  }

  MemRefType type(ArrayRef<int64_t> shape, Type element) {
    return MemRefType::get(shape, element);
  }

  std::unique_ptr<MLIRContext> context;
};

constexpr const char *kGemv = R"mlir(
func.func @gemv(%a: memref<1x4x64xf4E2M1FN>, %sfa: memref<1x4x4xf8E4M3FN>,
                %b: memref<1x1x64xf4E2M1FN>, %sfb: memref<1x1x4xf8E4M3FN>,
                %c: memref<1x4x1xf32>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x4x64xf4E2M1FN>, memref<1x4x4xf8E4M3FN>, memref<1x1x64xf4E2M1FN>, memref<1x1x4xf8E4M3FN>) outs(%c : memref<1x4x1xf32>)
  return
}
)mlir";

TEST_F(RunnerTest, StorageAndNpyShapes) {
  Builder b(context.get());
  MemRefType fp4 = type({2, 3, 64}, b.getType<Float4E2M1FNType>());
  EXPECT_EQ(HostBuffer::storageBytes(fp4), 2 * 3 * 32);
  EXPECT_EQ(HostBuffer::npyDescr(fp4), "|u1");
  EXPECT_EQ(HostBuffer::npyShape(fp4), (SmallVector<int64_t>{2, 3, 32}));
  MemRefType scales = type({3, 4}, b.getType<Float8E4M3FNType>());
  EXPECT_EQ(HostBuffer::storageBytes(scales), 12);
  EXPECT_EQ(HostBuffer::npyDescr(type({4}, b.getF16Type())), "<f2");
  EXPECT_EQ(HostBuffer::npyDescr(type({4}, b.getBF16Type())), "<u2");
  EXPECT_EQ(HostBuffer::npyDescr(type({4}, b.getF32Type())), "<f4");
  EXPECT_EQ(HostBuffer::storageBytes(type({5, 2}, b.getBF16Type())), 20);
}

TEST_F(RunnerTest, RandomDataCoversBitPatternsAndScaleRange) {
  Builder b(context.get());
  RandomOptions options;
  options.seed = 3;
  options.maxScaleCode = 0x47;
  HostBuffer data(type({64, 256}, b.getType<Float4E2M1FNType>()));
  data.fillRandom(options, 0);
  std::set<uint8_t> seen(data.bytes.begin(), data.bytes.end());
  EXPECT_EQ(seen.size(), 256u) << "fp4 data should use every byte value";
  HostBuffer scales(type({64, 64}, b.getType<Float8E4M3FNType>()));
  scales.fillRandom(options, 1);
  std::set<uint8_t> codes(scales.bytes.begin(), scales.bytes.end());
  EXPECT_EQ(*codes.rbegin(), 0x47);
  EXPECT_TRUE(codes.count(0x00)) << "zero scales";
  EXPECT_TRUE(codes.count(0x01)) << "subnormal scales";
  // Same seed and stream: same data; another stream: different data.
  HostBuffer again(data.type), other(data.type);
  again.fillRandom(options, 0);
  other.fillRandom(options, 2);
  EXPECT_EQ(again.bytes, data.bytes);
  EXPECT_NE(other.bytes, data.bytes);
}

TEST_F(RunnerTest, FloatRoundTripThroughStoredTypes) {
  Builder b(context.get());
  for (Type element : {b.getF16Type(), b.getBF16Type(), b.getF32Type()}) {
    HostBuffer buffer(type({4}, element));
    std::vector<float> values = {1.5f, -2.25f, 0.0f, 1024.0f};
    buffer.fromFloats(values);
    EXPECT_EQ(buffer.toFloats(), values);
  }
  // Rounding to f16 is to nearest even: 1 + 2^-11 is a tie, rounds to 1.
  HostBuffer half(type({1}, b.getF16Type()));
  half.fromFloats({1.0f + 0x1p-11f});
  EXPECT_EQ(half.toFloats()[0], 1.0f);
}

TEST_F(RunnerTest, AnalyzeEntrySplitsInputsAndOutputs) {
  OwningOpRef<ModuleOp> module = parse(kGemv);
  ASSERT_TRUE(module);
  auto entry = module->lookupSymbol<func::FuncOp>("gemv");
  FailureOr<EntrySignature> sig = analyzeEntry(entry);
  ASSERT_TRUE(succeeded(sig));
  EXPECT_EQ(sig->inputs, (SmallVector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(sig->outputs, (SmallVector<unsigned>{4}));
}

TEST_F(RunnerTest, AnalyzeEntryRejectsDynamicShapes) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @f(%a: memref<?xf32>) {
  return
}
)mlir");
  ASSERT_TRUE(module);
  // The diagnostic goes to the context; only the failure is checked here.
  ScopedDiagnosticHandler quiet(context.get(), [](Diagnostic &) {
    return success();
  });
  EXPECT_TRUE(failed(analyzeEntry(module->lookupSymbol<func::FuncOp>("f"))));
}

TEST_F(RunnerTest, ExecuteKnownValuesAndAccumulationBound) {
  OwningOpRef<ModuleOp> module = parse(kGemv);
  ASSERT_TRUE(module);
  auto entry = module->lookupSymbol<func::FuncOp>("gemv");
  FailureOr<EntrySignature> sig = analyzeEntry(entry);
  ASSERT_TRUE(succeeded(sig));
  SmallVector<HostBuffer> args;
  for (Type t : entry.getArgumentTypes())
    args.emplace_back(cast<MemRefType>(t));
  // Row r of A holds the value (r odd ? -1 : 1) * 1.5 everywhere (e2m1
  // 1.5 = 0x3, negated 0xB); B holds 2.0 (0x4); all scales 1.0 (0x38),
  // except A's row 2, scaled by 0.5 (0x30).
  for (int r = 0; r < 4; ++r) {
    uint8_t nibble = r % 2 ? 0xB : 0x3;
    std::memset(args[0].bytes.data() + r * 32, nibble | nibble << 4, 32);
    std::memset(args[1].bytes.data() + r * 4, r == 2 ? 0x30 : 0x38, 4);
  }
  std::memset(args[2].bytes.data(), 0x44, 32);
  std::memset(args[3].bytes.data(), 0x38, 4);
  ASSERT_TRUE(succeeded(executeOnCpu(entry, args)));
  std::vector<float> c = args[4].toFloats();
  EXPECT_EQ(c, (std::vector<float>{192.0f, -192.0f, 96.0f, -192.0f}));

  // The bound is 2 * (K/16) * 2^-24 * sum |a_k b_k| for each output.
  FailureOr<SmallVector<std::vector<float>>> bounds =
      accumulationBounds(entry, args, *sig);
  ASSERT_TRUE(succeeded(bounds));
  ASSERT_EQ(bounds->size(), 1u);
  const double factor = 2.0 * 4 * 0x1p-24;
  EXPECT_FLOAT_EQ((*bounds)[0][0], factor * 192.0);
  EXPECT_FLOAT_EQ((*bounds)[0][1], factor * 192.0);
  EXPECT_FLOAT_EQ((*bounds)[0][2], factor * 96.0);
}

TEST_F(RunnerTest, LoadNpyChecksTypeAndShape) {
  Builder b(context.get());
  HostBuffer buffer(type({2, 64}, b.getType<Float4E2M1FNType>()));
  std::string dir = ::testing::TempDir();
  std::string good = dir + "/nvfp4_runner_good.npy";
  std::string error;
  buffer.bytes.assign(buffer.bytes.size(), 0x5A);
  ASSERT_TRUE(buffer.saveNpy(good, error)) << error;
  HostBuffer loaded(buffer.type);
  ASSERT_TRUE(loaded.loadNpy(good, error)) << error;
  EXPECT_EQ(loaded.bytes, buffer.bytes);
  // The same file does not fit a memref of another shape or element type.
  HostBuffer wrongShape(type({2, 128}, b.getType<Float4E2M1FNType>()));
  EXPECT_FALSE(wrongShape.loadNpy(good, error));
  EXPECT_NE(error.find("needs (2, 64)"), std::string::npos) << error;
  HostBuffer wrongType(type({2, 32}, b.getF16Type()));
  EXPECT_FALSE(wrongType.loadNpy(good, error));
  EXPECT_NE(error.find("needs '<f2'"), std::string::npos) << error;
}

} // namespace

namespace {

/// A GEMM with an NVFP4 C: C[0][0] = 6 and C[0][1] = 2.5 (their block's
/// scale 1, so 2.5 is a tie between e2m1 2 and 3), the rest 0.
constexpr const char *kGemmFp4 = R"mlir(
func.func @gemm(%a: memref<1x64xf4E2M1FN>, %sfa: memref<1x4xf8E4M3FN>,
                %b: memref<32x64xf4E2M1FN>, %sfb: memref<32x4xf8E4M3FN>,
                %c: memref<1x32xf4E2M1FN>, %sfc: memref<1x2xf8E4M3FN>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64xf4E2M1FN>, memref<1x4xf8E4M3FN>, memref<32x64xf4E2M1FN>, memref<32x4xf8E4M3FN>) outs(%c : memref<1x32xf4E2M1FN>) c_scales(%sfc : memref<1x2xf8E4M3FN>)
  return
}
)mlir";

/// A GEMM entry whose C is FP4 (arguments 4 and 5) on inputs that make
/// C[0][0] = 6 and C[0][1] = 2.5: A 16 ones (e2m1 0x2) then zeros; B row
/// 0: 6 (0x7), row 1: 2 and 0.5 (0x4, 0x1); every scale 1 (0x38). `want`
/// holds the CPU reference's outputs; `mismatches` checks C and its scales.
struct QuantizedGemm {
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
  EntrySignature sig;
  SmallVector<HostBuffer> want;

  std::pair<int64_t, int64_t> mismatches(const SmallVector<HostBuffer> &got) {
    auto checks = checkOutputs(entry, got, want, sig);
    EXPECT_TRUE(succeeded(checks));
    if (failed(checks))
      return {-1, -1};
    return {(*checks)[0].mismatches, (*checks)[1].mismatches};
  }
};

void setUpQuantizedGemm(OwningOpRef<ModuleOp> module, QuantizedGemm &q) {
  ASSERT_TRUE(module);
  q.module = std::move(module);
  q.entry = q.module->lookupSymbol<func::FuncOp>("gemm");
  FailureOr<EntrySignature> sig = analyzeEntry(q.entry);
  ASSERT_TRUE(succeeded(sig));
  ASSERT_EQ(sig->outputs, (SmallVector<unsigned>{4, 5}));
  q.sig = *sig;
  SmallVector<HostBuffer> args;
  for (Type t : q.entry.getArgumentTypes())
    args.emplace_back(cast<MemRefType>(t));
  std::memset(args[0].bytes.data(), 0x22, 8);
  args[2].bytes[0] = 0x07;
  args[2].bytes[32] = 0x14;
  std::memset(args[1].bytes.data(), 0x38, args[1].bytes.size());
  std::memset(args[3].bytes.data(), 0x38, args[3].bytes.size());
  q.want = args;
  ASSERT_TRUE(succeeded(executeOnCpu(q.entry, q.want)));
}

/// A byte planted in C (argument 4) or its scales (5), and the mismatches
/// of C and of its scales the check must then report.
struct Plant {
  unsigned arg;
  size_t byte;
  uint8_t value;
  std::pair<int64_t, int64_t> mismatches;
};

void expectPlants(QuantizedGemm &q, ArrayRef<Plant> plants) {
  for (const Plant &p : plants) {
    SmallVector<HostBuffer> got(q.want);
    got[p.arg].bytes[p.byte] = p.value;
    EXPECT_EQ(q.mismatches(got), p.mismatches)
        << "byte " << p.byte << " of argument " << p.arg << " set to 0x"
        << llvm::utohexstr(p.value);
  }
}

} // namespace

TEST_F(RunnerTest, QuantizedOutputIsCheckedAgainstTheTolerance) {
  QuantizedGemm q;
  setUpQuantizedGemm(parse(kGemmFp4), q);
  if (HasFatalFailure())
    return;
  SmallVector<HostBuffer> &want = q.want;
  // 6 -> 0x7, 2.5 -> 0x4 (ties to even); block 0's scale 1, block 1's 0.
  EXPECT_EQ(want[4].bytes[0], 0x47);
  EXPECT_EQ(want[5].bytes[0], 0x38);
  EXPECT_EQ(want[5].bytes[1], 0x00);

  // 3 is as good as 2 for a value within the tolerance of 2.5, 4 is not;
  // a scale one step off, or a zero block's made nonzero, fails.
  expectPlants(q, {{4, 0, 0x47, {0, 0}},
                   {4, 0, 0x57, {0, 0}},
                   {4, 0, 0x67, {1, 0}},
                   {5, 0, 0x39, {0, 1}},
                   {5, 1, 0x38, {0, 1}}});
  // The failure names the value and the format.
  SmallVector<HostBuffer> got(want);
  got[4].bytes[0] = 0x67;
  auto checks = checkOutputs(q.entry, got, want, q.sig);
  ASSERT_TRUE(succeeded(checks));
  EXPECT_EQ((*checks)[0].mismatches, 1);
  std::string message = describeMismatch(got[4], (*checks)[0]);
  EXPECT_NE(message.find("(NVFP4 C)"), std::string::npos) << message;
  EXPECT_NE(message.find("value [0, 0, 1]"), std::string::npos) << message;
}

namespace {

/// The same GEMM with an MXFP4 C (e8m0 scales per 32 values): C[0][0] = 6
/// and C[0][1] = 2.5 in block 0, the rest 0.
constexpr const char *kGemmMxOut = R"mlir(
func.func @gemm(%a: memref<1x64xf4E2M1FN>, %sfa: memref<1x4xf8E4M3FN>,
                %b: memref<64x64xf4E2M1FN>, %sfb: memref<64x4xf8E4M3FN>,
                %c: memref<1x64xf4E2M1FN>, %sfc: memref<1x2xf8E8M0FNU>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x64xf4E2M1FN>, memref<1x4xf8E4M3FN>, memref<64x64xf4E2M1FN>, memref<64x4xf8E4M3FN>) outs(%c : memref<1x64xf4E2M1FN>) c_scales(%sfc : memref<1x2xf8E8M0FNU>)
  return
}
)mlir";

} // namespace

TEST_F(RunnerTest, MXQuantizedOutputIsCheckedAgainstTheTolerance) {
  QuantizedGemm q;
  setUpQuantizedGemm(parse(kGemmMxOut), q);
  if (HasFatalFailure())
    return;
  SmallVector<HostBuffer> &want = q.want;
  // floor: amax 6 = 1.5 x 2^2, so the scale is 2^0 (code 127); 6 -> 0x7,
  // 2.5 -> 0x4 (ties to even); the zero block's scale code 0.
  EXPECT_EQ(want[4].bytes[0], 0x47);
  EXPECT_EQ(want[5].bytes[0], 0x7F);
  EXPECT_EQ(want[5].bytes[1], 0x00);

  // A scale one step off (2^1), or the zero block's made 2^0: the checker
  // reads them as e8m0, 32 values a block.
  expectPlants(q, {{4, 0, 0x47, {0, 0}},
                   {4, 0, 0x57, {0, 0}},
                   {4, 0, 0x67, {1, 0}},
                   {5, 0, 0x80, {0, 1}},
                   {5, 1, 0x7F, {0, 1}}});
  SmallVector<HostBuffer> got(want);
  got[5].bytes[0] = 0x80;
  auto checks = checkOutputs(q.entry, got, want, q.sig);
  ASSERT_TRUE(succeeded(checks));
  std::string message = describeMismatch(got[5], (*checks)[1]);
  EXPECT_NE(message.find("(MXFP4 C)"), std::string::npos) << message;
  EXPECT_NE(message.find("values 0..31"), std::string::npos) << message;
}
