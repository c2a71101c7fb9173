//===- PredictTest.cpp - the predicted B200 time of sm_100a GEMM plans ----===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// lib/Runner/Predict.cpp's terms, recomputed by hand for plans that
// exercise each of them: split-K (partials and the sum, or neither with
// on chip), several waves,
// MMA padding, the scale pre-passes; and no prediction for other plans.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/Predict.h"
#include "nvfp4/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

class PredictTest : public ::testing::Test {
protected:
  PredictTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }

  /// A GEMM entry (blocked or plain scales, f16 C) with `plan` if given.
  OwningOpRef<ModuleOp> gemm(int64_t m, int64_t n, int64_t k, bool blocked,
                             const std::string &plan = "") {
    auto s = [](int64_t v) { return std::to_string(v); };
    auto scales = [&](int64_t rows) {
      return blocked ? "memref<" + s((rows + 127) / 128) + "x" +
                           s((k + 63) / 64) + "x32x4x4xf8E4M3FN>"
                     : "memref<" + s(rows) + "x" + s(k / 16) + "xf8E4M3FN>";
    };
    std::string a = "memref<" + s(m) + "x" + s(k) + "xf4E2M1FN>";
    std::string b = "memref<" + s(n) + "x" + s(k) + "xf4E2M1FN>";
    std::string c = "memref<" + s(m) + "x" + s(n) + "xf16>";
    std::string attrs;
    if (blocked)
      attrs = "sfa_layout = #nvfp4.scale_layout<blocked>, sfb_layout = "
              "#nvfp4.scale_layout<blocked>";
    if (!plan.empty())
      attrs += (attrs.empty() ? "" : ", ") + std::string("nvfp4.plan = ") +
               plan;
    std::string text = "func.func @g(%a: " + a + ", %sfa: " + scales(m) +
                       ", %b: " + b + ", %sfb: " + scales(n) + ", %c: " + c +
                       ") {\n  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : " +
                       a + ", " + scales(m) + ", " + b + ", " + scales(n) +
                       ") outs(%c : " + c + ") {" + attrs + "}\n  return\n}\n";
    return parseSourceString<ModuleOp>(text, context.get());
  }

  std::unique_ptr<MLIRContext> context;
};

constexpr double kBw = 7.68e12, kSmRate = 6.9e15 / 148;

TEST_F(PredictTest, SplitKPartialsAndSum) {
  // 128x4096x7168, blocked: the planner's tile_m 64, split_k 2, in CTA
  // pairs (their 32 B tiles pair up; the pair's ring holds 9 slots).
  auto module = gemm(128, 4096, 7168, /*blocked=*/true);
  ASSERT_TRUE(module);
  auto p = predictB200Entry(*module, "g");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].plan,
            "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, "
            "stages = 9, cta_group = 2>, reduction = "
            "#nvfp4.split_k<splits = 2>>");
  const double values = (128.0 + 4096) * 7168 / 2;
  const double scales = (1.0 + 32) * 112 * 512;
  const double partials = 2.0 * 128 * 4096 * 4, c = 128.0 * 4096 * 2;
  EXPECT_DOUBLE_EQ(p[0].gemmBytes, values + scales + partials);
  EXPECT_DOUBLE_EQ(p[0].sumBytes, partials + c);
  EXPECT_EQ(p[0].prePassBytes, 0);
  EXPECT_EQ(p[0].ctas, 32 * 2 * 2);
  EXPECT_EQ(p[0].waves, 1);
  // One CTA: 128 x 64 x 14 slices of 256.
  EXPECT_DOUBLE_EQ(p[0].mmaSeconds, 2.0 * 128 * 64 * 14 * 256 / kSmRate);
  EXPECT_DOUBLE_EQ(p[0].seconds,
                   std::max(p[0].gemmBytes / kBw, p[0].mmaSeconds) +
                       p[0].sumBytes / kBw);
  ASSERT_TRUE(p[0].contestBestSeconds);
  EXPECT_DOUBLE_EQ(*p[0].contestBestSeconds, 8.29e-6);
}

TEST_F(PredictTest, SplitClusterWritesCOnce) {
  // The same plan with mode cluster: the splits add their tiles on chip,
  // so the GEMM writes C (not fp32 partials) and there is no sum kernel.
  auto module = gemm(128, 4096, 7168, /*blocked=*/true,
                     "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<"
                     "tile_m = 64, stages = 8>, reduction = #nvfp4.split_k<"
                     "splits = 2, mode = cluster>>");
  ASSERT_TRUE(module);
  auto p = predictB200Entry(*module, "g");
  ASSERT_EQ(p.size(), 1u);
  const double values = (128.0 + 4096) * 7168 / 2;
  const double scales = (1.0 + 32) * 112 * 512;
  const double c = 128.0 * 4096 * 2;
  EXPECT_DOUBLE_EQ(p[0].gemmBytes, values + scales + c);
  EXPECT_EQ(p[0].sumBytes, 0);
  EXPECT_EQ(p[0].sumSeconds, 0);
  EXPECT_EQ(p[0].ctas, 32 * 2 * 2);
  EXPECT_DOUBLE_EQ(p[0].seconds,
                   std::max(p[0].gemmBytes / kBw, p[0].mmaSeconds));
}

TEST_F(PredictTest, WavesPaddingAndPrePasses) {
  // 1000 x 7168 x 2048 with plain scales and 128-row tiles: 56 x 8 = 448
  // CTAs, 4 waves of 148; A's rows padded from 1000 to 1024.
  auto module = gemm(1000, 7168, 2048, /*blocked=*/false,
                     "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<"
                     "tile_m = 128, stages = 4>>");
  ASSERT_TRUE(module);
  auto p = predictB200Entry(*module, "g");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].ctas, 448);
  EXPECT_EQ(p[0].waves, 4);
  EXPECT_DOUBLE_EQ(p[0].mmaPadding, 1.0 - 1000.0 / 1024);
  EXPECT_DOUBLE_EQ(p[0].mmaSeconds, 4 * 2.0 * 128 * 128 * 2048 / kSmRate);
  // Each operand's plain scales read, blocked ones written.
  const double plain = (1000.0 + 7168) * 128;
  const double blocked = (8.0 + 56) * 32 * 512;
  EXPECT_DOUBLE_EQ(p[0].prePassBytes, plain + blocked);
  EXPECT_EQ(p[0].sumBytes, 0);
  EXPECT_FALSE(p[0].contestBestSeconds);
  std::string line = formatPrediction(p[0], "g");
  EXPECT_NE(line.find("448 CTAs in 4 wave(s) of 148 SMs, 2.3% padding"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("+ scale pre-passes"), std::string::npos) << line;
}

TEST_F(PredictTest, NoPredictionForOtherPlansOrOps) {
  // A GEMV (N = 1) gets a gemv plan for sm_100a: no tcgen05 prediction.
  auto module = gemm(128, 1, 256, /*blocked=*/false);
  ASSERT_TRUE(module);
  EXPECT_TRUE(predictB200Entry(*module, "g").empty());
  // A module that does not plan (K % 64 != 0) has none either.
  auto bad = gemm(128, 256, 96, /*blocked=*/false);
  ASSERT_TRUE(bad);
  EXPECT_TRUE(predictB200Entry(*bad, "g").empty());
}

} // namespace
