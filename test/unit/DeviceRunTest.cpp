//===- DeviceRunTest.cpp - the runner's device logic on a host device -----===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// runOnDevice and checkOutputs driven through a Device whose memory is host
// memory and whose "kernel" is a callback: what a kernel that skips an
// element, writes a wrong value, or writes non-finite values looks like to
// the runner, without a GPU.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/DeviceRun.h"
#include "nvfp4/InitAll.h"
#include "nvfp4/Runner/Check.h"
#include "nvfp4/Runner/Compile.h"
#include "nvfp4/Support/Nesting.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// A device on host memory: pointers are keys of `memory`; a launch calls
/// `kernel` with the argument buffers.
class HostDevice final : public Device {
public:
  using Kernel = std::function<void(std::vector<std::vector<uint8_t> *> &)>;
  Kernel kernel;
  int launches = 0, frees = 0;
  /// The parameters of the last launch.
  std::vector<KernelArg> lastArgs;
  /// The tensor maps encoded, with the buffers they describe.
  std::vector<std::pair<TensorMapEncoding, DevicePtr>> tensorMaps;
  /// Live allocations.
  size_t liveBuffers() const { return memory.size(); }

  std::string archName() const override { return "sm_90a"; }
  std::string deviceName() const override { return "host"; }
  int64_t l2Bytes() const override { return 1 << 20; }
  bool loadModules(const std::vector<std::string> &, std::string &) override {
    return true;
  }
  bool kernelResources(const std::string &, KernelResources &,
                       std::string &) override {
    return true;
  }
  bool alloc(size_t bytes, DevicePtr &ptr, std::string &) override {
    ptr = next++;
    memory[ptr].resize(bytes);
    return true;
  }
  void free(DevicePtr ptr) override {
    memory.erase(ptr);
    ++frees;
  }
  bool copyToDevice(DevicePtr dst, const void *src, size_t bytes,
                    std::string &) override {
    std::memcpy(memory[dst].data(), src, bytes);
    return true;
  }
  bool copyToHost(void *dst, DevicePtr src, size_t bytes,
                  std::string &) override {
    std::memcpy(dst, memory[src].data(), bytes);
    return true;
  }
  bool copyOnDevice(DevicePtr dst, DevicePtr src, size_t bytes,
                    std::string &) override {
    std::memcpy(memory[dst].data(), memory[src].data(), bytes);
    return true;
  }
  bool memset(DevicePtr dst, uint8_t value, size_t bytes,
              std::string &) override {
    std::memset(memory[dst].data(), value, bytes);
    return true;
  }
  bool encodeTensorMap(const TensorMapEncoding &encoding, DevicePtr base,
                       TensorMapBytes &, std::string &) override {
    tensorMaps.push_back({encoding, base});
    return true;
  }
  bool launch(const std::string &, const unsigned[3], const unsigned[3],
              const unsigned[3], unsigned, bool,
              const std::vector<KernelArg> &args, std::string &) override {
    std::vector<std::vector<uint8_t> *> buffers;
    lastArgs = args;
    for (const KernelArg &a : args)
      buffers.push_back(&memory[a.pointer]);
    ++launches;
    kernel(buffers);
    return true;
  }
  bool synchronize(std::string &) override { return true; }

protected:
  bool recordStart(std::string &) override { return true; }
  bool recordStop(float &ms, std::string &) override {
    ms = 1.0f;
    return true;
  }

private:
  std::map<DevicePtr, std::vector<uint8_t>> memory;
  DevicePtr next = 1;
};

constexpr const char *kGemv = R"mlir(
func.func @gemv(%a: memref<4x64xf4E2M1FN>, %sfa: memref<4x4xf8E4M3FN>,
                %b: memref<1x64xf4E2M1FN>, %sfb: memref<1x4xf8E4M3FN>,
                %c: memref<4x1xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<4x64xf4E2M1FN>, memref<4x4xf8E4M3FN>, memref<1x64xf4E2M1FN>, memref<1x4xf8E4M3FN>) outs(%c : memref<4x1xf16>)
  return
}
)mlir";

constexpr const char *kQuantize = R"mlir(
func.func @q(%x: memref<2x32xf32>, %q: memref<2x32xf4E2M1FN>, %sf: memref<2x2xf8E4M3FN>) {
  nvfp4.quantize ins(%x : memref<2x32xf32>) outs(%q, %sf : memref<2x32xf4E2M1FN>, memref<2x2xf8E4M3FN>)
  return
}
)mlir";

class DeviceRunTest : public ::testing::Test {
protected:
  DeviceRunTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }

  /// Parses `source`, fills random inputs, runs the CPU reference.
  void setUp(const char *source) {
    module = parseSourceString<ModuleOp>(source, context.get());
    ASSERT_TRUE(module);
    entry = *module->getOps<func::FuncOp>().begin();
    FailureOr<EntrySignature> s = analyzeEntry(entry);
    ASSERT_TRUE(succeeded(s));
    sig = *s;
    for (Type t : entry.getArgumentTypes())
      args.emplace_back(cast<MemRefType>(t));
    RandomOptions random;
    for (unsigned i : sig.inputs)
      args[i].fillRandom(random, i);
    reference = args;
    ASSERT_TRUE(succeeded(executeOnCpu(entry, reference)));
    KernelLaunch launch;
    launch.kernel = "k";
    launch.grid[0] = launch.grid[1] = launch.grid[2] = 1;
    launch.block[0] = 32;
    launch.block[1] = launch.block[2] = 1;
    kernels.launches.push_back(launch);
    for (unsigned i = 0; i < args.size(); ++i)
      kernels.launches.back().operands.push_back({false, i});
  }

  /// Compiles entry @gemm of `source` for sm_90a up to the launches (no
  /// binary): what a launcher reads off the IR.
  FailureOr<CompiledEntry> compileForSm90(const char *source) {
    module = parseSourceString<ModuleOp>(source, context.get());
    if (!module)
      return failure();
    return compileEntry(*module, "gemm", "sm_90a", "none", "");
  }

  /// A kernel that writes the reference's outputs, then lets `tamper`
  /// change them.
  void correctKernel(std::function<void(std::vector<uint8_t> &)> tamper = {}) {
    device.kernel = [this, tamper](std::vector<std::vector<uint8_t> *> &b) {
      for (unsigned o : sig.outputs) {
        std::vector<uint8_t> out = reference[o].bytes;
        if (tamper)
          tamper(out);
        // Bytes the tamper marked 0xAB are "not written".
        for (size_t i = 0; i < out.size(); ++i)
          if (out[i] != 0xAB || reference[o].bytes[i] == 0xAB)
            (*b[o])[i] = out[i];
      }
    };
  }

  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp entry;
  EntrySignature sig;
  SmallVector<HostBuffer> args, reference;
  CompiledEntry kernels;
  HostDevice device;
};

TEST_F(DeviceRunTest, CorrectKernelPasses) {
  setUp(kGemv);
  correctKernel();
  std::string error;
  ASSERT_TRUE(runOnDevice(device, kernels, sig, args, {}, error)) << error;
  auto checks = checkOutputs(entry, args, reference, sig);
  ASSERT_TRUE(succeeded(checks));
  EXPECT_EQ((*checks)[0].mismatches, 0);
  EXPECT_EQ(device.launches, 2) << "0x00 then 0xFF poison";
  EXPECT_EQ(device.liveBuffers(), 0u) << "the run frees its buffers";
  EXPECT_EQ(device.frees, 5) << "4 inputs and the output";
}

TEST_F(DeviceRunTest, SkippedFloatElementIsCaught) {
  setUp(kGemv);
  // Element [2, 0] (bytes 4 and 5 of the f16 output) is never written: it
  // keeps each run's poison (0x00, then 0xFF), so the runs differ there,
  // whatever the reference (NaN scales make NaN references, which a NaN
  // poison alone would match).
  correctKernel([](std::vector<uint8_t> &out) { out[4] = out[5] = 0xAB; });
  std::string error;
  EXPECT_FALSE(runOnDevice(device, kernels, sig, args, {}, error));
  EXPECT_NE(error.find("did not write 2 of the 8 bytes of argument #4"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("the first is byte 4"), std::string::npos) << error;
}

TEST_F(DeviceRunTest, PerturbedElementIsReportedWithIndexAndValues) {
  setUp(kGemv);
  correctKernel();
  std::string error;
  DeviceRunOptions options;
  options.perturbElement = 3;
  ASSERT_TRUE(runOnDevice(device, kernels, sig, args, options, error));
  auto checks = checkOutputs(entry, args, reference, sig);
  ASSERT_TRUE(succeeded(checks));
  const OutputCheck &c = (*checks)[0];
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.firstBad, 3);
  EXPECT_EQ(c.got, c.want * 2 + 1);
  options.perturbElement = 4;
  EXPECT_FALSE(runOnDevice(device, kernels, sig, args, options, error));
  EXPECT_NE(error.find("outside the first output (4 elements)"),
            std::string::npos)
      << error;
}

TEST_F(DeviceRunTest, PackedOutputsRunTwiceAndUnwrittenBytesFail) {
  setUp(kQuantize);
  correctKernel();
  std::string error;
  ASSERT_TRUE(runOnDevice(device, kernels, sig, args, {}, error)) << error;
  EXPECT_EQ(device.launches, 2) << "0x00 then 0xFF poison";
  auto checks = checkOutputs(entry, args, reference, sig);
  ASSERT_TRUE(succeeded(checks));
  EXPECT_EQ((*checks)[0].mismatches, 0);
  EXPECT_FALSE((*checks)[0].isFloat);

  // A kernel that never writes byte 5 of the packed values: whatever the
  // byte's true value, one of the two poisons exposes it.
  correctKernel([](std::vector<uint8_t> &out) {
    if (out.size() == 32)
      out[5] = 0xAB;
  });
  EXPECT_FALSE(runOnDevice(device, kernels, sig, args, {}, error));
  EXPECT_NE(error.find("did not write 1 of the 32 bytes of argument #1"),
            std::string::npos)
      << error;
}

TEST_F(DeviceRunTest, NonFiniteValuesAreCountedAndLocated) {
  setUp(kGemv);
  HostBuffer out = reference[4];
  std::vector<float> v = out.toFloats();
  v[1] = INFINITY;
  v[3] = -INFINITY;
  out.fromFloats(v);
  OutputCheck check;
  check.argIndex = 4;
  check.values = 4;
  countNonFinite(out, check);
  EXPECT_EQ(check.nonFinite, 2);
  EXPECT_EQ(check.firstNonFinite, 1);
  EXPECT_EQ(describeNonFinite(out, check),
            "argument #4 holds 2 non-finite values of 4 (50.0%); the first "
            "at [1, 0] is INF");
}

TEST(RunnerSupportTest, FormatIndex) {
  MLIRContext ctx;
  auto type = MemRefType::get({2, 3, 4}, Float16Type::get(&ctx));
  EXPECT_EQ(formatIndex(type, 0), "[0, 0, 0]");
  EXPECT_EQ(formatIndex(type, 23), "[1, 2, 3]");
  EXPECT_EQ(formatIndex(type, 13), "[1, 0, 1]");
}

TEST(RunnerSupportTest, CheckedStorageBytes) {
  MLIRContext ctx;
  auto fp4 = Float4E2M1FNType::get(&ctx);
  EXPECT_EQ(HostBuffer::checkedStorageBytes(MemRefType::get({3, 64}, fp4)),
            std::optional<uint64_t>(96));
  EXPECT_EQ(
      HostBuffer::checkedStorageBytes(MemRefType::get({INT64_MAX, 64}, fp4)),
      std::nullopt);
  EXPECT_EQ(HostBuffer::checkedStorageBytes(MemRefType::get(
                {int64_t(1) << 40, int64_t(1) << 30}, Float32Type::get(&ctx))),
            std::nullopt);
}

TEST(RunnerSupportTest, PtxasReport) {
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'gemv_kernel' for 'sm_90a'\n"
      "ptxas info    : Function properties for gemv_kernel\n"
      "    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 2304 bytes smem, "
      "400 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'other' for 'sm_90a'\n"
      "ptxas info    : Function properties for other\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, 380 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'grouped_kernel' for "
      "'sm_90a'\n"
      "ptxas info    : (C7511) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to insufficient register resources "
      "for the wgmma pipeline in the function 'grouped_kernel'\n"
      "ptxas info    : Used 168 registers\n"
      "ptxas info    : (C7512) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to insufficient register resources "
      "for the function 'dual_kernel'\n";
  llvm::StringMap<PtxasReport> r = parsePtxasReport(log);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r["grouped_kernel"].wgmmaSerialized,
            "insufficient register resources for the wgmma pipeline");
  EXPECT_EQ(r["grouped_kernel"].registers, 168);
  EXPECT_EQ(r["dual_kernel"].wgmmaSerialized,
            "insufficient register resources");
  EXPECT_EQ(r["gemv_kernel"].wgmmaSerialized, "");
  EXPECT_EQ(r["gemv_kernel"].registers, 40);
  EXPECT_EQ(r["gemv_kernel"].sharedBytes, 2304);
  EXPECT_EQ(r["gemv_kernel"].stackBytes, 8);
  EXPECT_EQ(r["gemv_kernel"].spillStoreBytes, 4);
  EXPECT_EQ(r["gemv_kernel"].spillLoadBytes, 12);
  EXPECT_EQ(r["other"].registers, 8);
  EXPECT_EQ(r["other"].sharedBytes, 0);
}

TEST(RunnerSupportTest, NestingDepth) {
  std::string ok = "func.func @f(%a: memref<4xf32>) -> (i32) { \"[[[[\" }";
  EXPECT_FALSE(checkNestingDepth(ok, 3));
  std::string deep =
      "module {\n" + std::string(300, '[') + std::string(300, ']') + "}";
  std::optional<std::string> message = checkNestingDepth(deep);
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("more than 256 levels deep (at line 2)"),
            std::string::npos)
      << *message;
  // Brackets inside comments do not count.
  EXPECT_FALSE(checkNestingDepth("// " + std::string(300, '{'), 256));
  // An alias nests as deep as its definition: #a1 = [#a0] is one more.
  std::string aliases = "#a0 = [0]\n";
  for (int i = 1; i < 5; ++i)
    aliases +=
        "#a" + std::to_string(i) + " = [#a" + std::to_string(i - 1) + "]\n";
  EXPECT_FALSE(checkNestingDepth(aliases + "func.func private @f() "
                                           "attributes {x = #a4}",
                                 6));
  message = checkNestingDepth(aliases + "func.func private @f() "
                                        "attributes {x = #a4}",
                              5);
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("brackets or aliases more than 5 levels deep (at "
                          "line 6)"),
            std::string::npos)
      << *message;
  // Affine operators are counted per map; `->` is not one.
  std::string sum = "#m = affine_map<(d0) -> (d0";
  for (unsigned i = 0; i < kMaxAffineOperators; ++i)
    sum += " - d0";
  EXPECT_FALSE(checkNestingDepth(sum + ")>"));
  message = checkNestingDepth(sum + " - d0)>");
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("more than 1024 operators"), std::string::npos)
      << *message;
  // The same operators outside affine maps (numbers, dense data) are free.
  std::string dense = "x = dense<[";
  for (int i = 0; i < 5000; ++i)
    dense += "-1.0e+3, ";
  EXPECT_FALSE(checkNestingDepth(dense + "0.0]>"));
  // Binary data is not text; MLIR bytecode passes to its own reader.
  message = checkNestingDepth(std::string("ab\0cd", 5));
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("not MLIR text: it holds a NUL byte at offset 2"),
            std::string::npos)
      << *message;
  EXPECT_FALSE(checkNestingDepth(std::string("ML\xefR\0\x01", 6)));
}

} // namespace

TEST_F(DeviceRunTest, TensorMapOperandsAreEncodedOverTheirBufferOnce) {
  setUp(kGemv);
  correctKernel();
  // The kernel's last parameter: a tensor map over argument 0.
  KernelOperand map;
  map.index = 0;
  map.tensorMap = TensorMapEncoding();
  map.tensorMap->rank = 2;
  kernels.launches.back().operands.push_back(map);
  std::vector<uint8_t> *seen = nullptr, *first = nullptr;
  auto write = device.kernel;
  device.kernel = [&](std::vector<std::vector<uint8_t> *> &b) {
    first = b.front();
    seen = b.back();
    write(b);
  };
  std::string error;
  ASSERT_TRUE(runOnDevice(device, kernels, sig, args, {}, error)) << error;
  ASSERT_EQ(device.tensorMaps.size(), 1u)
      << "encoded once, outside the two launches";
  EXPECT_EQ(device.tensorMaps[0].first.rank, 2u);
  EXPECT_EQ(device.lastArgs.back().pointer, device.tensorMaps[0].second)
      << "the map is encoded over the buffer the launch names";
  EXPECT_TRUE(device.lastArgs.back().isTensorMap);
  EXPECT_FALSE(device.lastArgs.front().isTensorMap);
  EXPECT_EQ(seen, first) << "the map describes argument 0's buffer";
}

TEST_F(DeviceRunTest, GemmLaunchCarriesTheTensorMapOfItsTiles) {
  // A ring plan: the GEMM reads A's decoded tiles (a workspace) through a
  // tensor map that the launcher must encode: 128 x 64 f16 boxes of a
  // (tiles x 128) x 64 matrix, 128B-swizzled.
  constexpr const char *kGemm = R"mlir(
func.func @gemm(%a: memref<128x256xf4E2M1FN>, %sfa: memref<128x16xf8E4M3FN>,
                %b: memref<256x256xf4E2M1FN>, %sfb: memref<256x16xf8E4M3FN>,
                %c: memref<128x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, memref<256x256xf4E2M1FN>, memref<256x16xf8E4M3FN>) outs(%c : memref<128x256xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 128, stages = 4>>}
  return
}
)mlir";
  FailureOr<CompiledEntry> compiled = compileForSm90(kGemm);
  ASSERT_TRUE(succeeded(compiled));
  ASSERT_EQ(compiled->launches.size(), 2u) << "the pre-pass, then the GEMM";
  ASSERT_EQ(compiled->workspaceBytes.size(), 1u);
  EXPECT_EQ(compiled->workspaceBytes[0], 4u * 128 * 128)
      << "4 K chunks of 128 rows x 128 bytes";
  const KernelLaunch &gemm = compiled->launches[1];
  ASSERT_EQ(gemm.operands.size(), 6u);
  const KernelOperand &tiles = gemm.operands[5];
  EXPECT_TRUE(tiles.workspace);
  EXPECT_EQ(tiles.index, 0u);
  ASSERT_TRUE(tiles.tensorMap.has_value());
  const TensorMapEncoding &e = *tiles.tensorMap;
  EXPECT_EQ(e.dataType, 6u) << "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
  EXPECT_EQ(e.rank, 2u);
  EXPECT_EQ(e.globalDim[0], 64u);
  EXPECT_EQ(e.globalDim[1], 512u);
  EXPECT_EQ(e.globalStrides[0], 128u);
  EXPECT_EQ(e.boxDim[0], 64u);
  EXPECT_EQ(e.boxDim[1], 128u);
  EXPECT_EQ(e.elementStrides[0], 1u);
  EXPECT_EQ(e.elementStrides[1], 1u);
  EXPECT_EQ(e.swizzle, 3u) << "CU_TENSOR_MAP_SWIZZLE_128B";
  EXPECT_EQ(e.oobFill, 0u);
  EXPECT_FALSE(compiled->launches[0].operands[2].tensorMap.has_value())
      << "the pre-pass writes the workspace through its pointer";
}

TEST_F(DeviceRunTest, ClusterPlanLaunchesInClusters) {
  // Split-K on chip: the GEMM's launch carries its cluster shape (the two
  // splits of K of a tile along z), and its tensor map copies whole tiles.
  constexpr const char *kGemm = R"mlir(
func.func @gemm(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>,
                %b: memref<256x256xf4E2M1FN>, %sfb: memref<256x16xf8E4M3FN>,
                %c: memref<64x256xf16>) {
  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>, memref<256x256xf4E2M1FN>, memref<256x16xf8E4M3FN>) outs(%c : memref<64x256xf16>) {nvfp4.plan = #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64, stages = 4, producer = true>, reduction = #nvfp4.split_k<splits = 2, mode = scatter>>}
  return
}
)mlir";
  FailureOr<CompiledEntry> compiled = compileForSm90(kGemm);
  ASSERT_TRUE(succeeded(compiled));
  ASSERT_EQ(compiled->launches.size(), 2u);
  const KernelLaunch &decode = compiled->launches[0],
                     &gemm = compiled->launches[1];
  EXPECT_EQ(decode.cluster[0] * decode.cluster[1] * decode.cluster[2], 1u);
  EXPECT_EQ(gemm.cluster[0], 1u);
  EXPECT_EQ(gemm.cluster[1], 1u);
  EXPECT_EQ(gemm.cluster[2], 2u);
  EXPECT_EQ(gemm.grid[0], 4u) << "4 tiles of B";
  EXPECT_EQ(gemm.grid[2], 2u) << "2 splits of K";
  ASSERT_TRUE(gemm.operands[5].tensorMap.has_value());
  EXPECT_EQ(gemm.operands[5].tensorMap->boxDim[1], 64u);
}
