//===- ProblemScheduler.cpp - the grid of a grouped_problems --------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// How nvfp4-tile maps a grouped_problems (G independent GEMMs, each of its
// own static shape) onto one grid: block y numbers every problem's tiles
// of A's rows in problem order (problem g's are [first[g], first[g + 1])),
// block x a tile of B's rows (up to the widest problem's; a CTA past its
// problem's N exits, with sm_100a's CTA pairs a whole pair: clusters of 2
// along x share a tile of A and their problem). Each CTA finds its problem by
// comparing y with the static prefix sums and switches into that problem's
// gemm_tile, a GEMM tile of the problem's own shapes and tensors: every
// problem's operands and tensor maps are parameters of the one kernel, by
// value. On sm_90a, where the plan has a ring, one pre-pass kernel decodes
// every problem's A into a workspace of its own, on the same grid of tiles (x:
// K chunks); on sm_100a the tiles read A and B through tensor maps of their
// packed bytes, and scales not yet blocked into whole slots are blocked by a
// pre-pass kernel per operand, as for the GEMM.
//
//===----------------------------------------------------------------------===//

#include "../TileBuilders.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Dialect/NVFP4/Tcgen05Tiles.h"
#include "nvfp4/Dialect/NVFP4/WgmmaBTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Builds `body(g, local)` for the problem whose tiles of A's rows,
/// [first[g], first[g + 1]), hold block id y; `local` is y's tile within
/// the problem. The problem is the count of first[g] <= y for g >= 1, and
/// an scf.index_switch on it holds each problem's body.
void forProblemTile(OpBuilder &kb, Location loc, ArrayRef<int64_t> first,
                    function_ref<void(int64_t g, Value local)> body) {
  Value y = scaledBlockId(kb, loc, gpu::Dimension::y, 1);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(kb, loc, v);
  };
  const int64_t problems = static_cast<int64_t>(first.size()) - 1;
  auto localOf = [&](int64_t g) -> Value {
    return g == 0 ? y : arith::SubIOp::create(kb, loc, y, idx(first[g]));
  };
  if (problems == 1)
    return body(0, localOf(0));
  Value problem;
  for (int64_t g = 1; g < problems; ++g) {
    Value past = arith::IndexCastUIOp::create(
        kb, loc, kb.getIndexType(),
        arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::uge, y,
                              idx(first[g])));
    problem = problem ? arith::AddIOp::create(kb, loc, problem, past) : past;
  }
  SmallVector<int64_t> cases;
  for (int64_t g = 0; g < problems; ++g)
    cases.push_back(g);
  auto select = scf::IndexSwitchOp::create(kb, loc, TypeRange(), problem,
                                           cases, problems);
  OpBuilder::InsertionGuard guard(kb);
  for (int64_t g = 0; g < problems; ++g) {
    kb.setInsertionPointToStart(&select.getCaseRegions()[g].emplaceBlock());
    body(g, localOf(g));
    scf::YieldOp::create(kb, loc);
  }
  kb.setInsertionPointToStart(&select.getDefaultRegion().emplaceBlock());
  scf::YieldOp::create(kb, loc);
}

/// Builds `body` where block id x is below `count`; the builder is left
/// after it.
void ifBlockXBelow(OpBuilder &kb, Location loc, int64_t count,
                   int64_t gridX, function_ref<void(Value x)> body) {
  Value x = scaledBlockId(kb, loc, gpu::Dimension::x, 1);
  if (count >= gridX)
    return body(x);
  auto below = arith::CmpIOp::create(
      kb, loc, arith::CmpIPredicate::ult, x,
      arith::ConstantIndexOp::create(kb, loc, count));
  auto ifOp = scf::IfOp::create(kb, loc, below, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(kb);
  kb.setInsertionPointToStart(ifOp.thenBlock());
  body(x);
}

/// The problems' grid (ProblemScheduler.cpp's header): block y's first
/// tile of each problem, the CTAs along x each problem needs
/// (KernelPlanAttr::getCtasAlongN, as in the GEMM), the widest problem's,
/// and the longest K's chunks of 64 values.
struct ProblemGrid {
  SmallVector<int64_t> first = {0}, ctasX;
  int64_t gridX = 1, maxChunks = 1;

  ProblemGrid(ArrayRef<GemmOperands> problems, KernelPlanAttr plan) {
    for (const GemmOperands &p : problems) {
      first.push_back(first.back() +
                      llvm::divideCeil(p.getAShape().rows, plan.getTileM()));
      ctasX.push_back(plan.getCtasAlongN(p.getN()));
      gridX = std::max(gridX, ctasX.back());
      maxChunks = std::max(maxChunks,
                           p.getAShape().k / WgmmaMainloopAttr::kTileK);
    }
  }
};

/// A problem's gemm_tile at rows `m` of A and `n` of B, on its five kernel
/// arguments `args` (A, its scales, B, its scales, C), A as decoded tiles
/// (`aTiles`) or packed bytes (`aBytes`), B through its maps (`bBytes`,
/// `bScales`) where given.
GemmTileOp createProblemTile(OpBuilder &kb, Location loc, ValueRange args,
                             Value m, Value n, Value aTiles, Value aBytes,
                             ValueRange bBytes, ValueRange bScales,
                             KernelPlanAttr plan, ScaleLayout sfaLayout,
                             ScaleLayout sfbLayout) {
  return GemmTileOp::create(
      kb, loc, args[0], args[1], args.slice(2, 1), args.slice(3, 1), args[4],
      /*cScales=*/Value(), /*cGlobalScale=*/Value(), m, n,
      arith::ConstantIndexOp::create(kb, loc, 0), aTiles, aBytes, bBytes,
      bScales, /*split=*/Value(), /*partials=*/Value(), /*group=*/Value(),
      /*rowBegin=*/Value(), /*rowEnd=*/Value(), plan, sfaLayout, sfbLayout,
      ScaleLayout::Plain, /*cScaleRounding=*/ScaleRoundingAttr());
}

/// The kernel of every problem's tiles: its parameters `operands` (each
/// problem's five operands, then each one's `mapsPerProblem` tensor
/// maps), a switch on the CTA's problem into `makeTile(g, m, n, args,
/// maps)` (the problem's five kernel arguments and its maps) where block x
/// is within the problem's N; launched with the plan's CTAs and dynamic
/// shared memory `dynamicShared` (if any), a programmatic dependent when
/// `dependent`.
void buildProblemsKernel(
    GroupedProblemsOp op, ArrayRef<GemmOperands> problems,
    const ProblemGrid &grid, KernelPlanAttr plan, OpBuilder &hb,
    OpBuilder &kb, gpu::GPUModuleOp kernels, StringRef kernelName,
    SymbolTable &symbols,
    ArrayRef<Value> operands, int64_t mapsPerProblem, Value dynamicShared,
    bool dependent,
    function_ref<GemmTileOp(int64_t g, Value m, Value n, ValueRange args,
                             ValueRange maps)>
        makeTile) {
  Location loc = op.getLoc();
  const int64_t count = static_cast<int64_t>(problems.size());
  const int64_t tileM = plan.getTileM(), tileN = plan.getTileN();
  kb.setInsertionPointToEnd(kernels.getBody());
  auto kernel = createKernel(kb, loc, kernelName,
                             ValueRange(operands).getTypes(),
                             plan.getThreadsPerCta(), symbols);
  Block &body = kernel.getBody().front();
  forProblemTile(kb, loc, grid.first, [&](int64_t g, Value local) {
    ifBlockXBelow(kb, loc, grid.ctasX[g], grid.gridX,
                  [&](Value x) {
                    auto cst = [&](int64_t v) -> Value {
                      return arith::ConstantIndexOp::create(kb, loc, v);
                    };
                    GemmTileOp tile = makeTile(
                        g, arith::MulIOp::create(kb, loc, local, cst(tileM)),
                        arith::MulIOp::create(kb, loc, x, cst(tileN)),
                        body.getArguments().slice(5 * g, 5),
                        body.getArguments().slice(
                            5 * count + mapsPerProblem * g, mapsPerProblem));
                    problems[g].buildEpilogue(kb, loc, tile.getEpilogue());
                  });
  });
  gpu::ReturnOp::create(kb, loc);
  if (auto wgmma = plan.getWgmma(); wgmma && wgmma.getProducer())
    kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    kb.getI32IntegerAttr(wgmma.getEntryRegisters()));
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  // CTA pairs: clusters of 2 along x.
  std::optional<gpu::KernelDim3> cluster =
      clusterOf(hb, kb, loc, kernel, plan.getClusterShape());
  auto launch = launchWithPlan(
      hb, loc, kernel,
      gpu::KernelDim3{idx(grid.gridX), idx(grid.first.back()), idx(1)},
      gpu::KernelDim3{idx(plan.getThreadsPerCta()), idx(1), idx(1)},
      dynamicShared, operands, plan, cluster);
  if (dependent)
    launch->setAttr(NVFP4Dialect::kDependentLaunchAttrName, hb.getUnitAttr());
}

/// sm_90a: A decoded once by a pre-pass for a ring (one kernel for every
/// problem), B through registers or the ring (b_tma).
void tileProblemsWgmma(GroupedProblemsOp op, ArrayRef<GemmOperands> problems,
                       KernelPlanAttr plan, gpu::GPUModuleOp kernels,
                       SymbolTable &symbols, StringRef kernelName) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  WgmmaMainloopAttr mainloop = plan.getWgmma();
  const int64_t tileM = plan.getTileM();
  const bool prepass = plan.getStages() > 0, bTma = mainloop.getBTma();
  const BlockFormat format = problems.front().getFormat();
  const ProblemGrid grid(problems, plan);
  OpBuilder hb(op);
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(hb, loc, v);
  };
  OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());

  // The kernel's parameters: each problem's A, its scales, B, its scales
  // and C; then each problem's tensor maps (its decoded tiles of A, and
  // with b_tma B's bytes and scale codes).
  SmallVector<Value> operands, workspaces;
  for (const GemmOperands &p : problems)
    operands.append({p.a, p.sfa, p.b.front(), p.sfb.front(), p.c});
  const int64_t mapsPerProblem = (prepass ? 1 : 0) + (bTma ? 2 : 0);

  if (prepass) {
    // One pre-pass kernel decodes every problem's A: block x -> K chunk,
    // y -> the problems' tiles of A's rows.
    SmallVector<Value> decodeOperands;
    for (const GemmOperands &p : problems) {
      OperandShape a = p.getAShape();
      auto tilesType = MemRefType::get(
          {mainloop.getATilesBytes(1, a.rows, a.k)}, hb.getI8Type());
      workspaces.push_back(allocWorkspace(hb, loc, tilesType));
      decodeOperands.append({p.a, p.sfa, workspaces.back()});
    }
    auto decode = createKernel(
        kb, loc, (kernelName + "_decode_a").str(),
        ValueRange(decodeOperands).getTypes(), mainloop.getDecodeThreads(),
        symbols);
    Block &body = decode.getBody().front();
    // As the GEMM's pre-pass: it waits for its predecessor before touching
    // memory, then lets the GEMM be scheduled.
    NVVM::GriddepcontrolOp::create(kb, loc, NVVM::GridDepActionKind::wait);
    NVVM::GriddepcontrolOp::create(kb, loc,
                                   NVVM::GridDepActionKind::launch_dependents);
    forProblemTile(kb, loc, grid.first, [&](int64_t g, Value local) {
      const int64_t chunks =
          problems[g].getAShape().k / WgmmaMainloopAttr::kTileK;
      ifBlockXBelow(kb, loc, chunks, grid.maxChunks, [&](Value chunk) {
        DecodeATileOp::create(
            kb, loc, body.getArgument(3 * g), body.getArgument(3 * g + 1),
            body.getArgument(3 * g + 2),
            arith::MulIOp::create(
                kb, loc, local,
                arith::ConstantIndexOp::create(kb, loc, tileM)),
            chunk, arith::ConstantIndexOp::create(kb, loc, 0),
            /*rowBegin=*/Value(), /*rowEnd=*/Value(), mainloop,
            op.getSfaLayout());
      });
    });
    gpu::ReturnOp::create(kb, loc);
    auto decodeLaunch = launchWithPlan(
        hb, loc, decode,
        gpu::KernelDim3{idx(grid.maxChunks), idx(grid.first.back()), idx(1)},
        gpu::KernelDim3{idx(mainloop.getDecodeThreads()), idx(1), idx(1)},
        /*dynamicShared=*/Value(), decodeOperands, plan);
    decodeLaunch->setAttr(NVFP4Dialect::kDependentLaunchAttrName,
                          hb.getUnitAttr());
  }
  for (auto [g, p] : llvm::enumerate(problems)) {
    OperandShape a = p.getAShape();
    if (prepass)
      operands.push_back(TensorMapOp::create(
          hb, loc, getATilesMapType(mainloop, 1, a.rows, a.k, format),
          workspaces[g]));
    if (bTma) {
      operands.push_back(TensorMapOp::create(
          hb, loc, getWgmmaBMapType(ctx, mainloop, 1, p.getN(), a.k),
          p.b.front()));
      operands.push_back(TensorMapOp::create(
          hb, loc,
          getWgmmaSfbMapType(ctx, mainloop, format, p.sfbLayout, 1, p.getN(),
                             a.k),
          p.sfb.front()));
    }
  }
  Value dynamicShared;
  if (prepass)
    dynamicShared = arith::ConstantIntOp::create(hb, loc, hb.getI32Type(),
                                                 plan.getSharedBytes());
  buildProblemsKernel(
      op, problems, grid, plan, hb, kb, kernels, kernelName, symbols,
      operands, mapsPerProblem, dynamicShared, /*dependent=*/prepass,
      [&](int64_t g, Value m, Value n, ValueRange args, ValueRange maps) {
        const GemmOperands &p = problems[g];
        // With b_tma the last two maps: B's bytes, its scale codes.
        ValueRange bBytes =
            bTma ? maps.slice(maps.size() - 2, 1) : ValueRange();
        ValueRange bScales = bTma ? maps.take_back(1) : ValueRange();
        return createProblemTile(kb, loc, args, m, n,
                                 prepass ? maps.front() : Value(),
                                 /*aBytes=*/Value(), bBytes, bScales, plan,
                                 p.sfaLayout, p.sfbLayout);
      });
  for (Value workspace : workspaces)
    freeWorkspace(hb, loc, workspace);
}

/// sm_100a: each problem's scales blocked into whole slots (a pre-pass
/// kernel per operand whose scales are not so already), A and B read
/// through tensor maps of their packed bytes.
void tileProblemsTcgen05(GroupedProblemsOp op,
                         ArrayRef<GemmOperands> problems, KernelPlanAttr plan,
                         gpu::GPUModuleOp kernels, SymbolTable &symbols,
                         StringRef kernelName) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  const ProblemGrid grid(problems, plan);
  OpBuilder hb(op);
  OpBuilder kb = OpBuilder::atBlockEnd(kernels.getBody());
  SmallVector<Value> operands, maps, workspaces;
  for (auto [g, p] : llvm::enumerate(problems)) {
    OperandShape a = p.getAShape();
    const std::string suffix = std::to_string(g);
    Value sfa = slotBlockedScales(
        hb, kb, loc, kernels, symbols,
        (kernelName + "_block_sfa" + suffix).str(), p.sfa, p.sfaLayout, a.k,
        a.rows, /*batched=*/false, 1, plan, workspaces);
    Value sfb = slotBlockedScales(
        hb, kb, loc, kernels, symbols,
        (kernelName + "_block_sfb" + suffix).str(), p.sfb.front(),
        p.sfbLayout, a.k, p.getN(), /*batched=*/false, 1, plan, workspaces);
    operands.append({p.a, sfa, p.b.front(), sfb, p.c});
    // A pair's CTAs copy half of the tile of A each.
    maps.push_back(TensorMapOp::create(
        hb, loc,
        getPackedOperandMapType(ctx, 1, a.rows, a.k,
                                plan.getTcgen05().getARowsPerCta()),
        p.a));
    maps.push_back(TensorMapOp::create(
        hb, loc,
        getPackedOperandMapType(ctx, 1, p.getN(), a.k,
                                Tcgen05MainloopAttr::kTileN),
        p.b.front()));
  }
  operands.append(maps);
  buildProblemsKernel(
      op, problems, grid, plan, hb, kb, kernels, kernelName, symbols,
      operands, /*mapsPerProblem=*/2,
      arith::ConstantIntOp::create(hb, loc, hb.getI32Type(),
                                   plan.getSharedBytes()),
      /*dependent=*/false,
      [&](int64_t, Value m, Value n, ValueRange args,
          ValueRange problemMaps) {
        return createProblemTile(kb, loc, args, m, n, /*aTiles=*/Value(),
                                 problemMaps[0], problemMaps.slice(1, 1),
                                 /*bScales=*/ValueRange(), plan,
                                 ScaleLayout::Blocked, ScaleLayout::Blocked);
      });
  for (Value workspace : workspaces)
    freeWorkspace(hb, loc, workspace);
}

} // namespace

void mlir::nvfp4::tileProblems(GroupedProblemsOp op, KernelPlanAttr plan,
                               gpu::GPUModuleOp kernels, SymbolTable &symbols,
                               StringRef kernelName) {
  SmallVector<GemmOperands> problems = getProblemOperands(op);
  if (plan.getTcgen05())
    tileProblemsTcgen05(op, problems, plan, kernels, symbols, kernelName);
  else
    tileProblemsWgmma(op, problems, plan, kernels, symbols, kernelName);
  op.erase();
}
