//===- Compile.cpp - compile an entry function for a GPU target -----------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/Compile.h"

#include "nvfp4/Target/KernelModule.h"
#include "nvfp4/Runtime/TensorMap.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <chrono>
#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;

static FailureOr<unsigned> constantDim(Value v, gpu::LaunchFuncOp op) {
  auto cst = v.getDefiningOp<arith::ConstantIndexOp>();
  if (!cst) {
    op.emitError() << "nvfp4-run launches grids of constant size only";
    return failure();
  }
  int64_t value = cst.value();
  if (value < 1 || value > std::numeric_limits<int32_t>::max()) {
    op.emitError() << "grid or block dimension " << value
                   << " is outside [1, 2^31 - 1]";
    return failure();
  }
  return static_cast<unsigned>(value);
}

llvm::StringMap<PtxasReport> mlir::nvfp4::parsePtxasReport(StringRef log) {
  llvm::StringMap<PtxasReport> reports;
  llvm::Regex function("Function properties for ([A-Za-z0-9_$.]+)");
  llvm::Regex compiling("Compiling entry function '([A-Za-z0-9_$.]+)'");
  llvm::Regex frame("([0-9]+) bytes stack frame, ([0-9]+) bytes spill "
                    "stores, ([0-9]+) bytes spill loads");
  llvm::Regex used("Used ([0-9]+) registers");
  llvm::Regex smem("([0-9]+) bytes smem");
  // Named in the note itself, which may come before its function's lines.
  llvm::Regex serialized("wgmma.mma_async instructions are serialized due to "
                         "(.*) (in|for) the function '([A-Za-z0-9_$.]+)'");
  std::string current;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef, 4> m;
    if (serialized.match(line, &m)) {
      reports[m[3]].wgmmaSerialized = m[1].str();
      continue;
    }
    if (compiling.match(line, &m) || function.match(line, &m)) {
      current = m[1].str();
      continue;
    }
    if (current.empty())
      continue;
    PtxasReport &r = reports[current];
    if (frame.match(line, &m)) {
      m[1].getAsInteger(10, r.stackBytes);
      m[2].getAsInteger(10, r.spillStoreBytes);
      m[3].getAsInteger(10, r.spillLoadBytes);
    }
    if (used.match(line, &m))
      m[1].getAsInteger(10, r.registers);
    if (line.contains("Used") && smem.match(line, &m))
      m[1].getAsInteger(10, r.sharedBytes);
    else if (line.contains("Used") && r.sharedBytes < 0)
      r.sharedBytes = 0;
  }
  return reports;
}

/// Assembles `ptx` for `chip` with `ptxas -v`; the cubin goes to `cubin`,
/// the report to `log`.
static LogicalResult assemble(ModuleOp module, StringRef ptx, StringRef chip,
                              StringRef toolkit, std::string &cubin,
                              std::string &log) {
  std::string ptxas = (toolkit + "/bin/ptxas").str();
  SmallString<128> in, out, report;
  if (llvm::sys::fs::createTemporaryFile("nvfp4", "ptx", in) ||
      llvm::sys::fs::createTemporaryFile("nvfp4", "cubin", out) ||
      llvm::sys::fs::createTemporaryFile("nvfp4", "log", report))
    return module.emitError() << "cannot create temporary files for ptxas";
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(in);
    llvm::sys::fs::remove(out);
    llvm::sys::fs::remove(report);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    if (ec)
      return module.emitError()
             << "cannot write '" << in << "': " << ec.message();
    os << ptx;
  }
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> argv = {ptxas, arch, "-v", in, "-o", out};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(report),
                                          StringRef(report)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, argv, std::nullopt, redirects, 0, 0,
                                     &error);
  auto readFile = [](StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  log = readFile(report);
  if (rc != 0)
    return module.emitError()
           << "ptxas failed ("
           << (error.empty() ? "exit " + std::to_string(rc) : error)
           << "): " << StringRef(log).trim();
  cubin = readFile(out);
  if (cubin.empty())
    return module.emitError() << "ptxas produced no cubin";
  return success();
}

FailureOr<CompiledEntry>
mlir::nvfp4::compileEntry(ModuleOp module, StringRef entry, StringRef target,
                          StringRef format, StringRef toolkit) {
  auto start = std::chrono::steady_clock::now();
  // Only the entry is compiled: other functions of the file (which may hold
  // ops that have no kernel for this target) are not its concern.
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (fn.getSymName() != entry)
      fn.erase();
  NVFP4PipelineOptions options;
  options.target = target.str();
  // Cubins: stop at PTX and run ptxas here, with -v for the report.
  options.format = format == "bin" ? "isa" : format.str();
  options.toolkit = toolkit.str();
  if (failed(runNVFP4Pipeline(module, options)))
    return failure();

  CompiledEntry result;
  result.format = format.str();
  if (format != "none") {
    SmallVector<StringRef> chips;
    for (auto binary : module.getOps<gpu::BinaryOp>()) {
      if (binary.getObjects().size() != 1) {
        binary.emitError() << "expects one object in each gpu.binary";
        return failure();
      }
      auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
      auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!nvvm) {
        binary.emitError() << "expects an #nvvm.target object, but got "
                           << object.getTarget();
        return failure();
      }
      result.images.push_back(
          {binary.getName().str(), object.getObject().getValue().str()});
      chips.push_back(nvvm.getChip());
    }
    if (result.images.empty() ||
        result.images.front().binary != kKernelModuleName) {
      module.emitError() << "the pipeline produced no gpu.binary @"
                         << kKernelModuleName;
      return failure();
    }
    if (format == "bin") {
      // ptxas on each image, in parallel (each is its own process).
      SmallVector<std::string> logs(result.images.size());
      if (failed(failableParallelForEachN(
              module.getContext(), 0, result.images.size(),
              [&](size_t i) -> LogicalResult {
                std::string cubin;
                if (failed(assemble(module, result.images[i].image, chips[i],
                                    toolkit, cubin, logs[i])))
                  return failure();
                result.images[i].image = std::move(cubin);
                return success();
              })))
        return failure();
      for (const std::string &log : logs)
        for (auto &report : parsePtxasReport(log))
          result.ptxas[report.getKey()] = report.getValue();
    }
  }
  auto fn = module.lookupSymbol<func::FuncOp>(entry);
  if (!fn)
    return failure();
  llvm::DenseMap<Operation *, unsigned> workspaces;
  WalkResult walk = fn.walk([&](gpu::LaunchFuncOp launch) {
    KernelLaunch k;
    k.kernel = launch.getKernelName().str();
    Value dims[6] = {launch.getGridSizeX(),  launch.getGridSizeY(),
                     launch.getGridSizeZ(),  launch.getBlockSizeX(),
                     launch.getBlockSizeY(), launch.getBlockSizeZ()};
    for (int i = 0; i < 6; ++i) {
      FailureOr<unsigned> d = constantDim(dims[i], launch);
      if (failed(d))
        return WalkResult::interrupt();
      (i < 3 ? k.grid[i] : k.block[i - 3]) = *d;
    }
    if (launch.hasClusterSize()) {
      Value cluster[3] = {launch.getClusterSizeX(), launch.getClusterSizeY(),
                          launch.getClusterSizeZ()};
      for (int i = 0; i < 3; ++i) {
        FailureOr<unsigned> d = constantDim(cluster[i], launch);
        if (failed(d))
          return WalkResult::interrupt();
        k.cluster[i] = *d;
      }
    }
    if (Value dyn = launch.getDynamicSharedMemorySize()) {
      auto cst = dyn.getDefiningOp<arith::ConstantIntOp>();
      if (!cst || cst.value() < 0 || cst.value() > (1 << 30)) {
        launch.emitError() << "nvfp4-run launches with a constant dynamic "
                              "shared memory size only";
        return WalkResult::interrupt();
      }
      k.dynamicSharedBytes = static_cast<unsigned>(cst.value());
    }
    k.dependent = launch->hasAttr(NVFP4Dialect::kDependentLaunchAttrName);
    for (Value operand : launch.getKernelOperands()) {
      KernelOperand o;
      Value buffer = operand;
      if (auto map = operand.getDefiningOp<TensorMapOp>()) {
        o.tensorMap = getTensorMapEncoding(map.getType());
        buffer = map.getSource();
      }
      if (auto arg = dyn_cast<BlockArgument>(buffer);
          arg && arg.getOwner()->getParentOp() == fn) {
        o.index = arg.getArgNumber();
        k.operands.push_back(o);
        continue;
      }
      auto alloc = buffer.getDefiningOp<gpu::AllocOp>();
      auto type = alloc ? dyn_cast<MemRefType>(alloc.getType()) : MemRefType();
      if (!type || !type.hasStaticShape()) {
        launch.emitError() << "kernel operands must be entry arguments, "
                              "statically shaped gpu.alloc workspaces, or "
                              "nvfp4.tensor_map of either";
        return WalkResult::interrupt();
      }
      auto [it, inserted] = workspaces.try_emplace(
          alloc.getOperation(), result.workspaceBytes.size());
      if (inserted)
        result.workspaceBytes.push_back(type.getNumElements() *
                                        type.getElementTypeBitWidth() / 8);
      o.workspace = true;
      o.index = it->second;
      k.operands.push_back(o);
    }
    if (Attribute plan = launch->getAttr(NVFP4Dialect::kPlanAttrName)) {
      llvm::raw_string_ostream os(k.plan);
      plan.print(os);
    }
    result.launches.push_back(std::move(k));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  result.compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}
