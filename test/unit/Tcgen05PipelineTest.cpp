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
// The same for MXFP4 (e8m0 scales per 32 values, .block32 MMAs that read
// an atom's half words by scale id), with its own planted errors (the
// scale ids swapped, each MMA on its own atom, .block16 on ue8m0 scales).
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/InitAll.h"
#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Reference/Layout.h"
#include "nvfp4/Reference/Ops.h"
#include "nvfp4/Target/Tcgen05Model.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <deque>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <sstream>

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::tcgen05;

namespace {

struct Shape {
  int64_t m, n, k, batch;
  /// Both scale operands plain (else blocked).
  bool plain = false;
  /// The gated dual GEMM (two weights) instead of the GEMM.
  bool dual = false;
  /// MXFP4 (e8m0 scales per 32 values) instead of NVFP4.
  bool mx = false;
  /// A grouped GEMM (nvfp4.grouped_matmul) of these groups' rows (m is
  /// Mmax, batch 1; B has one batch per group; A's scales plain) with the
  /// run-time offsets `offsets` (their prefix sums when empty).
  std::vector<int64_t> groups = {};
  std::vector<int32_t> offsets = {};
  /// A grouped_problems of these problems' (M, N, K) (2-D operands, f32
  /// C's), of which `problem` is the one the model runs (m, n and k are
  /// its, batch 1).
  std::vector<std::array<int64_t, 3>> problems = {};
  int64_t problem = 0;
  int64_t block() const { return mx ? 32 : 16; }
  int64_t problemCount() const {
    return static_cast<int64_t>(problems.size());
  }
  bool grouped() const { return !groups.empty(); }
  /// B's batches: the groups, or A's.
  int64_t weightBatch() const {
    return grouped() ? static_cast<int64_t>(groups.size()) : batch;
  }
  std::vector<int32_t> runtimeOffsets() const {
    if (!offsets.empty())
      return offsets;
    std::vector<int32_t> o{0};
    for (int64_t g : groups)
      o.push_back(static_cast<int32_t>(o.back() + g));
    return o;
  }
  std::string scaleType() const { return mx ? "f8E8M0FNU" : "f8E4M3FN"; }
};

/// A grouped GEMM entry: A's scales plain, B's in the shape's layout.
std::string groupedSource(Shape s, const std::string &plan) {
  auto str = [](int64_t v) { return std::to_string(v); };
  const int64_t g = s.weightBatch(), kb = s.k / s.block();
  std::string a = "memref<" + str(s.m) + "x" + str(s.k) + "xf4E2M1FN>";
  std::string sfa = "memref<" + str(s.m) + "x" + str(kb) + "x" +
                    s.scaleType() + ">";
  std::string b =
      "memref<" + str(g) + "x" + str(s.n) + "x" + str(s.k) + "xf4E2M1FN>";
  std::string sfb =
      s.plain ? "memref<" + str(g) + "x" + str(s.n) + "x" + str(kb) + "x" +
                    s.scaleType() + ">"
              : "memref<" + str(g) + "x" + str((s.n + 127) / 128) + "x" +
                    str((kb + 3) / 4) + "x32x4x4x" + s.scaleType() + ">";
  std::string offsets = "memref<" + str(g + 1) + "xi32>";
  std::string c = "memref<" + str(s.m) + "x" + str(s.n) + "xf32>";
  std::string hint;
  for (int64_t m : s.groups)
    hint += (hint.empty() ? "" : ", ") + str(m);
  std::string attrs = "size_hint = array<i64: " + hint +
                      ">, sfb_layout = #nvfp4.scale_layout<" +
                      (s.plain ? "plain" : "blocked") + ">";
  if (!plan.empty())
    attrs += ", nvfp4.plan = " + plan;
  return "func.func @gemm(%a: " + a + ", %sfa: " + sfa + ", %b: " + b +
         ", %sfb: " + sfb + ", %offsets: " + offsets + ", %c: " + c +
         ") {\n  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : " +
         a + ", " + sfa + ", " + b + ", " + sfb + ", " + offsets +
         ") outs(%c : " + c + ") {" + attrs + "}\n  return\n}\n";
}

/// Problem `g` of `problems` as the model runs it.
Shape problemShape(std::vector<std::array<int64_t, 3>> problems, int64_t g,
                   bool plain, bool mx = false) {
  Shape s{problems[g][0], problems[g][1], problems[g][2], 1, plain};
  s.mx = mx;
  s.problems = std::move(problems);
  s.problem = g;
  return s;
}

/// A grouped_problems entry: arguments a0.., sfa0.., b0.., sfb0.., c0..
/// (2-D, C in f32), the scales in the shape's layout.
std::string problemsSource(Shape s, const std::string &plan) {
  auto str = [](int64_t v) { return std::to_string(v); };
  std::vector<std::string> roles[5];
  for (auto [m, n, k] : s.problems) {
    const int64_t kb = k / s.block();
    auto scales = [&](int64_t rows) {
      return s.plain ? "memref<" + str(rows) + "x" + str(kb) + "x" +
                           s.scaleType() + ">"
                     : "memref<" + str((rows + 127) / 128) + "x" +
                           str((kb + 3) / 4) + "x32x4x4x" + s.scaleType() +
                           ">";
    };
    roles[0].push_back("memref<" + str(m) + "x" + str(k) + "xf4E2M1FN>");
    roles[1].push_back(scales(m));
    roles[2].push_back("memref<" + str(n) + "x" + str(k) + "xf4E2M1FN>");
    roles[3].push_back(scales(n));
    roles[4].push_back("memref<" + str(m) + "x" + str(n) + "xf32>");
  }
  const char *names[] = {"a", "sfa", "b", "sfb", "c"};
  std::string args, lists[5];
  for (int r = 0; r < 5; ++r) {
    std::string values, types;
    for (size_t g = 0; g < roles[r].size(); ++g) {
      std::string v = "%" + std::string(names[r]) + str(g);
      args += (args.empty() ? "" : ", ") + v + ": " + roles[r][g];
      values += (g ? ", " : "") + v;
      types += (g ? ", " : "") + roles[r][g];
    }
    lists[r] = values + " : " + types;
  }
  std::string layout = s.plain ? "plain" : "blocked";
  std::string attrs = "sfa_layout = #nvfp4.scale_layout<" + layout +
                      ">, sfb_layout = #nvfp4.scale_layout<" + layout + ">";
  if (!plan.empty())
    attrs += ", nvfp4.plan = " + plan;
  return "func.func @gemm(" + args + ") {\n  nvfp4.grouped_problems a(" +
         lists[0] + ") sfa(" + lists[1] + ") b(" + lists[2] + ") sfb(" +
         lists[3] + ") outs(" + lists[4] + ") {" + attrs +
         "}\n  return\n}\n";
}

/// A GEMM entry with plain or blocked scales, optionally with a plan.
std::string gemmSource(Shape s, const std::string &plan) {
  if (s.grouped())
    return groupedSource(s, plan);
  if (!s.problems.empty())
    return problemsSource(s, plan);
  auto scales = [&](int64_t rows) {
    if (s.plain)
      return "memref<" + std::to_string(s.batch) + "x" + std::to_string(rows) +
             "x" + std::to_string(s.k / s.block()) + "x" + s.scaleType() +
             ">";
    return "memref<" + std::to_string(s.batch) + "x" +
           std::to_string((rows + 127) / 128) + "x" +
           std::to_string((s.k / s.block() + 3) / 4) + "x32x4x4x" +
           s.scaleType() + ">";
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
  // The dual GEMM's entry is named @gemm too (its kernel gemm_kernel).
  if (s.dual)
    return "func.func @gemm(%a: " + values(s.m) + ", %sfa: " + scales(s.m) +
           ", %b1: " + values(s.n) + ", %sfb1: " + scales(s.n) +
           ", %b2: " + values(s.n) + ", %sfb2: " + scales(s.n) + ", %c: " + c +
           ") {\n  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, "
           "%sfb2 : " +
           types + ", " + values(s.n) + ", " + scales(s.n) + ") outs(%c : " +
           c + ") {" + attrs + "}\n  return\n}\n";
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
  /// The dual GEMM's second weight.
  std::vector<uint8_t> b2, sfb2, b2Codes, sfb2Plain;
  /// A grouped GEMM's run-time offsets (G + 1 i32, as bytes), and the
  /// group of each row of A (-1: none).
  std::vector<uint8_t> offsets;
  std::vector<int64_t> rowGroup;
  /// Distinct per randomHost call (the pre-passes' results are cached by
  /// it).
  int64_t generation = 0;
};

/// The groups' rows [begin, end) as nvfp4.grouped_matmul defines them
/// from the run-time offsets.
std::vector<std::pair<int64_t, int64_t>> groupRowsOf(const Shape &s) {
  std::vector<int32_t> offsets = s.runtimeOffsets();
  return ::nvfp4::ref::groupRows(offsets.data(), s.weightBatch(), s.m);
}

Host randomHost(Shape s, unsigned seed) {
  std::mt19937 rng(seed);
  static int64_t generations = 0;
  Host h{s, {}, {}, {}, {}, {}, {}, {}, {},
         {}, {}, {}, {}, {}, {}, generations++};
  // A grouped GEMM's A scales are plain whatever B's are.
  auto fill = [&](int64_t batch, int64_t rows, std::vector<uint8_t> &codes,
                  std::vector<uint8_t> &packed, std::vector<uint8_t> &plain,
                  std::vector<uint8_t> &passed, bool plainScales) {
    codes.resize(batch * rows * s.k);
    for (uint8_t &v : codes)
      v = rng() % 16;
    packed.resize(codes.size() / 2);
    for (size_t i = 0; i < packed.size(); ++i)
      packed[i] = uint8_t(codes[2 * i] | (codes[2 * i + 1] << 4));
    // Scales 0.5, 1, 2 keep every partial sum exact in f32.
    const uint8_t e4m3[] = {::nvfp4::ref::encodeE4M3(0.5f),
                            ::nvfp4::ref::encodeE4M3(1.0f),
                            ::nvfp4::ref::encodeE4M3(2.0f)};
    const uint8_t e8m0[] = {126, 127, 128};
    const int64_t kb = s.k / s.block();
    plain.resize(batch * rows * kb);
    for (uint8_t &c : plain)
      c = (s.mx ? e8m0 : e4m3)[rng() % 3];
    if (plainScales) {
      passed = plain;
      return;
    }
    const int64_t perBatch = ::nvfp4::ref::blockedScaleBytes(rows, kb);
    // Padding bytes as a careless producer leaves them: NaN scales (e4m3
    // 0x7f, e8m0 0xff), which the kernel must never multiply into a stored
    // result.
    passed.assign(batch * perBatch, s.mx ? 0xff : 0x7f);
    for (int64_t l = 0; l < batch; ++l)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < kb; ++c)
          passed[l * perBatch + ::nvfp4::ref::blockedScaleOffset(r, c, kb)] =
              plain[(l * rows + r) * kb + c];
  };
  fill(s.batch, s.m, h.aCodes, h.a, h.sfaPlain, h.sfa,
       s.plain || s.grouped());
  fill(s.weightBatch(), s.n, h.bCodes, h.b, h.sfbPlain, h.sfb, s.plain);
  if (s.dual)
    fill(s.batch, s.n, h.b2Codes, h.b2, h.sfb2Plain, h.sfb2, s.plain);
  for (int32_t o : s.runtimeOffsets())
    for (int byte = 0; byte < 4; ++byte)
      h.offsets.push_back(
          static_cast<uint8_t>(static_cast<uint32_t>(o) >> (8 * byte)));
  if (s.grouped()) {
    h.rowGroup.assign(s.m, -1);
    std::vector<std::pair<int64_t, int64_t>> rows = groupRowsOf(s);
    for (size_t g = 0; g < rows.size(); ++g)
      for (int64_t m = rows[g].first; m < rows[g].second; ++m)
        h.rowGroup[m] = static_cast<int64_t>(g);
  }
  return h;
}

/// nvfp4.group_tile on the host: the group and rows [begin, end) of tile
/// `t` of tiles of `tileM` rows, numbered in group order; {0, 0, 0} past
/// the last.
std::array<int64_t, 3> groupTileOf(const Shape &s, int64_t t, int64_t tileM) {
  std::vector<std::pair<int64_t, int64_t>> rows = groupRowsOf(s);
  for (size_t g = 0; g < rows.size(); ++g) {
    auto [begin, end] = rows[g];
    const int64_t tiles = (end - begin + tileM - 1) / tileM;
    if (t < tiles)
      return {static_cast<int64_t>(g), begin + t * tileM,
              std::min(end, begin + (t + 1) * tileM)};
    t -= tiles;
  }
  return {0, 0, 0};
}

/// The product with weight `w` (0: B, the GEMM's; 1: the dual's B2); a
/// grouped GEMM's row m with its group's weights.
float reference(const Host &h, int64_t l, int64_t m, int64_t n,
                int64_t w = 0) {
  const Shape &s = h.shape;
  const int64_t lb = s.grouped() ? h.rowGroup[m] : l;
  const std::vector<uint8_t> &codes = w ? h.b2Codes : h.bCodes;
  const std::vector<uint8_t> &scales = w ? h.sfb2Plain : h.sfbPlain;
  auto scale = [&](uint8_t code) {
    return s.mx ? ::nvfp4::ref::decodeE8M0(code)
                : ::nvfp4::ref::decodeE4M3(code);
  };
  const int64_t kb = s.k / s.block();
  double sum = 0;
  for (int64_t k = 0; k < s.k; ++k) {
    double a = ::nvfp4::ref::decodeE2M1(h.aCodes[(l * s.m + m) * s.k + k]) *
               scale(h.sfaPlain[(l * s.m + m) * kb + k / s.block()]);
    double b = ::nvfp4::ref::decodeE2M1(codes[(lb * s.n + n) * s.k + k]) *
               scale(scales[(lb * s.n + n) * kb + k / s.block()]);
    sum += a * b;
  }
  return static_cast<float>(sum);
}

/// Evaluates the kernel's integer SSA values for one CTA and loop trip.
class Evaluator {
public:
  std::function<int64_t(gpu::Dimension)> blockId;
  /// threadIdx.x; the model runs the issuing lane of a warp, for which
  /// nvvm.elect.sync is true.
  int64_t threadId = 0;
  DenseMap<Value, int64_t> bound;
  /// A grouped GEMM's nvfp4.group_tile (tile, tile_m -> group, begin,
  /// end).
  std::function<std::array<int64_t, 3>(int64_t, int64_t)> groupTile;

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
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      return id.getDimension() == gpu::Dimension::x ? threadId : 0;
    if (isa<NVVM::ElectSyncOp>(op))
      return 1;
    auto x = [&](unsigned i) { return (*this)(op->getOperand(i)); };
    if (auto tile = dyn_cast<GroupTileOp>(op)) {
      if (!groupTile) {
        ADD_FAILURE() << "a group_tile outside a grouped GEMM";
        return 0;
      }
      return groupTile(x(1), tile.getTileM())[cast<OpResult>(v)
                                                  .getResultNumber()];
    }
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
      case arith::CmpIPredicate::ne:
        return x(0) != x(1);
      case arith::CmpIPredicate::ugt:
        return x(0) > x(1);
      case arith::CmpIPredicate::ult:
        return x(0) < x(1);
      case arith::CmpIPredicate::uge:
        return x(0) >= x(1);
      default:
        break;
      }
    }
    ADD_FAILURE() << "cannot evaluate " << op->getName().getStringRef().str();
    return 0;
  }
};

/// A planted error: rewrites the compiled ops before they run.
enum class Plant {
  None,
  // Layout errors in the compiled ops.
  Swizzle,
  StrideOffset,
  SfbRows,
  OddTileColumn,
  // The dual GEMM: the second weight's MMAs into the first accumulator,
  // and the two weights' scale columns swapped.
  DualAccumulatorColumn,
  DualSwappedScales,
  // Synchronization errors: a wrong parity in the producer's acquire or
  // the MMA thread's wait, no release of a slot, an expect that announces
  // 16 bytes too few.
  AcquireParity,
  WaitParity,
  NoRelease,
  ExpectBytes,
  // MXFP4: an atom's two MMAs with their scale ids swapped (each reads the
  // other's half words), each MMA reading the scale columns of an atom of
  // its own as NVFP4's do, a .block16 MMA on the ue8m0 scales.
  MxScaleIds,
  MxAtomPerMma,
  MxBlock16,
  // The grouped GEMM: A's tile read from the grid's rows (m_base) instead
  // of its group's, B's scales always the first group's, C's tile stored
  // at m_base instead of its group's rows, or not masked at the group's
  // end.
  GroupARows,
  GroupWeightScales,
  GroupStoreRows,
  GroupStoreEnd,
  // grouped_problems (planted in the compiled IR, but for ProblemRows):
  // the CTA's tile at its grid row (block y x tile_m) instead of its row
  // in its problem, the launch's maps of A of two problems swapped, the
  // dispatch's compare against problem 1's first tile moved one tile on.
  ProblemRows,
  ProblemOperands,
  ProblemDispatch,
  // CTA pairs (cta_group = 2): each CTA copying the other's half of the
  // tile of A, the first CTA's MMAs not waiting for the second's bytes,
  // its releases arriving on its own empty barriers only, and the wrong
  // CTA pair (the pair rank from block x / 2: CTAs x and x + 2 would be
  // a pair, planted in the compiled IR).
  PairAHalves,
  PairNoPeerWait,
  PairReleaseFirstOnly,
  PairWrongRank,
  // CTA pairs, in the model: a producer without its tail (it may leave
  // before the last releases arrive), a store not guarded for the second
  // CTA past N.
  PairNoTail,
  PairUnguardedStore
};

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
    // A grouped_problems' kernel: the ops of the model's problem are its
    // case of the switch on the CTA's problem (no switch for one problem).
    Operation *scope = kernel;
    if (shape.problemCount() > 1) {
      for (Operation &op : kernel.getBody().front())
        if (auto select = dyn_cast<scf::IndexSwitchOp>(op))
          problemSwitch = select;
      if (!problemSwitch ||
          problemSwitch.getNumCases() !=
              static_cast<unsigned>(shape.problemCount())) {
        ADD_FAILURE() << "a grouped_problems kernel without a switch of one "
                         "case per problem";
        return;
      }
      scope = problemSwitch;
      caseRegion = &problemSwitch.getCaseRegions()[shape.problem];
    }
    auto inScope = [&](Operation *op) {
      return !caseRegion || caseRegion->isAncestor(op->getParentRegion());
    };
    scope->walk([&](scf::ForOp loop) {
      if (!inScope(loop))
        return;
      auto holds = [&](auto tag) {
        return loop
            ->walk([](decltype(tag) op) { return WalkResult::interrupt(); })
            .wasInterrupted();
      };
      if (holds(RingCopyOp()))
        producer = loop;
      if (holds(Tcgen05MmaOp()))
        issuer = loop;
      if (holds(RingForwardOp()))
        forwarder = loop;
    });
    // A pair's producer's tail: the loop after its K loop.
    if (producer)
      for (Operation *op = producer->getNextNode(); op && !producerTail;
           op = op->getNextNode())
        producerTail = dyn_cast<scf::ForOp>(op);
    scope->walk([&](RingAllocOp a) {
      if (inScope(a))
        ring = a.getType();
    });
    scope->walk([&](Tcgen05StoreOp s) {
      if (inScope(s))
        store = s;
    });
    // The case's guard on block x (a CTA past its problem's N; none where
    // the problem is the widest).
    if (caseRegion)
      for (Operation &op : caseRegion->front())
        if (auto guard = dyn_cast<scf::IfOp>(op))
          if (auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>())
            if (auto id = cmp.getLhs().getDefiningOp<gpu::BlockIdOp>();
                id && id.getDimension() == gpu::Dimension::x)
              xGuard = guard;
    plan = dyn_cast<KernelPlanAttr>(launch->getAttr("nvfp4.plan"));
    // An on-chip split-K's splits add their tiles on chip: the model adds
    // every CTA's tile (exact here, in any order), which is what the
    // exchange gives the first CTA, provided only that CTA stores: the
    // store must sit under the exchange's `first`.
    if (plan && plan.getSplitCluster()) {
      Tcgen05ReduceSplitsOp reduce;
      kernel.walk([&](Tcgen05ReduceSplitsOp r) { reduce = r; });
      auto guard = store ? store->getParentOfType<scf::IfOp>() : nullptr;
      if (!reduce || !guard || guard.getCondition() != reduce.getFirst()) {
        ADD_FAILURE() << "an on-chip split-K plan whose store is not guarded "
                         "by its reduce_splits' `first`";
        return;
      }
    }
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
    unsigned arg = cast<BlockArgument>(operand).getArgNumber();
    // A grouped GEMM's entry: a, sfa, b, sfb, offsets, c.
    if (shape.grouped() && arg == 4)
      return h.offsets;
    // A grouped_problems' entry: each role's arguments in problem order;
    // the model holds its problem's operands only.
    if (!shape.problems.empty()) {
      const int64_t g = shape.problemCount();
      const int64_t which = arg % g;
      if (which != shape.problem)
        note("problem " + std::to_string(shape.problem) +
             "'s CTA reads an operand of problem " + std::to_string(which));
      arg = static_cast<unsigned>(arg / g);
    }
    const std::vector<uint8_t> *buffers[] = {&h.a,  &h.sfa, &h.b,
                                             &h.sfb, &h.b2, &h.sfb2};
    return *buffers[arg];
  }

  /// Which host buffer a kernel argument of the GEMM is: its launch
  /// operand, through a nvfp4.tensor_map when it is a map.
  const std::vector<uint8_t> &hostBuffer(const Host &h, Value kernelArg) {
    Value operand =
        launch
            .getKernelOperands()[cast<BlockArgument>(kernelArg).getArgNumber()];
    if (auto map = operand.getDefiningOp<TensorMapOp>())
      operand = map.getSource();
    return entryBuffer(h, operand);
  }

  /// Runs the launches before the GEMM's (the scales' pre-passes) by the
  /// semantics of their nvfp4.block_scales_tile (ref::toBlockedPadded per
  /// batch, the shapes taken from the compiled operands).
  void runPrePasses(const Host &h) {
    workspaces.clear();
    for (gpu::LaunchFuncOp pre : prePasses) {
      // A grouped_problems' pre-passes of the other problems.
      if (auto arg = dyn_cast<BlockArgument>(pre.getKernelOperands()[0]);
          arg && !shape.problems.empty() &&
          static_cast<int64_t>(arg.getArgNumber()) % shape.problemCount() !=
              shape.problem)
        continue;
      auto fn = module->lookupSymbol<gpu::GPUFuncOp>(pre.getKernel());
      BlockScalesTileOp op;
      fn.walk([&](BlockScalesTileOp b) { op = b; });
      GatherScalesTileOp gather;
      fn.walk([&](GatherScalesTileOp g) { gather = g; });
      if (gather) {
        runGather(h, pre, gather);
        continue;
      }
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
      const int64_t rows =
          plain ? src[src.size() - 2] : dst[dst.size() - 5] * 128;
      const int64_t kb = plain ? src.back() : src[src.size() - 4] * 4;
      const int64_t kbOut = dst[dst.size() - 4] * 4;
      const std::vector<uint8_t> &in =
          entryBuffer(h, pre.getKernelOperands()[0]);
      // A blocked source's padding rows are copied as they are.
      const int64_t inBatch =
          plain ? rows * kb : ::nvfp4::ref::blockedScaleBytes(rows, kb);
      const int64_t outBatch = ::nvfp4::ref::blockedScaleBytes(rows, kbOut);
      std::vector<uint8_t> out(batch * outBatch);
      for (int64_t l = 0; l < batch; ++l)
        ::nvfp4::ref::toBlockedPadded(&in[l * inBatch],
                                      plain
                                          ? ::nvfp4::ref::ScaleLayout::Plain
                                          : ::nvfp4::ref::ScaleLayout::Blocked,
                                      rows, kb, kbOut, &out[l * outBatch]);
      workspaces[pre.getKernelOperands()[1].getDefiningOp()] = std::move(out);
    }
  }

  /// A grouped GEMM's gather of A's scales, by the semantics of its
  /// nvfp4.gather_scales_tile: each tile y of the launch writes rows
  /// [y tile_m, (y + 1) tile_m) of the blocked workspace from the plain
  /// rows [begin, end) of its group tile (zero past them and past the
  /// source's K); the rows of empty tiles are left as NaN scales.
  void runGather(const Host &h, gpu::LaunchFuncOp pre,
                 GatherScalesTileOp gather) {
    ArrayRef<int64_t> dst = gather.getDst().getType().getShape();
    const int64_t kb = gather.getSrc().getType().getDimSize(1);
    const int64_t kbOut = dst[1] * 4;
    const int64_t tileM = static_cast<int64_t>(gather.getTileM());
    const std::vector<uint8_t> &in =
        entryBuffer(h, pre.getKernelOperands()[0]);
    std::vector<uint8_t> out(
        ::nvfp4::ref::blockedScaleBytes(dst[0] * 128, kbOut),
        shape.mx ? 0xff : 0x7f);
    const int64_t tiles = cast<IntegerAttr>(pre.getGridSizeY()
                                                .getDefiningOp<arith::ConstantOp>()
                                                .getValue())
                              .getInt();
    EXPECT_LE(tiles * tileM, dst[0] * 128);
    for (int64_t t = 0; t < tiles; ++t) {
      auto [g, begin, end] = groupTileOf(shape, t, tileM);
      if (begin == end)
        continue;
      for (int64_t j = 0; j < tileM; ++j)
        for (int64_t c = 0; c < kbOut; ++c)
          out[::nvfp4::ref::blockedScaleOffset(t * tileM + j, c, kbOut)] =
              begin + j < end && c < kb ? in[(begin + j) * kb + c] : 0;
    }
    workspaces[pre.getKernelOperands()[1].getDefiningOp()] = std::move(out);
  }

  /// Runs CTA (x, y, z) through the model, or with a plan of CTA pairs
  /// (cta_group = 2; x even) the pair x, x + 1; adds its tile(s) to `out`
  /// ([L][M][N] floats; split-K CTAs add their partials as the sum kernel
  /// does). Each CTA's producer thread and its warp 1 (the MMA thread, or
  /// in a pair's second CTA the forwarder that tells the first its slots
  /// landed; which one the IR's conditions say for the CTA) run their
  /// loops from the IR op by op, interleaved by a random scheduler (seeded
  /// by `schedule` and the CTA) against a model of what they synchronize
  /// through: each CTA's ring of full and empty mbarriers and a pair's
  /// first CTA's peer_full ones (phases, arrival counts, transaction
  /// bytes, try_wait.parity), copies that land in any order, and the
  /// tensor pipe (scale copies, MMAs and commits in issue order, each at a
  /// later time; a pair's into both CTAs, its commits arriving on both
  /// CTAs' barriers). Reported in modelError: a deadlock, a copy of K
  /// slice i issued before slice i - stages's MMAs all ran, a scale copy or
  /// MMA of slice i issued before all of slice i's bytes landed (in every
  /// CTA of the pair), more bytes than an expect announced, a pair whose
  /// CTAs do not split the MMA thread's and the forwarder's roles.
  void runCta(const Host &h, int64_t x, int64_t y, int64_t z,
              std::vector<float> &out, Plant plant = Plant::None,
              int64_t schedule = 0) {
    if (preparedFor != h.generation) {
      runPrePasses(h);
      preparedFor = h.generation;
    }
    const int group = static_cast<int>(plan.getCtaGroup());
    auto evaluatorOf = [&](int64_t cx) {
      Evaluator e;
      e.blockId = [=](gpu::Dimension d) {
        return d == gpu::Dimension::x ? cx : d == gpu::Dimension::y ? y : z;
      };
      return e;
    };
    Evaluator eval = evaluatorOf(x);
    // A grouped_problems' CTA past its problem's N does nothing; its store
    // must be its problem's C (argument 4 G + g of the entry).
    if (xGuard && !eval(xGuard.getCondition()))
      return;
    if (!shape.problems.empty()) {
      auto arg = cast<BlockArgument>(
          launch.getKernelOperands()[cast<BlockArgument>(store.getC())
                                         .getArgNumber()]);
      if (static_cast<int64_t>(arg.getArgNumber()) !=
          4 * shape.problemCount() + shape.problem)
        note("problem " + std::to_string(shape.problem) +
             "'s CTA stores into entry argument " +
             std::to_string(arg.getArgNumber()));
    }
    auto groupTileFn = [&](int64_t t, int64_t tileM) {
      return groupTileOf(shape, t, tileM);
    };
    // A grouped GEMM's CTA of an empty tile has nothing to do (both CTAs
    // of a pair share the tile).
    if (shape.grouped()) {
      eval.groupTile = groupTileFn;
      GroupTileOp tileOp;
      kernel.walk([&](GroupTileOp t) { tileOp = t; });
      if (!tileOp) {
        ADD_FAILURE() << "a grouped GEMM kernel without nvfp4.group_tile";
        return;
      }
      if (eval(tileOp.getRowBegin()) >= eval(tileOp.getRowEnd()))
        return;
    }
    constexpr uint32_t kRingBase = 1024;
    auto slotAddress = [&](int64_t slot) {
      return kRingBase + static_cast<uint32_t>(slot * ring.getSlotBytes());
    };
    const int64_t stages = ring.getStages();

    // The ring's mbarriers: `completed` phases; a phase completes when its
    // arrivals (the producer's expect, the MMA thread's commits, the
    // forwarder's arrival) came and its transaction bytes are all in.
    // try_wait.parity(q) passes once the phase of parity q is the last
    // completed one.
    struct Barrier {
      int64_t count, completed = 0, arrivals = count, tx = 0;
    };
    auto settle = [](Barrier &bar) {
      if (bar.arrivals == 0 && bar.tx == 0) {
        ++bar.completed;
        bar.arrivals = bar.count;
      }
    };
    auto passes = [](const Barrier &bar, int64_t parity) {
      return (bar.completed & 1) != parity;
    };
    // Each CTA: its block x, evaluator, memories and barriers (the counts
    // ring.alloc's lowering initializes: one arrival (the expect) on a
    // full barrier, consumers (the commits) on an empty one, one (the
    // forwarder's) on a peer_full one; the accumulator's barrier takes the
    // one final commit), and the bytes landed per K slice.
    struct Cta {
      int64_t x;
      Evaluator eval;
      SharedMemory smem;
      TensorMemory tmem;
      std::vector<Barrier> full, empty, peerFull;
      Barrier accumulator{1};
      std::vector<int64_t> landed;
    };
    std::vector<Cta> ctas;
    for (int c = 0; c < group; ++c) {
      Cta cta{x + c,
              evaluatorOf(x + c),
              SharedMemory(kRingBase + stages * ring.getSlotBytes(), 0),
              TensorMemory(),
              std::vector<Barrier>(stages, Barrier{1}),
              std::vector<Barrier>(stages, Barrier{ring.getConsumers()}),
              std::vector<Barrier>(stages, Barrier{1}),
              Barrier{1},
              {}};
      if (shape.grouped())
        cta.eval.groupTile = groupTileFn;
      ctas.push_back(std::move(cta));
    }
    const int64_t trips = eval(producer.getUpperBound());
    ASSERT_EQ(trips, eval(issuer.getUpperBound()));
    for (Cta &cta : ctas)
      cta.landed.assign(trips, 0);

    // Asynchronous work: copies in flight (they land and complete their
    // bytes in any order), and the tensor pipe (tcgen05.cp, tcgen05.mma
    // and commits run in issue order, each at some later time).
    struct Async {
      int64_t slot;
      int64_t bytes; // copies: their transaction bytes
      enum Kind { Copy, Tensor, Release, Commit } kind;
      std::function<void()> run;
      int64_t trip = -1; // the K slice it belongs to
      int cta = 0;       // copies: the CTA whose slot they fill
    };
    // Per K slice: the tensor ops run; `tensorOps` per slice, from the
    // MMA thread's loop.
    std::vector<int64_t> executed(trips, 0);
    int64_t tensorOps = 0;
    issuer.getBody()->walk([&](Operation *op) {
      tensorOps += isa<Tcgen05CopyScalesOp, Tcgen05MmaOp>(op);
    });
    std::vector<Async> copies;
    std::deque<Async> pipe;

    // The threads, as their loops in the IR: each trip's ring and tcgen05
    // ops in order (scf.if conditions evaluated for the CTA and trip).
    // A pair's producer runs its tail after its loop: the last slots
    // acquired once more, so that its CTA leaves only once every release
    // arrived.
    struct Thread {
      scf::ForOp loop;
      int cta;
      scf::ForOp tail = {};
      int64_t trip = -1;
      std::vector<Operation *> ops;
      size_t next = 0;
      bool done = false;
    };
    std::vector<Thread> threads;
    int issuerThread = -1;
    for (int c = 0; c < group; ++c) {
      threads.push_back(
          {producer, c,
           plant == Plant::PairNoTail ? scf::ForOp() : producerTail});
      const bool issues = runsInWarp1(issuer, ctas[c].eval);
      const bool forwards = forwarder && runsInWarp1(forwarder, ctas[c].eval);
      if (issues && issuerThread >= 0)
        note("both CTAs of a pair issue the MMAs");
      if (issues && issuerThread < 0) {
        issuerThread = static_cast<int>(threads.size());
        threads.push_back({issuer, c});
      } else if (forwards) {
        threads.push_back({forwarder, c});
      }
    }
    if (issuerThread < 0) {
      note("no CTA of the pair issues the MMAs");
      return;
    }
    if (threads[issuerThread].cta != 0)
      note("the pair's MMAs are issued by its second CTA");
    if (static_cast<int>(threads.size()) != 2 * group)
      note("a CTA of the pair neither issues nor forwards");
    Thread &mmaThread = threads[issuerThread];
    Cta &first = ctas[0];
    std::function<void(Evaluator &, Block *, std::vector<Operation *> &)>
        flatten = [&](Evaluator &e, Block *block,
                      std::vector<Operation *> &ops) {
          for (Operation &op : block->without_terminator()) {
            if (auto branch = dyn_cast<scf::IfOp>(op)) {
              if (e(branch.getCondition()))
                flatten(e, branch.thenBlock(), ops);
              else if (branch.elseBlock())
                flatten(e, branch.elseBlock(), ops);
            } else if (isa<RingAcquireOp, RingExpectOp, RingCopyOp,
                           RingCopyBytesOp, RingWaitOp, RingForwardOp,
                           Tcgen05CopyScalesOp, Tcgen05MmaOp, Tcgen05ReleaseOp>(
                           op)) {
              ops.push_back(&op);
            }
          }
        };
    // Moves a thread to its next op (and trip); false when it is done.
    auto ready = [&](Thread &t) {
      while (!t.done && t.next == t.ops.size()) {
        Evaluator &e = ctas[t.cta].eval;
        if (++t.trip == e(t.loop.getUpperBound())) {
          // The tail's trips continue the loop's (its lower bound).
          if (!t.tail) {
            t.done = true;
            break;
          }
          t.loop = t.tail;
          t.tail = {};
          t.trip = e(t.loop.getLowerBound());
          if (t.trip >= e(t.loop.getUpperBound())) {
            t.done = true;
            break;
          }
        }
        e.bound[t.loop.getInductionVar()] = t.trip;
        t.ops.clear();
        t.next = 0;
        flatten(e, t.loop.getBody(), t.ops);
      }
      return !t.done;
    };
    // The accumulator's commit after the MMA thread's loop.
    Tcgen05CommitOp commitOp;
    for (Operation *op = issuer->getNextNode(); op; op = op->getNextNode())
      op->walk([&](Tcgen05CommitOp c) { commitOp = c; });
    ASSERT_TRUE(commitOp) << "no tcgen05.commit after the MMA loop";
    bool committed = false;

    // Whether a thread's next op can run now.
    auto runnable = [&](Thread &t, Operation *op) {
      Cta &cta = ctas[t.cta];
      if (auto acquire = dyn_cast<RingAcquireOp>(op)) {
        int64_t parity = cta.eval(acquire.getPhase());
        if (plant == Plant::AcquireParity)
          parity ^= 1;
        return passes(cta.empty[cta.eval(acquire.getSlot())], parity);
      }
      if (auto wait = dyn_cast<RingWaitOp>(op)) {
        int64_t parity = cta.eval(wait.getPhase());
        if (plant == Plant::WaitParity)
          parity ^= 1;
        const int64_t slot = cta.eval(wait.getSlot());
        // A pair's first CTA waits for its peer's bytes of the slot too.
        const bool peer = wait.getPeer() && plant != Plant::PairNoPeerWait;
        return passes(cta.full[slot], parity) &&
               (!peer || passes(cta.peerFull[slot], parity));
      }
      return true;
    };
    // Runs a thread's op: synchronous effects now, asynchronous work with
    // every operand evaluated now (the loop moves on before it runs).
    auto issue = [&](Thread &t, Operation &op) {
      Cta &cta = ctas[t.cta];
      Evaluator &e = cta.eval;
      // What must have happened before: a copy of K slice i may start once
      // slice i - stages's scale copies and MMAs (which read the slot) all
      // ran; a scale copy or MMA of slice i once all of slice i's bytes
      // landed, in every CTA of a pair. (Whether they run late does not
      // matter: the hardware may run them at once.)
      if (isa<RingCopyOp, RingCopyBytesOp>(op) && t.trip >= stages &&
          executed[t.trip - stages] != tensorOps)
        note("a copy of K slice " + std::to_string(t.trip) +
             " was issued before slice " + std::to_string(t.trip - stages) +
             "'s MMAs had all read the slot");
      if (isa<Tcgen05CopyScalesOp, Tcgen05MmaOp>(op))
        for (Cta &c : ctas)
          if (c.landed[t.trip] != ring.getSlotBytes())
            note("an MMA of K slice " + std::to_string(t.trip) +
                 " was issued with " + std::to_string(c.landed[t.trip]) +
                 " of CTA x = " + std::to_string(c.x) + "'s slot's " +
                 std::to_string(ring.getSlotBytes()) + " bytes landed");
      if (auto expect = dyn_cast<RingExpectOp>(op)) {
        Barrier &bar = cta.full[e(expect.getSlot())];
        bar.tx += ring.getSlotBytes() - (plant == Plant::ExpectBytes ? 16 : 0);
        if (--bar.arrivals < 0)
          note("a slot's expect arrived twice in one phase");
        settle(bar);
      } else if (auto forward = dyn_cast<RingForwardOp>(op)) {
        // One arrival on the pair's first CTA's peer_full barrier.
        if (t.cta == 0)
          note("the pair's first CTA forwards its own slot");
        Barrier &bar = first.peerFull[e(forward.getSlot())];
        if (--bar.arrivals < 0)
          note("a slot's peer arrival came twice in one phase");
        settle(bar);
      } else if (auto copy = dyn_cast<RingCopyOp>(op)) {
        TensorMapType map = copy.getMap().getType();
        EXPECT_EQ(map.getSwizzle(), TensorMapSwizzle::B128);
        EXPECT_EQ(map.getBox().back(), 128);
        const std::vector<uint8_t> *src = &hostBuffer(h, copy.getMap());
        int64_t l = e(copy.getCoordinates()[0]);
        int64_t row0 = e(copy.getCoordinates()[1]);
        // A grouped tile's A read from its tile of the grid's rows, not
        // its group's.
        if (plant == Plant::GroupARows && src == &h.a)
          row0 = y * plan.getTileM();
        // A pair's CTAs each copying the other's half of the tile of A.
        if (plant == Plant::PairAHalves && src == &h.a)
          row0 += (t.cta == 0 ? 1 : -1) * map.getBox()[1];
        int64_t col0 = e(copy.getCoordinates()[2]);
        int64_t slot = e(copy.getSlot());
        uint32_t base =
            slotAddress(slot) + static_cast<uint32_t>(copy.getOffset());
        SharedMemory &smem = cta.smem;
        copies.push_back(
            {slot, map.getBoxBytes(), Async::Copy,
             [&smem, src, map, l, row0, col0, base] {
               ArrayRef<int64_t> dims = map.getShape();
               for (int64_t r = 0; r < map.getBox()[1]; ++r)
                 for (int64_t byte = 0; byte < 128; ++byte) {
                   int64_t row = row0 + r, col = col0 + byte;
                   uint8_t v = row >= 0 && row < dims[1] && col < dims[2]
                                   ? (*src)[(l * dims[1] + row) * dims[2] + col]
                                   : 0;
                   smem.at(tma128BAddress(base, r, byte)) = v;
                 }
             },
             t.trip, t.cta});
      } else if (auto bytes = dyn_cast<RingCopyBytesOp>(op)) {
        const std::vector<uint8_t> *src = &hostBuffer(h, bytes.getSource());
        int64_t from = e(bytes.getSourceOffset());
        // A grouped tile's B scales from the first group's.
        if (plant == Plant::GroupWeightScales &&
            static_cast<int64_t>(bytes.getOffset()) ==
                plan.getTcgen05().getSfbOffset(0))
          from %= static_cast<int64_t>(src->size()) / shape.weightBatch();
        int64_t count = static_cast<int64_t>(bytes.getBytes());
        EXPECT_LE(from + count, static_cast<int64_t>(src->size()));
        int64_t slot = e(bytes.getSlot());
        uint32_t to =
            slotAddress(slot) + static_cast<uint32_t>(bytes.getOffset());
        SharedMemory &smem = cta.smem;
        copies.push_back(
            {slot, count, Async::Copy,
             [&smem, src, from, count, to] {
               if (from + count <= static_cast<int64_t>(src->size()))
                 std::copy_n(src->begin() + from, count, smem.begin() + to);
             },
             t.trip, t.cta});
      } else if (auto cp = dyn_cast<Tcgen05CopyScalesOp>(op)) {
        int64_t slot = e(cp.getSlot());
        SmemDescriptor source = scaleAtomDescriptor(
            slotAddress(slot) + static_cast<uint32_t>(cp.getOffset()));
        uint32_t column =
            static_cast<uint32_t>(cp.getColumn() + slot * cp.getColumnStep());
        // A pair's copy: each CTA's atom into its own TMEM.
        pipe.push_back({slot, 0, Async::Tensor,
                        [&, source, column] {
                          for (Cta &c : ctas)
                            note(copy32x128bWarpx4(c.smem, source.encode(),
                                                   tmemAddress(0, column),
                                                   c.tmem));
                        },
                        t.trip});
      } else if (auto mma = dyn_cast<Tcgen05MmaOp>(op)) {
        int64_t slot = e(mma.getSlot());
        uint64_t start = slotAddress(slot) >> 4;
        SmemDescriptor a = *SmemDescriptor::decode(mma.getADesc());
        SmemDescriptor b = *SmemDescriptor::decode(mma.getBDesc());
        int64_t shift = e(mma.getSfbShift());
        int64_t sfb = mma.getSfbColumn();
        int64_t sfa = mma.getSfaColumn();
        int64_t d = mma.getDColumn();
        // The dual's second weight: its accumulator from column tile_m,
        // its scales 4 x steps columns after the first weight's.
        const bool second = d != 0;
        const int64_t weightScales =
            4 * plan.getTcgen05().getScaleAtomsPerSlot();
        if (plant == Plant::DualAccumulatorColumn && second)
          d = 0;
        if (plant == Plant::DualSwappedScales && shape.dual)
          sfa += second ? -weightScales : weightScales;
        if (plant == Plant::Swizzle)
          a.swizzle = Swizzle::Swizzle64B;
        if (plant == Plant::StrideOffset)
          b.strideByteOffset = 512;
        if (plant == Plant::SfbRows)
          sfb += 1;
        if (plant == Plant::OddTileColumn)
          shift = 0;
        Mxf4InstrDescriptor instr = *Mxf4InstrDescriptor::decode(
            static_cast<uint32_t>(mma.getIdesc()));
        // As the lowering picks it.
        const bool block32 = instr.isBlock32();
        if (plant == Plant::MxScaleIds && block32)
          instr.scaleIdA = instr.scaleIdB = 2 - instr.scaleIdA;
        if (plant == Plant::MxAtomPerMma && instr.scaleIdA == 2) {
          // The next atom's columns: A's 4 per 128-row block, B's 4.
          sfa += 4 * plan.getTcgen05().getScaleBlocksA();
          sfb += 4;
        }
        Mxf4Mma run;
        run.aDescriptor = a.encode() + start;
        run.bDescriptor = b.encode() + start;
        run.instrDescriptor = instr.encode();
        run.block32 = block32 && plant != Plant::MxBlock16;
        run.d = tmemAddress(0, static_cast<uint32_t>(d));
        run.scaleA = tmemAddress(
            0, static_cast<uint32_t>(sfa + slot * mma.getColumnStep()));
        run.scaleB = tmemAddress(
            0, static_cast<uint32_t>(sfb + slot * mma.getColumnStep() + shift));
        run.accumulate = e(mma.getAccumulate()) != 0;
        pipe.push_back({slot, 0, Async::Tensor,
                        [&, run] {
                          SmallVector<const SharedMemory *> smems;
                          SmallVector<TensorMemory *> tmems;
                          for (Cta &c : ctas) {
                            smems.push_back(&c.smem);
                            tmems.push_back(&c.tmem);
                          }
                          note(mmaMxf4Nvf4(smems, run, tmems));
                        },
                        t.trip});
      } else if (auto release = dyn_cast<Tcgen05ReleaseOp>(op)) {
        if (plant != Plant::NoRelease)
          pipe.push_back({e(release.getSlot()), 0, Async::Release, {}});
      }
    };

    std::mt19937 rng(
        static_cast<unsigned>(schedule * 1000003 + x * 7919 + y * 104729 + z));
    enum Action { Run, Commit, Land, Pipe };
    for (;;) {
      SmallVector<std::pair<Action, size_t>> choices;
      for (size_t t = 0; t < threads.size(); ++t)
        if (ready(threads[t]) &&
            runnable(threads[t], threads[t].ops[threads[t].next]))
          choices.push_back({Run, t});
      if (mmaThread.done && !committed)
        choices.push_back({Commit, 0});
      for (size_t c = 0; c < copies.size(); ++c)
        choices.push_back({Land, c});
      if (!pipe.empty())
        choices.push_back({Pipe, 0});
      if (choices.empty())
        break;
      // Schedule 1 runs the tensor pipe only when nothing else can move,
      // schedule 2 lands copies only then (the orders that expose a slot
      // reused too early and a slot read too early); others are uniform.
      const Action lazy = schedule % 3 == 1 ? Pipe : Land;
      if (schedule % 3 != 0 &&
          llvm::any_of(choices, [&](auto c) { return c.first != lazy; }))
        llvm::erase_if(choices, [&](auto c) { return c.first == lazy; });
      auto [action, index] = choices[rng() % choices.size()];
      if (action == Run) {
        Thread &t = threads[index];
        issue(t, *t.ops[t.next++]);
      } else if (action == Commit) {
        // The MMA thread's last op: commit the accumulator.
        pipe.push_back({0, 0, Async::Commit, {}});
        committed = true;
      } else if (action == Land) {
        Async copy = std::move(copies[index]);
        copies.erase(copies.begin() + static_cast<ptrdiff_t>(index));
        Cta &cta = ctas[copy.cta];
        cta.landed[copy.trip] += copy.bytes;
        copy.run();
        Barrier &bar = cta.full[copy.slot];
        if ((bar.tx -= copy.bytes) < 0)
          note("slot " + std::to_string(copy.slot) +
               " received more bytes than its expect announced");
        settle(bar);
      } else {
        Async op = std::move(pipe.front());
        pipe.pop_front();
        if (op.kind == Async::Tensor) {
          ++executed[op.trip];
          op.run();
        } else {
          // A pair's commits arrive on both CTAs' barriers (but for the
          // planted release that arrives on the first CTA's only).
          for (auto [i, c] : llvm::enumerate(ctas)) {
            if (op.kind == Async::Release && c.x != x &&
                plant == Plant::PairReleaseFirstOnly)
              continue;
            // A pair's CTA whose producer left (after its tail) may have
            // exited: nothing may arrive on it any more.
            if (op.kind == Async::Release && group == 2 && threads[2 * i].done)
              note("a release arrived at CTA x = " + std::to_string(c.x) +
                   " after its producer left");
            Barrier &bar =
                op.kind == Async::Release ? c.empty[op.slot] : c.accumulator;
            --bar.arrivals;
            settle(bar);
          }
        }
      }
    }
    bool done = committed;
    for (Thread &t : threads)
      done &= t.done;
    if (!done)
      note("deadlock: the MMA thread at trip " +
           std::to_string(mmaThread.trip) + ", the producer of CTA x = " +
           std::to_string(x) + " at trip " + std::to_string(threads[0].trip));
    // A pair's CTA leaves after its producer acquired its last slots once
    // more (every release arrived): nothing arrives on an exited CTA.
    // All warps wait for the accumulator's commit (nvfp4.tcgen05.wait).
    for (Cta &c : ctas)
      if (!passes(c.accumulator, 0))
        note("the epilogue would wait forever for the accumulator");
    // The epilogue: thread t of warp t / 32 of each CTA reads its lane's
    // columns, of each accumulator w from column w x columns (the dual's:
    // `out` holds each accumulator's tile, weight w's from w x L x M x N;
    // its gate is checked on its own, dualEpilogue below).
    if (stores.size() != out.size())
      stores.assign(out.size(), 0);
    for (Cta &c : ctas) {
      // The store's guards (a pair's second CTA past N stores nothing):
      // its enclosing comparisons, evaluated for the CTA.
      if (plant != Plant::PairUnguardedStore &&
          !runsUnder(store, c.eval, [](scf::IfOp branch) {
            return static_cast<bool>(
                branch.getCondition().getDefiningOp<arith::CmpIOp>());
          }))
        continue;
      int64_t m0 = c.eval(store.getM()), n0 = c.eval(store.getRow());
      // The lowering masks rows of B past N only when N % 128 != 0.
      if (n0 + 128 > shape.n && shape.n % 128 == 0)
        note("CTA x = " + std::to_string(c.x) +
             " stores rows of B past N unmasked");
      const int64_t l = c.eval(store.getBatch());
      // A grouped tile ends with its group.
      int64_t mEnd = store.getMEnd() && plant != Plant::GroupStoreEnd
                         ? c.eval(store.getMEnd())
                         : shape.m;
      if (plant == Plant::GroupStoreRows || plant == Plant::ProblemRows)
        m0 = y * plan.getTileM();
      const int64_t columns = static_cast<int64_t>(store.getColumns());
      const int64_t tile = shape.batch * shape.m * shape.n;
      for (int64_t w = 0; w < store.getAccumulators(); ++w)
        for (int64_t t = 0; t < 128; ++t)
          for (int64_t j = 0; j < columns; ++j) {
            int64_t m = m0 + j, n = n0 + t;
            if (m >= shape.m || m >= mEnd || n >= shape.n)
              continue;
            float v = load32x32b(
                c.tmem, static_cast<int>(t / 32), static_cast<int>(t % 32),
                tmemAddress(static_cast<uint32_t>(32 * (t / 32)), 0),
                static_cast<int>(w * columns + j));
            const int64_t at = w * tile + (l * shape.m + m) * shape.n + n;
            out[at] += v;
            // Without split-K every element of C is stored by one CTA (an
            // unmasked tile that stores zeros over a neighbour's rows adds
            // nothing, but stores twice). (The model runs every split's
            // store: global ones add partials, a cluster's first alone
            // stores the sum, checked when compiled.)
            if (plan.getSplitK() == 1 && ++stores[at] > 1)
              note("C's element (" + std::to_string(m) + ", " +
                   std::to_string(n) + ") stored by two CTAs");
          }
    }
  }

  /// Whether `op` runs for the CTA and thread `e` evaluates for: every
  /// enclosing scf.if in the kernel that `considered` accepts takes the
  /// branch that holds it.
  bool runsUnder(Operation *op, Evaluator &e,
                 function_ref<bool(scf::IfOp)> considered = nullptr) {
    bool runs = true;
    for (Operation *at = op; at->getParentOp() != kernel.getOperation();
         at = at->getParentOp())
      if (auto branch = dyn_cast<scf::IfOp>(at->getParentOp());
          branch && (!considered || considered(branch)))
        runs &= (e(branch.getCondition()) != 0) ==
                (at->getParentRegion() == &branch.getThenRegion());
    return runs;
  }

  /// Whether warp 1 of the CTA `e` evaluates for runs `loop` (its
  /// enclosing conditions, for thread 32).
  bool runsInWarp1(scf::ForOp loop, Evaluator &e) {
    e.threadId = 32;
    const bool runs = runsUnder(loop, e);
    e.threadId = 0;
    return runs;
  }

  /// Per element of `out`: how many CTAs stored it.
  std::vector<int64_t> stores;

  /// The first operand the model refused ("" when it took them all).
  std::string modelError;
  void note(const std::string &error) {
    if (modelError.empty())
      modelError = error;
  }

  /// Runs every CTA of the grid.
  std::vector<float> runAll(const Host &h, Plant plant = Plant::None,
                            int64_t schedule = 0) {
    std::vector<float> out((shape.dual ? 2 : 1) * shape.batch * shape.m *
                               shape.n,
                           0.0f);
    stores.assign(out.size(), 0);
    int64_t gx = grid(0), gy = grid(1), gz = grid(2);
    std::function<void()> undo = plantInKernel(plant);
    if (!shape.problems.empty()) {
      runProblem(h, out, plant, schedule);
    } else {
      // (A plan of CTA pairs runs each pair at once.)
      for (int64_t z = 0; z < gz; ++z)
        for (int64_t y = 0; y < gy; ++y)
          for (int64_t x = 0; x < gx; x += plan.getCtaGroup())
            runCta(h, x, y, z, out, plant, schedule);
    }
    undo();
    return out;
  }

  /// Plants an error in the compiled IR (undone by the function
  /// returned): PairWrongRank takes a pair's rank from block x / 2;
  /// ProblemDispatch moves problem 1's first tile in
  /// the dispatch's first compare (block y >= first[1]) one tile on;
  /// ProblemOperands swaps the launch's tensor maps of A of the model's
  /// problem and the next one (sm_100a).
  std::function<void()> plantInKernel(Plant plant) {
    const int64_t g = shape.problemCount();
    if (plant == Plant::ProblemDispatch && problemSwitch) {
      const int64_t first1 =
          (shape.problems[0][0] + plan.getTileM() - 1) / plan.getTileM();
      for (Operation &op : kernel.getBody().front()) {
        auto cmp = dyn_cast<arith::CmpIOp>(op);
        auto bound = cmp ? cmp.getRhs().getDefiningOp<arith::ConstantIndexOp>()
                         : arith::ConstantIndexOp();
        if (!bound || cmp.getPredicate() != arith::CmpIPredicate::uge ||
            bound.value() != first1)
          continue;
        OpBuilder b(cmp);
        auto moved =
            arith::ConstantIndexOp::create(b, cmp.getLoc(), first1 + 1);
        cmp->setOperand(1, moved);
        return [cmp, bound, moved]() mutable {
          cmp->setOperand(1, bound);
          moved->erase();
        };
      }
      ADD_FAILURE() << "no dispatch compare against problem 1's first tile";
    }
    // The pair's rank from block x / 2 instead of block x: rank =
    // (x / 2) % 2, the same in both CTAs of a cluster.
    if (plant == Plant::PairWrongRank) {
      arith::RemUIOp rank;
      kernel.walk([&](arith::RemUIOp r) {
        auto cast = r.getLhs().getDefiningOp<arith::IndexCastUIOp>();
        auto id = cast ? cast.getIn().getDefiningOp<gpu::BlockIdOp>()
                       : gpu::BlockIdOp();
        if (id && id.getDimension() == gpu::Dimension::x)
          rank = r;
      });
      if (!rank) {
        ADD_FAILURE() << "no pair rank (block x % 2) in the kernel";
        return [] {};
      }
      OpBuilder b(rank);
      Value x = rank.getLhs();
      auto half = arith::DivUIOp::create(b, rank.getLoc(), x, rank.getRhs());
      rank->setOperand(0, half);
      return [rank, x, half]() mutable {
        rank->setOperand(0, x);
        half->erase();
      };
    }
    if (plant == Plant::ProblemOperands && plan.getTcgen05()) {
      // The maps follow the five operands of every problem: A's, B's.
      const unsigned mine = static_cast<unsigned>(5 * g + 2 * shape.problem);
      const unsigned next =
          static_cast<unsigned>(5 * g + 2 * ((shape.problem + 1) % g));
      MutableOperandRange operands = launch.getKernelOperandsMutable();
      Value a = operands[mine].get(), b = operands[next].get();
      operands[mine].set(b);
      operands[next].set(a);
      return [operands, mine, next, a, b]() mutable {
        operands[mine].set(a);
        operands[next].set(b);
      };
    }
    return [] {};
  }

  /// A grouped_problems: every block y of the grid must dispatch to the
  /// problem whose tiles of A's rows hold it (counted here from the
  /// problems' shapes and the plan's tile_m); the model's problem's CTAs
  /// run.
  void runProblem(const Host &h, std::vector<float> &out, Plant plant,
                  int64_t schedule) {
    const int64_t tileM = plan.getTileM();
    std::vector<int64_t> problemOfY;
    for (auto [g, problem] : llvm::enumerate(shape.problems))
      problemOfY.insert(problemOfY.end(), (problem[0] + tileM - 1) / tileM,
                        static_cast<int64_t>(g));
    if (static_cast<int64_t>(problemOfY.size()) != grid(1))
      note("a grid of " + std::to_string(grid(1)) + " tiles of A's rows for " +
           std::to_string(problemOfY.size()));
    for (int64_t y = 0; y < grid(1); ++y) {
      const int64_t want =
          y < static_cast<int64_t>(problemOfY.size()) ? problemOfY[y] : -1;
      Evaluator eval;
      eval.blockId = [&](gpu::Dimension d) {
        return d == gpu::Dimension::y ? y : int64_t(0);
      };
      const int64_t got = problemSwitch ? eval(problemSwitch.getArg()) : 0;
      if (got != want)
        note("block y = " + std::to_string(y) + " runs problem " +
             std::to_string(got) + " instead of " + std::to_string(want));
      if (want != shape.problem)
        continue;
      // (A plan of CTA pairs runs each pair at once.)
      for (int64_t x = 0; x < grid(0); x += plan.getCtaGroup())
        runCta(h, x, y, 0, out, plant, schedule);
    }
  }

  /// Why the producer and MMA loops do not run as whole warps whose
  /// elected lane issues, or "": each loop runs in exactly the 32 threads
  /// of one warp, a different one each (their enclosing conditions
  /// evaluated for every thread of the CTA), and every op that issues (an
  /// expect, a copy, a scale copy, an MMA, a release, the commit) sits
  /// under a condition that nvvm.elect.sync gives, elected in the loop's
  /// warp before the loop (the lane that issues the MMAs must be the one
  /// whose commits track them).
  std::string warpRoleError() {
    Evaluator eval;
    eval.blockId = [](gpu::Dimension) { return int64_t(0); };
    // The warp whose threads alone run `loop`, or -1.
    auto warpOf = [&](scf::ForOp loop) -> int64_t {
      std::set<int64_t> threads;
      for (int64_t t = 0; t < Tcgen05MainloopAttr::kThreads; ++t) {
        eval.threadId = t;
        if (runsUnder(loop, eval))
          threads.insert(t);
      }
      if (threads.size() != 32 || *threads.begin() % 32 != 0 ||
          *threads.rbegin() != *threads.begin() + 31)
        return -1;
      return *threads.begin() / 32;
    };
    const int64_t producerWarp = warpOf(producer), issuerWarp = warpOf(issuer);
    if (producerWarp < 0 || issuerWarp < 0 || producerWarp == issuerWarp)
      return "the producer's loop (warp " + std::to_string(producerWarp) +
             ") and the MMA loop (warp " + std::to_string(issuerWarp) +
             ") do not each run in one whole warp of their own";
    std::string error;
    auto checkElected = [&](scf::ForOp loop, Operation *op) {
      for (Operation *at = op; at != kernel.getOperation();
           at = at->getParentOp())
        if (auto branch = dyn_cast<scf::IfOp>(at->getParentOp()))
          if (at->getParentRegion() == &branch.getThenRegion())
            if (auto elect =
                    branch.getCondition().getDefiningOp<NVVM::ElectSyncOp>())
              if (!loop->isAncestor(elect) &&
                  loop->getParentOp()->isAncestor(elect))
                return;
      error += op->getName().getStringRef().str() +
               " is not issued by a lane elected before its loop; ";
    };
    for (scf::ForOp loop : {producer, issuer}) {
      loop.walk([&](Operation *op) {
        if (isa<RingExpectOp, RingCopyOp, RingCopyBytesOp, Tcgen05CopyScalesOp,
                Tcgen05MmaOp, Tcgen05ReleaseOp>(op))
          checkElected(loop, op);
      });
    }
    for (Operation *op = issuer->getNextNode(); op; op = op->getNextNode())
      op->walk([&](Tcgen05CommitOp c) { checkElected(issuer, c); });
    return error;
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
  int64_t preparedFor = -1;
  gpu::GPUFuncOp kernel;
  /// The producer's and the MMA thread's loops; a pair's second CTA's
  /// forwarder (null without pairs).
  scf::ForOp producer, issuer, forwarder, producerTail;
  RingType ring;
  Tcgen05StoreOp store;
  KernelPlanAttr plan;
  /// A grouped_problems kernel's switch on the CTA's problem, the model's
  /// problem's case and its guard on block x (null: none).
  scf::IndexSwitchOp problemSwitch;
  Region *caseRegion = nullptr;
  scf::IfOp xGuard;
  bool ok = false;
};

/// Elements of `out` that differ from the reference (bit for bit): every
/// accumulator's.
int64_t mismatches(const Host &h, const std::vector<float> &out) {
  const Shape &s = h.shape;
  const int64_t tile = s.batch * s.m * s.n;
  int64_t bad = 0;
  for (int64_t w = 0; w < (s.dual ? 2 : 1); ++w)
    for (int64_t l = 0; l < s.batch; ++l)
      for (int64_t m = 0; m < s.m; ++m) {
        // A grouped GEMM leaves the rows of no group untouched (zero).
        const bool untouched = s.grouped() && h.rowGroup[m] < 0;
        for (int64_t n = 0; n < s.n; ++n)
          bad += out[w * tile + (l * s.m + m) * s.n + n] !=
                 (untouched ? 0.0f : reference(h, l, m, n, w));
      }
  return bad;
}

/// The store's epilogue region evaluated on host floats (the arith and
/// math ops a gemm_tile's epilogue may hold).
float evalEpilogue(Tcgen05StoreOp store, ArrayRef<float> accumulators) {
  Block &body = store.getEpilogue().front();
  DenseMap<Value, float> v;
  for (auto [arg, x] : llvm::zip(body.getArguments(), accumulators))
    v[arg] = x;
  for (Operation &op : body.without_terminator()) {
    auto x = [&](unsigned i) { return v.lookup(op.getOperand(i)); };
    float r = 0;
    if (auto c = dyn_cast<arith::ConstantOp>(op))
      r = cast<FloatAttr>(c.getValue()).getValue().convertToFloat();
    else if (isa<arith::MulFOp>(op))
      r = x(0) * x(1);
    else if (isa<arith::AddFOp>(op))
      r = x(0) + x(1);
    else if (isa<arith::DivFOp>(op))
      r = x(0) / x(1);
    else if (op.getName().getStringRef() == "math.exp2")
      r = std::exp2(x(0));
    else
      ADD_FAILURE() << "cannot evaluate " << op.getName().getStringRef().str();
    v[op.getResult(0)] = r;
  }
  return v.lookup(cast<YieldOp>(body.getTerminator()).getValue());
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
  // Three schedules of the threads and the asynchronous work.
  for (int64_t schedule = 0; schedule < 3; ++schedule) {
    std::vector<float> out = gemm.runAll(h, Plant::None, schedule);
    EXPECT_EQ(gemm.modelError, "");
    EXPECT_EQ(mismatches(h, out), 0)
        << "schedule " << schedule << ", plan " << [&] {
             std::string s;
             llvm::raw_string_ostream os(s);
             os << gemm.plan;
             return s;
           }();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Plans, Tcgen05PipelineTest,
    ::testing::Values(
        // The planner's choice: 64-row tiles of A (odd tiles read scale
        // columns + 2) and split-K.
        Case{{128, 256, 512, 1}, ""},
        // Slots reused (4 slices, 2 stages), 128-row tiles.
        Case{{128, 256, 1024, 1},
             "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, "
             "stages = 2>>"},
        // Ragged M and N, a batch of 2, 32-row tiles (quarter offsets 0-3).
        Case{{100, 200, 512, 2},
             "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 32, "
             "stages = 3>>"},
        // 256-row tiles over fewer rows: two scale blocks, the second past
        // M clamped.
        Case{{200, 128, 256, 1},
             "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 256, "
             "stages = 2>>"},
        Case{{300, 128, 512, 1},
             "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 256, "
             "stages = 2>, reduction = #nvfp4.split_k<splits = 2>>"},
        // Plain scales (the pre-pass blocks them), K = 640: the last slice
        // holds 2 of 4 chunks (values read as zero, scales padded zero).
        Case{{100, 200, 640, 2, /*plain=*/true}, ""},
        // Blocked scales with K % 256 != 0 (padded by the pre-pass; the
        // host's padding bytes are NaN): 3 slices, the last of 3 chunks.
        Case{{64, 130, 704, 1},
             "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 64, "
             "stages = 2>>"},
        // Split-K over 7 slices of which the last has 1 chunk.
        Case{{128, 256, 1600, 1, /*plain=*/true},
             "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, "
             "stages = 3>, reduction = #nvfp4.split_k<splits = 7>>"},
        // Split-K added on chip by a cluster of the splits (the ring's
        // scratch larger than its slots), a batch of 2, ragged M and N.
        Case{{100, 200, 1024, 2},
             "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = 128, "
             "stages = 2>, reduction = #nvfp4.split_k<splits = 2, mode = "
             "cluster>>"}));

/// Each planted error changes the result of a plan where it matters.
TEST(Tcgen05PipelinePlanted, ErrorsAreCaught) {
  CompiledGemm gemm({128, 256, 512, 1},
                    "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = "
                    "64, stages = 2>>");
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

/// The producer and MMA loops run in whole warps with one elected lane
/// issuing (the check fails on the lone-lane loops of before and on
/// loops where every lane issues).
TEST(Tcgen05PipelinePlanted, WholeWarpsInTheLoops) {
  for (bool dual : {false, true}) {
    Shape shape{128, 256, 512, 1};
    shape.dual = dual;
    CompiledGemm gemm(shape, "");
    ASSERT_TRUE(gemm.ok);
    EXPECT_EQ(gemm.warpRoleError(), "");
  }
  {
    // A lone lane: the producer's warp condition made thread 0's.
    CompiledGemm gemm({128, 256, 512, 1}, "");
    ASSERT_TRUE(gemm.ok);
    auto role = cast<scf::IfOp>(gemm.producer->getParentOp());
    auto isWarp = role.getCondition().getDefiningOp<arith::CmpIOp>();
    ASSERT_TRUE(isWarp);
    auto warp = isWarp.getLhs().getDefiningOp<arith::DivUIOp>();
    ASSERT_TRUE(warp);
    isWarp->setOperand(0, warp.getLhs());
    EXPECT_NE(gemm.warpRoleError(), "");
  }
  {
    // Every lane of the MMA warp issues.
    CompiledGemm gemm({128, 256, 512, 1}, "");
    ASSERT_TRUE(gemm.ok);
    NVVM::ElectSyncOp elect;
    gemm.issuer->getParentOp()->walk([&](NVVM::ElectSyncOp e) { elect = e; });
    ASSERT_TRUE(elect);
    OpBuilder b(elect);
    elect.getResult().replaceAllUsesWith(
        arith::ConstantIntOp::create(b, elect.getLoc(), b.getI1Type(), 1));
    EXPECT_NE(gemm.warpRoleError(), "");
  }
}

/// Each planted synchronization error is caught on a plan that reuses its
/// slots (4 slices through 2 slots) in the adversarial schedules (1: the
/// tensor pipe as late as possible, 2: copies as late as possible; a
/// uniform schedule may happen to be benign): as a deadlock, a race the
/// model sees, or a wrong result. Unplanted, every schedule is right.
TEST(Tcgen05PipelinePlanted, SynchronizationErrorsAreCaught) {
  CompiledGemm gemm({64, 128, 1024, 1},
                    "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = "
                    "64, stages = 2>>");
  ASSERT_TRUE(gemm.ok);
  Host h = randomHost(gemm.shape, 13);
  for (int64_t schedule = 0; schedule < 6; ++schedule) {
    gemm.modelError.clear();
    EXPECT_EQ(mismatches(h, gemm.runAll(h, Plant::None, schedule)), 0);
    EXPECT_EQ(gemm.modelError, "") << "schedule " << schedule;
    if (schedule % 3 == 0)
      continue;
    for (Plant plant : {Plant::AcquireParity, Plant::WaitParity,
                        Plant::NoRelease, Plant::ExpectBytes}) {
      gemm.modelError.clear();
      int64_t bad = mismatches(h, gemm.runAll(h, plant, schedule));
      EXPECT_TRUE(bad > 0 || !gemm.modelError.empty())
          << "planted error " << static_cast<int>(plant)
          << " went unnoticed in schedule " << schedule;
    }
  }
}

/// `gemm` (plan `plan`) matches the reference bit for bit with the inputs
/// `h` in three schedules of the threads and the asynchronous work, and
/// the model reports nothing.
void expectRightInSchedules(CompiledGemm &gemm, const Host &h,
                            const std::string &plan) {
  for (int64_t schedule = 0; schedule < 3; ++schedule) {
    gemm.modelError.clear();
    EXPECT_EQ(mismatches(h, gemm.runAll(h, Plant::None, schedule)), 0)
        << plan << " schedule " << schedule;
    EXPECT_EQ(gemm.modelError, "") << plan;
  }
}

/// Each of `plants` is caught on `gemm` (as a wrong result or an error the
/// model reports) with the inputs `h`.
void expectCaught(CompiledGemm &gemm, const Host &h,
                  std::initializer_list<Plant> plants,
                  const std::string &plan) {
  for (Plant plant : plants) {
    gemm.modelError.clear();
    int64_t bad = mismatches(h, gemm.runAll(h, plant));
    EXPECT_TRUE(bad > 0 || !gemm.modelError.empty())
        << "planted error " << static_cast<int>(plant)
        << " went unnoticed on " << plan;
  }
}

/// The gated dual GEMM: both weights' accumulators bit for bit on plans of
/// every kind (tiles of 64 and 128 rows, ragged M and N with a batch, plain
/// scales through the pre-passes, slots reused, a cluster split adding both
/// accumulators), the store's epilogue the gate silu(x1) x2, and the planted
/// errors of the two-accumulator layout caught.
TEST(Tcgen05PipelineDual, BothAccumulatorsAndTheGate) {
  const std::string dual = "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<";
  using Plan = std::pair<Shape, std::string>;
  for (auto [shape, plan] : std::initializer_list<Plan>{
           {Shape{128, 256, 512, 1, false, true}, ""},
           {Shape{100, 200, 512, 2, false, true},
            dual + "tile_m = 128, stages = 2, weights = 2>>"},
           {Shape{64, 130, 640, 1, true, true},
            dual + "tile_m = 32, stages = 2, weights = 2>>"},
           {Shape{100, 200, 1024, 2, false, true},
            dual + "tile_m = 64, stages = 2, weights = 2>, reduction = "
                   "#nvfp4.split_k<splits = 2, mode = cluster>>"}}) {
    CompiledGemm gemm(shape, plan);
    ASSERT_TRUE(gemm.ok);
    Host h = randomHost(shape, 17);
    expectRightInSchedules(gemm, h, plan);
    // The store applies the gate to the two accumulators' elements.
    ASSERT_EQ(gemm.store.getAccumulators(), 2);
    for (auto [x1, x2] : {std::pair<float, float>{0.0f, 3.0f},
                          {1.5f, -2.0f},
                          {-4.0f, 0.5f},
                          {20.0f, 1.0f},
                          {-30.0f, 7.0f}}) {
      const double silu = x1 / (1.0 + std::exp(-static_cast<double>(x1)));
      EXPECT_NEAR(evalEpilogue(gemm.store, {x1, x2}), silu * x2,
                  1e-6 * (1.0 + std::abs(silu * x2)));
    }
    expectCaught(gemm, h, {Plant::DualAccumulatorColumn,
                           Plant::DualSwappedScales},
                 plan);
  }
}

/// CTA pairs (cta_group = 2: tcgen05.mma.cta_group::2 of M = 256 that
/// the first CTA of a cluster of 2 issues for both): every CTA's tile bit
/// for bit on plans of 64, 128 and 256 rows of A (a CTA holds half), an
/// odd number of tiles of B (the last pair's second CTA past N, storing
/// nothing), ragged M and N with a batch, plain scales through the
/// pre-passes, slots reused, fewer K slices than slots, the dual GEMM
/// (both accumulators in each CTA), MXFP4, the grouped GEMM and a problem
/// of a grouped_problems with an odd number of tiles of B; in three
/// schedules each, the second CTA's slots forwarded to the first, no
/// release arriving after a producer's tail. Planted errors caught: each
/// CTA copying the other's half of the tile of A, the first CTA's MMAs
/// not waiting for the second's bytes, releases arriving on the first
/// CTA's barriers only, the wrong CTA pair (the rank from block x / 2), a
/// producer without its tail, the second CTA past N storing, and on the
/// dual the wrong accumulator column and the weights' scales swapped.
TEST(Tcgen05PipelinePair, BothCtasMatchTheReference) {
  const std::string mainloop =
      "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<";
  Shape dual{100, 200, 512, 1, false, true};
  Shape mx{128, 256, 512, 1};
  mx.mx = true;
  Shape grouped{160, 256, 512, 1};
  grouped.groups = {80, 0, 40, 7};
  using Plan = std::pair<Shape, std::string>;
  for (auto [shape, plan] : std::initializer_list<Plan>{
           {Shape{128, 256, 512, 1},
            mainloop + "tile_m = 128, stages = 2, cta_group = 2>>"},
           // Three tiles of B: the second pair's second CTA is past N.
           {Shape{200, 384, 768, 2, true},
            mainloop + "tile_m = 64, stages = 2, cta_group = 2>>"},
           // One K slice, two slots: the tail waits for the one release.
           {Shape{128, 256, 256, 1},
            mainloop + "tile_m = 128, stages = 2, cta_group = 2>>"},
           {Shape{300, 200, 1024, 1},
            mainloop + "tile_m = 256, stages = 2, cta_group = 2>>"},
           {dual, mainloop + "tile_m = 64, stages = 2, weights = 2, "
                             "cta_group = 2>>"},
           {mx, mainloop + "tile_m = 128, stages = 2, format = mxfp4, "
                           "cta_group = 2>>"},
           {grouped, mainloop + "tile_m = 64, stages = 2, cta_group = 2>>"},
           // A grouped_problems' second problem: three tiles of B (its last
           // pair's second CTA past N) behind the first's two.
           {problemShape({{96, 256, 512}, {130, 384, 256}}, 1, false, false),
            mainloop + "tile_m = 128, stages = 2, cta_group = 2>>"}}) {
    CompiledGemm gemm(shape, plan);
    ASSERT_TRUE(gemm.ok) << plan;
    ASSERT_TRUE(gemm.forwarder) << "no forwarding loop in " << plan;
    Host h = randomHost(shape, 23);
    expectRightInSchedules(gemm, h, plan);
    EXPECT_TRUE(gemm.producerTail) << "no producer tail in " << plan;
    // (Caught in any of the three schedules: the first CTA's MMAs too
    // early where copies land late, a release after an early exit where
    // the tensor pipe runs late.)
    std::vector<Plant> plants = {Plant::PairAHalves, Plant::PairNoPeerWait,
                                 Plant::PairReleaseFirstOnly,
                                 Plant::PairWrongRank, Plant::PairNoTail};
    if (shape.n % 256 == 128)
      plants.push_back(Plant::PairUnguardedStore);
    for (Plant plant : plants) {
      bool caught = false;
      for (int64_t schedule = 0; schedule < 3 && !caught; ++schedule) {
        gemm.modelError.clear();
        caught = mismatches(h, gemm.runAll(h, plant, schedule)) > 0 ||
                 !gemm.modelError.empty();
      }
      EXPECT_TRUE(caught) << "planted error " << static_cast<int>(plant)
                          << " went unnoticed on " << plan;
    }
    if (shape.dual)
      expectCaught(gemm, h,
                   {Plant::DualAccumulatorColumn, Plant::DualSwappedScales},
                   plan);
  }
}

/// MXFP4 (e8m0 scales, .block32 MMAs): plans of every kind bit for bit
/// (the planner's, tiles of 32 to 256 rows, slots reused, ragged M and N
/// with a batch, plain scales blocked by the pre-pass, blocked ones padded
/// from K % 256 != 0, split-K globally and on chip, the dual GEMM), and
/// the planted errors of the 32-value scale layout caught.
TEST(Tcgen05PipelineMX, CompiledKernelsMatchTheReference) {
  const std::string mainloop =
      "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<";
  auto mx = [](Shape s) {
    s.mx = true;
    return s;
  };
  using Plan = std::pair<Shape, std::string>;
  for (auto [shape, plan] : std::initializer_list<Plan>{
           {mx({128, 256, 512, 1}), ""},
           {mx({128, 256, 1024, 1}),
            mainloop + "tile_m = 128, stages = 2, format = mxfp4>>"},
           {mx({100, 200, 512, 2}),
            mainloop + "tile_m = 32, stages = 3, format = mxfp4>>"},
           {mx({300, 128, 512, 1}),
            mainloop + "tile_m = 256, stages = 2, format = mxfp4>, "
                       "reduction = #nvfp4.split_k<splits = 2>>"},
           {mx({100, 200, 640, 2, /*plain=*/true}), ""},
           {mx({64, 130, 704, 1}),
            mainloop + "tile_m = 64, stages = 2, format = mxfp4>>"},
           {mx({100, 200, 1024, 2}),
            mainloop + "tile_m = 128, stages = 2, format = mxfp4>, "
                       "reduction = #nvfp4.split_k<splits = 2, mode = "
                       "cluster>>"},
           // K = 960: 4 slices, the last of 3 K steps and half an atom of
           // NaN padding, in the second split's CTAs (global and on chip).
           {mx({100, 200, 960, 1}),
            mainloop + "tile_m = 64, stages = 2, format = mxfp4>, "
                       "reduction = #nvfp4.split_k<splits = 2>>"},
           {mx({100, 200, 960, 1}),
            mainloop + "tile_m = 64, stages = 2, format = mxfp4>, "
                       "reduction = #nvfp4.split_k<splits = 2, mode = "
                       "cluster>>"},
           {mx({100, 200, 640, 1, /*plain=*/true, /*dual=*/true}), ""}}) {
    CompiledGemm gemm(shape, plan);
    ASSERT_TRUE(gemm.ok) << plan;
    ASSERT_EQ(gemm.plan.getTcgen05().getFormat(),
              mlir::nvfp4::ScaleFormat::MXFP4);
    Host h = randomHost(shape, 19);
    expectRightInSchedules(gemm, h, plan);
    expectCaught(gemm, h,
                 {Plant::MxScaleIds, Plant::MxAtomPerMma, Plant::MxBlock16},
                 plan);
  }
}

/// A slot of MXFP4 holds half the scale bytes of NVFP4's: 2 atoms per 128
/// rows and slice, one TMEM copy per atom serving two MMAs.
TEST(Tcgen05PipelineMX, SlotAndCopies) {
  Shape nv{128, 256, 512, 1}, mxShape = nv;
  mxShape.mx = true;
  const std::string plan = "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<"
                           "tile_m = 128, stages = 2";
  CompiledGemm a(nv, plan + ">>"), b(mxShape, plan + ", format = mxfp4>>");
  ASSERT_TRUE(a.ok && b.ok);
  auto count = [](CompiledGemm &g) {
    int64_t copies = 0, mmas = 0;
    g.issuer.walk([&](Operation *op) {
      copies += isa<Tcgen05CopyScalesOp>(op);
      mmas += isa<Tcgen05MmaOp>(op);
    });
    return std::make_pair(copies, mmas);
  };
  EXPECT_EQ(count(a), std::make_pair(int64_t(8), int64_t(4)));
  EXPECT_EQ(count(b), std::make_pair(int64_t(4), int64_t(4)));
  EXPECT_EQ(a.ring.getSlotBytes() - b.ring.getSlotBytes(), 2048);
}

/// The grouped GEMM (run-time offsets, nvfp4.group_tile): plans of every
/// tile size bit for bit, groups that start inside tiles of the grid,
/// empty groups, rows past the last group (untouched), out-of-range
/// offsets (clamped), plain and blocked B scales, K with a partial last
/// slice, MXFP4; and the planted errors of the per-group addressing
/// caught: A's rows, B's scales, C's rows and the group's end.
TEST(Tcgen05PipelineGrouped, GroupsMatchTheReference) {
  const std::string mainloop =
      "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<";
  auto grouped = [](int64_t m, int64_t n, int64_t k, bool plain,
                    std::vector<int64_t> groups,
                    std::vector<int32_t> offsets = {}) {
    Shape s{m, n, k, 1, plain};
    s.groups = std::move(groups);
    s.offsets = std::move(offsets);
    return s;
  };
  Shape mx = grouped(128, 256, 512, false, {70, 0, 50});
  mx.mx = true;
  using Plan = std::pair<Shape, std::string>;
  for (auto [shape, plan] : std::initializer_list<Plan>{
           // The planner's plan; an empty group, rows past the last.
           {grouped(160, 256, 512, false, {80, 0, 40, 7}), ""},
           // 32-row tiles (quarters of the gathered blocks), plain B
           // scales, a last slice of 2 of 4 chunks.
           {grouped(128, 200, 640, true, {33, 64, 1, 30}),
            mainloop + "tile_m = 32, stages = 2>>"},
           // 256-row tiles over two scale blocks; slots reused.
           {grouped(300, 128, 1024, false, {200, 57}),
            mainloop + "tile_m = 256, stages = 2>>"},
           // Offsets out of range and not monotonic: clamped.
           {grouped(100, 130, 512, false, {50, 0, 50}, {-5, 50, 30, 1000}),
            mainloop + "tile_m = 64, stages = 2>>"},
           {mx, mainloop + "tile_m = 128, stages = 2, format = mxfp4>>"}}) {
    CompiledGemm gemm(shape, plan);
    ASSERT_TRUE(gemm.ok) << plan;
    Host h = randomHost(shape, 23);
    expectRightInSchedules(gemm, h, plan);
    std::initializer_list<Plant> plants = {
        Plant::GroupARows, Plant::GroupWeightScales, Plant::GroupStoreRows,
        Plant::GroupStoreEnd};
    expectCaught(gemm, h, plants, plan);
    if (gemm.plan.getTileM() < 128)
      expectCaught(gemm, h, {Plant::OddTileColumn}, plan);
  }
}

/// The grouped GEMM of independent problems (nvfp4.grouped_problems): each
/// problem's tiles bit for bit in its case of the kernel's switch, with N
/// and K varying between problems (a partial last K slice, plain scales
/// blocked by a pre-pass per operand, blocked ones), MXFP4, tiles of 64 to
/// 256 rows and the planner's, CTA pairs (each problem's CTAs along x
/// rounded up to whole pairs); every block y dispatched to its problem,
/// each case reading and storing its own problem's operands. Planted
/// errors caught: two problems' maps of A swapped on the launch, the
/// dispatch's compare against problem 1's first tile moved one tile on,
/// a tile stored at its grid row.
TEST(Tcgen05PipelineProblems, EachProblemMatchesTheReference) {
  const std::string mainloop =
      "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<";
  using Problems = std::vector<std::array<int64_t, 3>>;
  struct Case {
    Problems problems;
    bool plain, mx;
    std::string plan;
  };
  const Case cases[] = {
      // The contest's first test case, the planner's plan.
      {{{96, 128, 128}, {128, 256, 512}}, true, false, ""},
      {{{80, 384, 256}, {128, 256, 512}, {256, 128, 128}},
       false,
       false,
       mainloop + "tile_m = 64, stages = 2>>"},
      {{{200, 130, 640}, {33, 300, 256}},
       true,
       false,
       mainloop + "tile_m = 256, stages = 2>>"},
      {{{70, 256, 512}, {130, 128, 1024}},
       false,
       true,
       mainloop + "tile_m = 128, stages = 2, format = mxfp4>>"},
      // CTA pairs: whole pairs along x per problem (the second's three
      // tiles of B take two pairs, under a guard: the third is wider).
      {{{96, 256, 512}, {130, 384, 256}, {64, 768, 256}},
       false,
       false,
       mainloop + "tile_m = 128, stages = 2, cta_group = 2>>"}};
  for (const Case &c : cases) {
    for (int64_t g = 0; g < static_cast<int64_t>(c.problems.size()); ++g) {
      Shape shape = problemShape(c.problems, g, c.plain, c.mx);
      CompiledGemm gemm(shape, c.plan);
      ASSERT_TRUE(gemm.ok) << c.plan;
      Host h = randomHost(shape, 31 + static_cast<unsigned>(g));
      const std::string what = c.plan + " problem " + std::to_string(g);
      expectRightInSchedules(gemm, h, what);
      expectCaught(gemm, h, {Plant::ProblemOperands, Plant::ProblemDispatch},
                   what);
      if (g > 0)
        expectCaught(gemm, h, {Plant::ProblemRows}, what);
    }
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
    KernelPlanAttr p = full.plan;
    // Keep the plan but its split_k, which must divide the shorter K.
    std::string kept =
        "#nvfp4.kernel<mainloop = #nvfp4.tcgen05_mainloop<tile_m = " +
        std::to_string(p.getTileM()) +
        ", stages = " + std::to_string(p.getStages()) +
        (p.getCtaGroup() == 2 ? ", cta_group = 2" : "") + ">>";
    CompiledGemm gemm(cut, kept);
    ASSERT_TRUE(gemm.ok) << plan;
    Host h = randomHost(cut, 3);
    std::vector<float> out(cut.m * cut.n, 0.0f);
    // (A plan of pairs runs the last pair.)
    gemm.runCta(h, 0, 0, 0, out);
    gemm.runCta(h, gemm.grid(0) - gemm.plan.getCtaGroup(), gemm.grid(1) - 1,
                0, out);
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
  KernelPlanAttr p = gemm.plan;
  const int64_t splits = p.getSplitK();
  Host h = randomHost(s, seed);
  std::vector<float> out(s.batch * s.m * s.n, 0.0f);
  const int64_t gx = gemm.grid(0), gy = gemm.grid(1);
  for (int64_t split = 0; split < splits; ++split) {
    gemm.runCta(h, 0, 0, split, out);
    gemm.runCta(h, gx - p.getCtaGroup(), gy - 1,
                (s.batch - 1) * splits + split, out);
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
  // Issue 8 asks for at least 30 random shapes in the GPU suite.
  EXPECT_GE(shapes, 30);
  // They cover several plans (tile_m, split-K).
  EXPECT_GE(plans.size(), 3u);
}

} // namespace
