//===- Tcgen05PipelineTest.cpp - compiled sm_100a GEMMs through the model -===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Compiles GEMMs for sm_100a through nvfp4-plan, nvfp4-tile and
// nvfp4-software-pipeline, then executes CTAs of the kernel on the host
// model of tcgen05 (include/nvfp4/Target/Tcgen05Model.h) exactly as the IR
// says: the producer's copies (which tensor map or scale buffer, the
// coordinates and byte offsets, evaluated from the IR for the CTA's block
// ids and K slice; where in the slot; the map's box and swizzle), the MMA
// thread's scale copies (slot offsets, TMEM columns) and MMAs (the
// descriptors and instruction descriptor the pass encoded, TMEM columns,
// the accumulate flag), and the epilogue's TMEM loads and stores. Nothing
// of the layout is re-derived here. Values and scales keep every partial
// sum exact in f32, so each CTA's tile must equal the reference bit for
// bit. Planted errors in the compiled ops (a wrong swizzle mode, a wrong
// stride byte offset, the activations' scales shifted by 32 rows, the
// wrong TMEM column offset of an odd 64-row tile) must change the result.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/InitAll.h"
#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Reference/Layout.h"
#include "nvfp4/Target/Tcgen05Model.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <random>

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::tcgen05;

namespace {

struct Shape {
  int64_t m, n, k, batch;
  /// Both scale operands plain (else blocked).
  bool plain = false;
};

/// A GEMM entry with plain or blocked scales, optionally with a plan.
std::string gemmSource(Shape s, const std::string &plan) {
  auto scales = [&](int64_t rows) {
    if (s.plain)
      return "memref<" + std::to_string(s.batch) + "x" + std::to_string(rows) +
             "x" + std::to_string(s.k / 16) + "xf8E4M3FN>";
    return "memref<" + std::to_string(s.batch) + "x" +
           std::to_string((rows + 127) / 128) + "x" +
           std::to_string((s.k + 63) / 64) + "x32x4x4xf8E4M3FN>";
  };
  auto values = [&](int64_t rows) {
    return "memref<" + std::to_string(s.batch) + "x" + std::to_string(rows) +
           "x" + std::to_string(s.k) + "xf4E2M1FN>";
  };
  std::string c = "memref<" + std::to_string(s.batch) + "x" +
                  std::to_string(s.m) + "x" + std::to_string(s.n) + "xf32>";
  std::string types = values(s.m) + ", " + scales(s.m) + ", " + values(s.n) +
                      ", " + scales(s.n);
  std::string layout = s.plain ? "plain" : "blocked";
  std::string attrs = "sfa_layout = #nvfp4.scale_layout<" + layout +
                      ">, sfb_layout = #nvfp4.scale_layout<" + layout + ">";
  if (!plan.empty())
    attrs += ", nvfp4.plan = " + plan;
  return "func.func @gemm(%a: " + values(s.m) + ", %sfa: " + scales(s.m) +
         ", %b: " + values(s.n) + ", %sfb: " + scales(s.n) + ", %c: " + c +
         ") {\n  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : " + types +
         ") outs(%c : " + c + ") {" + attrs + "}\n  return\n}\n";
}

/// The operands' bytes as a launcher passes them: packed e2m1 [L][rows][K/2]
/// and scales per batch in the shape's layout.
struct Host {
  Shape shape;
  std::vector<uint8_t> a, b, sfa, sfb;
  std::vector<uint8_t> aCodes, bCodes, sfaPlain, sfbPlain;
};

Host randomHost(Shape s, unsigned seed) {
  std::mt19937 rng(seed);
  Host h{s, {}, {}, {}, {}, {}, {}, {}, {}};
  auto fill = [&](int64_t rows, std::vector<uint8_t> &codes,
                  std::vector<uint8_t> &packed, std::vector<uint8_t> &plain,
                  std::vector<uint8_t> &passed) {
    codes.resize(s.batch * rows * s.k);
    for (uint8_t &v : codes)
      v = rng() % 16;
    packed.resize(codes.size() / 2);
    for (size_t i = 0; i < packed.size(); ++i)
      packed[i] = uint8_t(codes[2 * i] | (codes[2 * i + 1] << 4));
    // Scales 0.5, 1, 2 keep every partial sum exact in f32.
    const uint8_t choice[] = {::nvfp4::ref::encodeE4M3(0.5f),
                              ::nvfp4::ref::encodeE4M3(1.0f),
                              ::nvfp4::ref::encodeE4M3(2.0f)};
    const int64_t kb = s.k / 16;
    plain.resize(s.batch * rows * kb);
    for (uint8_t &c : plain)
      c = choice[rng() % 3];
    if (s.plain) {
      passed = plain;
      return;
    }
    const int64_t perBatch = ::nvfp4::ref::blockedScaleBytes(rows, kb);
    // Padding bytes as a careless producer leaves them: NaN scales (0x7f),
    // which the kernel must never multiply into a stored result.
    passed.assign(s.batch * perBatch, 0x7f);
    for (int64_t l = 0; l < s.batch; ++l)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < kb; ++c)
          passed[l * perBatch + ::nvfp4::ref::blockedScaleOffset(r, c, kb)] =
              plain[(l * rows + r) * kb + c];
  };
  fill(s.m, h.aCodes, h.a, h.sfaPlain, h.sfa);
  fill(s.n, h.bCodes, h.b, h.sfbPlain, h.sfb);
  return h;
}

float reference(const Host &h, int64_t l, int64_t m, int64_t n) {
  const Shape &s = h.shape;
  double sum = 0;
  for (int64_t k = 0; k < s.k; ++k) {
    double a = ::nvfp4::ref::decodeE2M1(h.aCodes[(l * s.m + m) * s.k + k]) *
               ::nvfp4::ref::decodeE4M3(
                   h.sfaPlain[(l * s.m + m) * (s.k / 16) + k / 16]);
    double b = ::nvfp4::ref::decodeE2M1(h.bCodes[(l * s.n + n) * s.k + k]) *
               ::nvfp4::ref::decodeE4M3(
                   h.sfbPlain[(l * s.n + n) * (s.k / 16) + k / 16]);
    sum += a * b;
  }
  return static_cast<float>(sum);
}

/// Evaluates the kernel's integer SSA values for one CTA and loop trip.
class Evaluator {
public:
  std::function<int64_t(gpu::Dimension)> blockId;
  DenseMap<Value, int64_t> bound;

  int64_t operator()(Value v) {
    if (auto it = bound.find(v); it != bound.end())
      return it->second;
    Operation *op = v.getDefiningOp();
    if (!op)
      ADD_FAILURE() << "unbound block argument";
    if (!op)
      return 0;
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      return cast<IntegerAttr>(c.getValue()).getInt();
    if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      return blockId(id.getDimension());
    auto x = [&](unsigned i) { return (*this)(op->getOperand(i)); };
    if (isa<arith::IndexCastUIOp, arith::IndexCastOp, arith::ExtUIOp>(op))
      return x(0);
    if (isa<arith::AddIOp>(op))
      return x(0) + x(1);
    if (isa<arith::SubIOp>(op))
      return x(0) - x(1);
    if (isa<arith::MulIOp>(op))
      return x(0) * x(1);
    if (isa<arith::DivUIOp>(op))
      return x(0) / x(1);
    if (isa<arith::RemUIOp>(op))
      return x(0) % x(1);
    if (isa<arith::MinUIOp>(op))
      return std::min(x(0), x(1));
    if (isa<arith::AndIOp>(op))
      return x(0) & x(1);
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq:
        return x(0) == x(1);
      case arith::CmpIPredicate::ugt:
        return x(0) > x(1);
      case arith::CmpIPredicate::ult:
        return x(0) < x(1);
      default:
        break;
      }
    }
    ADD_FAILURE() << "cannot evaluate " << op->getName().getStringRef().str();
    return 0;
  }
};

/// A planted error: rewrites the compiled ops before they run.
enum class Plant { None, Swizzle, StrideOffset, SfbRows, OddTileColumn };

/// One compiled GEMM and its model execution.
class CompiledGemm {
public:
  CompiledGemm(Shape shape, const std::string &planText) : shape(shape) {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    registerAllPasses();
    module = parseSourceString<ModuleOp>(gemmSource(shape, planText), &context);
    if (!module) {
      ADD_FAILURE() << "cannot parse:\n" << gemmSource(shape, planText);
      return;
    }
    PassManager pm(&context);
    if (failed(parsePassPipeline(
            "nvfp4-plan{target=sm_100a},nvfp4-tile{target=sm_100a},"
            "nvfp4-software-pipeline",
            pm)) ||
        failed(pm.run(*module))) {
      ADD_FAILURE() << "the pipeline failed on:\n"
                    << gemmSource(shape, planText);
      return;
    }
    module->walk([&](gpu::LaunchFuncOp l) {
      if (l.getKernelName().getValue() == "gemm_kernel")
        launch = l;
      else if (!launch)
        prePasses.push_back(l);
    });
    module->walk([&](gpu::GPUFuncOp f) {
      if (f.getName() == "gemm_kernel")
        kernel = f;
    });
    if (!launch || !kernel) {
      std::string text;
      llvm::raw_string_ostream os(text);
      module->print(os);
      ADD_FAILURE() << "no gemm_kernel and its launch in\n" << text;
      return;
    }
    kernel.walk([&](scf::ForOp loop) {
      if (!loop.getOps<RingCopyOp>().empty())
        producer = loop;
      if (!loop.getOps<Tcgen05MmaOp>().empty())
        issuer = loop;
    });
    kernel.walk([&](RingAllocOp a) { ring = a.getType(); });
    kernel.walk([&](Tcgen05StoreOp s) { store = s; });
    plan = dyn_cast<Tcgen05PlanAttr>(launch->getAttr("nvfp4.plan"));
    ok = producer && issuer && ring && store && plan;
    if (!ok)
      ADD_FAILURE() << "missing: producer " << bool(producer) << " issuer "
                    << bool(issuer) << " ring " << bool(ring) << " store "
                    << bool(store) << " plan " << bool(plan);
  }

  /// The entry's buffer `operand` is: an argument of the entry, or a
  /// workspace the entry's earlier launches wrote.
  const std::vector<uint8_t> &entryBuffer(const Host &h, Value operand) {
    if (auto alloc = operand.getDefiningOp<gpu::AllocOp>()) {
      auto it = workspaces.find(alloc);
      if (it != workspaces.end())
        return it->second;
      ADD_FAILURE() << "a workspace no launch before the GEMM writes";
      static const std::vector<uint8_t> none;
      return none;
    }
    const std::vector<uint8_t> *buffers[] = {&h.a, &h.sfa, &h.b, &h.sfb};
    return *buffers[cast<BlockArgument>(operand).getArgNumber()];
  }

  /// Which host buffer a kernel argument of the GEMM is: its launch
  /// operand, through a nvfp4.tensor_map when it is a map.
  const std::vector<uint8_t> &hostBuffer(const Host &h, Value kernelArg) {
    Value operand = launch.getKernelOperands()[cast<BlockArgument>(kernelArg)
                                                   .getArgNumber()];
    if (auto map = operand.getDefiningOp<TensorMapOp>())
      operand = map.getSource();
    return entryBuffer(h, operand);
  }

  /// Runs the launches before the GEMM's (the scales' pre-passes) by the
  /// semantics of their nvfp4.block_scales (ref::toBlockedPadded per
  /// batch, the shapes taken from the compiled operands).
  void runPrePasses(const Host &h) {
    workspaces.clear();
    for (gpu::LaunchFuncOp pre : prePasses) {
      auto fn = module->lookupSymbol<gpu::GPUFuncOp>(pre.getKernel());
      BlockScalesOp op;
      fn.walk([&](BlockScalesOp b) { op = b; });
      if (!op) {
        ADD_FAILURE() << "a launch before the GEMM that is not a scale "
                         "pre-pass: "
                      << pre.getKernelName().getValue().str();
        continue;
      }
      ArrayRef<int64_t> src = op.getSrc().getType().getShape();
      ArrayRef<int64_t> dst = op.getDst().getType().getShape();
      const bool plain = op.isSrcPlain();
      const int64_t batch = dst.size() == 6 ? dst.front() : 1;
      const int64_t rows = plain ? src[src.size() - 2] : dst[dst.size() - 5] * 128;
      const int64_t kb = plain ? src.back() : src[src.size() - 4] * 4;
      const int64_t kbOut = dst[dst.size() - 4] * 4;
      const std::vector<uint8_t> &in = entryBuffer(h, pre.getKernelOperands()[0]);
      // A blocked source's padding rows are copied as they are.
      const int64_t inBatch = plain ? rows * kb
                                    : ::nvfp4::ref::blockedScaleBytes(rows, kb);
      const int64_t outBatch = ::nvfp4::ref::blockedScaleBytes(rows, kbOut);
      std::vector<uint8_t> out(batch * outBatch);
      for (int64_t l = 0; l < batch; ++l)
        ::nvfp4::ref::toBlockedPadded(
            &in[l * inBatch],
            plain ? ::nvfp4::ref::ScaleLayout::Plain
                  : ::nvfp4::ref::ScaleLayout::Blocked,
            rows, kb, kbOut, &out[l * outBatch]);
      workspaces[pre.getKernelOperands()[1].getDefiningOp()] = std::move(out);
    }
  }

  /// Runs CTA (x, y, z) through the model; adds its tile to `out`
  /// ([L][M][N] floats; split-K CTAs add their partials as the sum kernel
  /// does).
  void runCta(const Host &h, int64_t x, int64_t y, int64_t z,
              std::vector<float> &out, Plant plant = Plant::None) {
    if (preparedFor != &h) {
      runPrePasses(h);
      preparedFor = &h;
    }
    Evaluator eval;
    eval.blockId = [&](gpu::Dimension d) {
      return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
    };
    constexpr uint32_t kRingBase = 1024;
    SharedMemory smem(kRingBase + ring.getStages() * ring.getSlotBytes(), 0);
    TensorMemory tmem;
    auto slotAddress = [&](int64_t slot) {
      return kRingBase + static_cast<uint32_t>(slot * ring.getSlotBytes());
    };
    const int64_t trips = eval(producer.getUpperBound());
    ASSERT_EQ(trips, eval(issuer.getUpperBound()));
    for (int64_t i = 0; i < trips; ++i) {
      eval.bound[producer.getInductionVar()] = i;
      eval.bound[issuer.getInductionVar()] = i;
      for (Operation &op : producer.getBody()->without_terminator()) {
        if (auto copy = dyn_cast<RingCopyOp>(op)) {
          TensorMapType map = copy.getMap().getType();
          ASSERT_EQ(map.getSwizzle(), TensorMapSwizzle::B128);
          ASSERT_EQ(map.getBox().back(), 128);
          const std::vector<uint8_t> &src = hostBuffer(h, copy.getMap());
          int64_t l = eval(copy.getCoordinates()[0]);
          int64_t row0 = eval(copy.getCoordinates()[1]);
          int64_t col0 = eval(copy.getCoordinates()[2]);
          ArrayRef<int64_t> dims = map.getShape();
          uint32_t base = slotAddress(eval(copy.getSlot())) +
                          static_cast<uint32_t>(copy.getOffset());
          for (int64_t r = 0; r < map.getBox()[1]; ++r)
            for (int64_t byte = 0; byte < 128; ++byte) {
              int64_t row = row0 + r, col = col0 + byte;
              uint8_t v = row < dims[1] && col < dims[2]
                              ? src[(l * dims[1] + row) * dims[2] + col]
                              : 0;
              smem.at(tma128BAddress(base, r, byte)) = v;
            }
        } else if (auto bytes = dyn_cast<RingCopyBytesOp>(op)) {
          const std::vector<uint8_t> &src = hostBuffer(h, bytes.getSource());
          int64_t from = eval(bytes.getSourceOffset());
          ASSERT_LE(from + bytes.getBytes(), static_cast<int64_t>(src.size()));
          uint32_t to = slotAddress(eval(bytes.getSlot())) +
                        static_cast<uint32_t>(bytes.getOffset());
          std::copy_n(src.begin() + from, bytes.getBytes(), smem.begin() + to);
        }
      }
      for (Operation &op : issuer.getBody()->without_terminator()) {
        if (auto cp = dyn_cast<Tcgen05CopyScalesOp>(op)) {
          int64_t slot = eval(cp.getSlot());
          SmemDescriptor source = scaleAtomDescriptor(
              slotAddress(slot) + static_cast<uint32_t>(cp.getOffset()));
          note(copy32x128bWarpx4(
              smem, source.encode(),
              tmemAddress(0, static_cast<uint32_t>(cp.getColumn() +
                                                   slot * cp.getColumnStep())),
              tmem));
        } else if (auto mma = dyn_cast<Tcgen05MmaOp>(op)) {
          int64_t slot = eval(mma.getSlot());
          uint64_t start = slotAddress(slot) >> 4;
          SmemDescriptor a = *SmemDescriptor::decode(mma.getADesc());
          SmemDescriptor b = *SmemDescriptor::decode(mma.getBDesc());
          int64_t shift = eval(mma.getSfbShift());
          int64_t sfb = mma.getSfbColumn();
          if (plant == Plant::Swizzle)
            a.swizzle = Swizzle::Swizzle64B;
          if (plant == Plant::StrideOffset)
            b.strideByteOffset = 512;
          if (plant == Plant::SfbRows)
            sfb += 1;
          if (plant == Plant::OddTileColumn)
            shift = 0;
          Mxf4Mma run;
          run.aDescriptor = a.encode() + start;
          run.bDescriptor = b.encode() + start;
          run.instrDescriptor = static_cast<uint32_t>(mma.getIdesc());
          run.d = tmemAddress(0, static_cast<uint32_t>(mma.getDColumn()));
          run.scaleA = tmemAddress(
              0, static_cast<uint32_t>(mma.getSfaColumn() +
                                       slot * mma.getColumnStep()));
          run.scaleB = tmemAddress(
              0, static_cast<uint32_t>(sfb + slot * mma.getColumnStep() +
                                       shift));
          run.accumulate = eval(mma.getAccumulate()) != 0;
          note(mmaMxf4Nvf4(smem, run, tmem));
        }
      }
    }
    // The epilogue: thread t of warp t / 32 reads its lane's columns.
    const int64_t m0 = eval(store.getM()), n0 = eval(store.getRow());
    const int64_t l = eval(store.getBatch());
    for (int64_t t = 0; t < 128; ++t)
      for (int64_t j = 0; j < store.getColumns(); ++j) {
        int64_t m = m0 + j, n = n0 + t;
        if (m >= shape.m || n >= shape.n)
          continue;
        float v = load32x32b(tmem, static_cast<int>(t / 32),
                             static_cast<int>(t % 32),
                             tmemAddress(static_cast<uint32_t>(32 * (t / 32)),
                                         0),
                             static_cast<int>(j));
        out[(l * shape.m + m) * shape.n + n] += v;
      }
  }

  /// The first operand the model refused ("" when it took them all).
  std::string modelError;
  void note(const std::string &error) {
    if (modelError.empty())
      modelError = error;
  }

  /// Runs every CTA of the grid.
  std::vector<float> runAll(const Host &h, Plant plant = Plant::None) {
    std::vector<float> out(shape.batch * shape.m * shape.n, 0.0f);
    int64_t gx = grid(0), gy = grid(1), gz = grid(2);
    for (int64_t z = 0; z < gz; ++z)
      for (int64_t y = 0; y < gy; ++y)
        for (int64_t x = 0; x < gx; ++x)
          runCta(h, x, y, z, out, plant);
    return out;
  }

  int64_t grid(int dim) {
    Value sizes[] = {launch.getGridSizeX(), launch.getGridSizeY(),
                     launch.getGridSizeZ()};
    return cast<IntegerAttr>(
               sizes[dim].getDefiningOp<arith::ConstantOp>().getValue())
        .getInt();
  }

  Shape shape;
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  gpu::LaunchFuncOp launch;
  SmallVector<gpu::LaunchFuncOp> prePasses;
  DenseMap<Operation *, std::vector<uint8_t>> workspaces;
  const Host *preparedFor = nullptr;
  gpu::GPUFuncOp kernel;
  scf::ForOp producer, issuer;
  RingType ring;
  Tcgen05StoreOp store;
  Tcgen05PlanAttr plan;
  bool ok = false;
};

/// Elements of `out` that differ from the reference (bit for bit).
int64_t mismatches(const Host &h, const std::vector<float> &out) {
  const Shape &s = h.shape;
  int64_t bad = 0;
  for (int64_t l = 0; l < s.batch; ++l)
    for (int64_t m = 0; m < s.m; ++m)
      for (int64_t n = 0; n < s.n; ++n)
        bad += out[(l * s.m + m) * s.n + n] != reference(h, l, m, n);
  return bad;
}

struct Case {
  Shape shape;
  std::string plan; // "" = the planner's
};

class Tcgen05PipelineTest : public ::testing::TestWithParam<Case> {};

TEST_P(Tcgen05PipelineTest, CompiledKernelMatchesReference) {
  const Case &c = GetParam();
  CompiledGemm gemm(c.shape, c.plan);
  ASSERT_TRUE(gemm.ok) << "the GEMM did not compile to the pipeline's ops";
  Host h = randomHost(c.shape, 7);
  std::vector<float> out = gemm.runAll(h);
  EXPECT_EQ(gemm.modelError, "");
  EXPECT_EQ(mismatches(h, out), 0) << "plan " << [&] {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << gemm.plan;
    return s;
  }();
}

INSTANTIATE_TEST_SUITE_P(
    Plans, Tcgen05PipelineTest,
    ::testing::Values(
        // The planner's choice: 64-row tiles of A (odd tiles read scale
        // columns + 2) and split-K.
        Case{{128, 256, 512, 1}, ""},
        // Slots reused (4 slices, 2 stages), 128-row tiles.
        Case{{128, 256, 1024, 1}, "#nvfp4.tcgen05_plan<tile_m = 128, "
                                  "stages = 2>"},
        // Ragged M and N, a batch of 2, 32-row tiles (quarter offsets 0-3).
        Case{{100, 200, 512, 2}, "#nvfp4.tcgen05_plan<tile_m = 32, "
                                 "stages = 3>"},
        // 256-row tiles over fewer rows: two scale blocks, the second past
        // M clamped.
        Case{{200, 128, 256, 1}, "#nvfp4.tcgen05_plan<tile_m = 256, "
                                 "stages = 2>"},
        Case{{300, 128, 512, 1}, "#nvfp4.tcgen05_plan<tile_m = 256, "
                                 "stages = 2, split_k = 2>"},
        // Plain scales (the pre-pass blocks them), K = 640: the last slice
        // holds 2 of 4 chunks (values read as zero, scales padded zero).
        Case{{100, 200, 640, 2, /*plain=*/true}, ""},
        // Blocked scales with K % 256 != 0 (padded by the pre-pass; the
        // host's padding bytes are NaN): 3 slices, the last of 3 chunks.
        Case{{64, 130, 704, 1}, "#nvfp4.tcgen05_plan<tile_m = 64, "
                                "stages = 2>"},
        // Split-K over 7 slices of which the last has 1 chunk.
        Case{{128, 256, 1600, 1, /*plain=*/true},
             "#nvfp4.tcgen05_plan<tile_m = 128, stages = 3, split_k = 7>"}));

/// Each planted error changes the result of a plan where it matters.
TEST(Tcgen05PipelinePlanted, ErrorsAreCaught) {
  CompiledGemm gemm({128, 256, 512, 1},
                    "#nvfp4.tcgen05_plan<tile_m = 64, stages = 2>");
  ASSERT_TRUE(gemm.ok);
  Host h = randomHost(gemm.shape, 11);
  EXPECT_EQ(mismatches(h, gemm.runAll(h)), 0);
  EXPECT_EQ(gemm.modelError, "");
  // Caught: the model refuses the operands, or the result changes.
  for (Plant plant : {Plant::Swizzle, Plant::StrideOffset, Plant::SfbRows,
                      Plant::OddTileColumn}) {
    gemm.modelError.clear();
    int64_t bad = mismatches(h, gemm.runAll(h, plant));
    EXPECT_TRUE(bad > 0 || !gemm.modelError.empty())
        << "planted error " << static_cast<int>(plant) << " went unnoticed";
  }
}

/// The contest shapes' plans: the first and the last CTA of each (a full
/// grid would take minutes on the host model).
TEST(Tcgen05PipelineContest, FirstAndLastTiles) {
  for (Shape s : {Shape{128, 7168, 16384, 1}, Shape{128, 4096, 7168, 1},
                  Shape{128, 7168, 2048, 1}}) {
    // K is cut to 1024 for the host's time, with the contest shape's plan.
    CompiledGemm full(s, "");
    ASSERT_TRUE(full.ok);
    std::string plan;
    llvm::raw_string_ostream os(plan);
    os << full.plan;
    Shape cut{s.m, s.n, 1024, 1};
    Tcgen05PlanAttr p = full.plan;
    // Keep the plan but its split_k, which must divide the shorter K.
    std::string kept = "#nvfp4.tcgen05_plan<tile_m = " +
                       std::to_string(p.getTileM()) +
                       ", stages = " + std::to_string(p.getStages()) + ">";
    CompiledGemm gemm(cut, kept);
    ASSERT_TRUE(gemm.ok) << plan;
    Host h = randomHost(cut, 3);
    std::vector<float> out(cut.m * cut.n, 0.0f);
    gemm.runCta(h, 0, 0, 0, out);
    gemm.runCta(h, gemm.grid(0) - 1, gemm.grid(1) - 1, 0, out);
    EXPECT_EQ(gemm.modelError, "");
    int64_t bad = 0, checked = 0;
    for (int64_t m = 0; m < cut.m; ++m)
      for (int64_t n = 0; n < cut.n; ++n) {
        bool first = n < 128 && m < p.getTileM();
        bool last = n >= (gemm.grid(0) - 1) * 128 &&
                    m >= (gemm.grid(1) - 1) * p.getTileM();
        if (!first && !last)
          continue;
        ++checked;
        bad += out[m * cut.n + n] != reference(h, 0, m, n);
      }
    EXPECT_GT(checked, 0);
    EXPECT_EQ(bad, 0) << plan;
  }
}

/// Runs the tiles of A's and B's first rows and of their last rows (every
/// split of K, the first and last batch) of `s` with the planner's plan,
/// and compares them with the reference; returns the plan's text.
std::string checkFirstAndLastTiles(Shape s, unsigned seed) {
  CompiledGemm gemm(s, "");
  EXPECT_TRUE(gemm.ok);
  if (!gemm.ok)
    return "";
  std::string planText;
  llvm::raw_string_ostream os(planText);
  os << gemm.plan;
  Tcgen05PlanAttr p = gemm.plan;
  const int64_t splits = p.getSplitK();
  Host h = randomHost(s, seed);
  std::vector<float> out(s.batch * s.m * s.n, 0.0f);
  const int64_t gx = gemm.grid(0), gy = gemm.grid(1);
  for (int64_t split = 0; split < splits; ++split) {
    gemm.runCta(h, 0, 0, split, out);
    gemm.runCta(h, gx - 1, gy - 1, (s.batch - 1) * splits + split, out);
  }
  EXPECT_EQ(gemm.modelError, "") << planText;
  int64_t bad = 0, checked = 0;
  for (int64_t l : {int64_t(0), s.batch - 1})
    for (int64_t m = 0; m < s.m; ++m)
      for (int64_t n = 0; n < s.n; ++n) {
        bool first = l == 0 && n < 128 && m < p.getTileM();
        bool last = l == s.batch - 1 && n >= (gx - 1) * 128 &&
                    m >= (gy - 1) * p.getTileM();
        if (!first && !last)
          continue;
        ++checked;
        bad += out[(l * s.m + m) * s.n + n] != reference(h, l, m, n);
      }
  EXPECT_GT(checked, 0);
  EXPECT_EQ(bad, 0) << planText;
  return planText;
}

/// The GEMMs the GPU suite runs on an H100 (test/Integration/GPU/
/// gemm-random.test: plain scales, ragged M, N and K, batches), compiled
/// for sm_100a with the planner's plans: their first and last tiles on the
/// model.
TEST(Tcgen05PipelineGpuSuite, RandomShapesFirstAndLastTiles) {
  std::ifstream file(NVFP4_GPU_TESTS_DIR "/gemm-random.test");
  ASSERT_TRUE(file.good()) << "cannot read " NVFP4_GPU_TESTS_DIR
                              "/gemm-random.test";
  std::string line;
  int64_t shapes = 0;
  std::set<std::string> plans;
  while (std::getline(file, line)) {
    std::istringstream words(line);
    std::string hash, run, gen;
    words >> hash >> run >> gen;
    if (gen != "%gengemm")
      continue;
    Shape s{0, 0, 0, 1, /*plain=*/true};
    int64_t l = 0;
    words >> s.m >> s.n >> s.k;
    if (words >> l && l > 0)
      s.batch = l; // Rank-3 operands of a batch of 1 compile the same way.
    SCOPED_TRACE(line);
    plans.insert(checkFirstAndLastTiles(s, static_cast<unsigned>(shapes)));
    ++shapes;
  }
  EXPECT_EQ(shapes, 32);
  // They cover several plans (tile_m, split-K).
  EXPECT_GE(plans.size(), 3u);
}

} // namespace
