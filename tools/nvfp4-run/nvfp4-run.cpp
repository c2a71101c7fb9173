//===- nvfp4-run.cpp - compile, run, check and time an nvfp4 kernel ---------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4-run file.mlir [--entry NAME] [--seed N] [--inputs a.npy,...]
//                     [--output out.npy,...]
//
// Parses the file, finds the entry function, makes its inputs (seeded random
// data over all bit patterns, or .npy files in argument order), runs the CPU
// reference, writes the outputs as .npy, and prints a one-line summary. Every
// failure is reported as `nvfp4-run: error: ...` with a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/InitAll.h"
#include "nvfp4/Runner/CpuExecutor.h"
#include "nvfp4/Runner/HostBuffer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("nvfp4-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::Required, cl::cat(runCategory));
static cl::opt<std::string>
    entryName("entry", cl::desc("Entry function (default: the only public "
                                "function with a body)"),
              cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                              cl::init(0), cl::cat(runCategory));
static cl::list<std::string>
    inputFiles("inputs",
               cl::desc("Comma-separated .npy files, one per input argument "
                        "in argument order"),
               cl::CommaSeparated, cl::cat(runCategory));
static cl::list<std::string>
    outputFiles("output",
                cl::desc("Comma-separated .npy files, one per output argument "
                         "in argument order"),
                cl::CommaSeparated, cl::cat(runCategory));
static cl::opt<unsigned> maxScaleCode(
    "max-scale-code",
    cl::desc("Largest e4m3 code drawn for random scales (default 0x47 = 3.75; "
             "126 = 0x7E draws every finite positive code)"),
    cl::init(0x47), cl::cat(runCategory));

static int fail(const Twine &message) {
  llvm::errs() << "nvfp4-run: error: " << message << "\n";
  return 1;
}

/// Finds the entry function, or explains what is there.
static FailureOr<func::FuncOp> findEntry(ModuleOp module) {
  SmallVector<func::FuncOp> candidates;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal() && (!entryName.empty() || fn.isPublic()))
      candidates.push_back(fn);
  std::string names;
  for (auto fn : candidates)
    names += (names.empty() ? "@" : ", @") + fn.getSymName().str();
  if (!entryName.empty()) {
    for (auto fn : candidates)
      if (fn.getSymName() == entryName)
        return fn;
    fail("no function @" + entryName + " in '" + inputFile + "'" +
         (names.empty() ? std::string(" (it defines no function)")
                        : " (functions: " + names + ")"));
    return failure();
  }
  if (candidates.size() == 1)
    return candidates.front();
  if (candidates.empty())
    fail("'" + inputFile + "' defines no public function with a body to run");
  else
    fail("'" + inputFile + "' defines several functions (" + names +
         "); pick one with --entry");
  return failure();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "nvfp4-run: compile an nvfp4 kernel, run it, check it against the CPU "
      "reference\n");
  if (maxScaleCode > 0x7E)
    return fail("--max-scale-code must be at most 126 (0x7E, the largest "
                "finite e4m3 code)");

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file)
    return fail("cannot read '" + inputFile + "': " + errorMessage);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + inputFile + "' (diagnostics above)");

  FailureOr<func::FuncOp> entry = findEntry(*module);
  if (failed(entry))
    return 1;
  FailureOr<EntrySignature> sig = analyzeEntry(*entry);
  if (failed(sig))
    return fail("cannot run @" + entry->getSymName() + " (diagnostics above)");

  // Buffers for every argument: inputs from .npy files or seeded random data.
  SmallVector<HostBuffer> args;
  for (Type type : entry->getArgumentTypes())
    args.emplace_back(cast<MemRefType>(type));
  if (!inputFiles.empty() && inputFiles.size() != sig->inputs.size())
    return fail("@" + entry->getSymName() + " reads " +
                Twine(sig->inputs.size()) + " input arguments, but --inputs "
                "names " + Twine(inputFiles.size()) + " files");
  if (!outputFiles.empty() && outputFiles.size() != sig->outputs.size())
    return fail("@" + entry->getSymName() + " writes " +
                Twine(sig->outputs.size()) +
                " output arguments, but --output names " +
                Twine(outputFiles.size()) + " files");
  RandomOptions random;
  random.seed = seed;
  random.maxScaleCode = static_cast<uint8_t>(maxScaleCode);
  for (auto [i, argIndex] : llvm::enumerate(sig->inputs)) {
    if (inputFiles.empty()) {
      args[argIndex].fillRandom(random, argIndex);
      continue;
    }
    std::string error;
    if (!args[argIndex].loadNpy(inputFiles[i], error))
      return fail("input #" + Twine(i) + " (argument #" + Twine(argIndex) +
                  "): " + error);
  }

  auto start = std::chrono::steady_clock::now();
  if (failed(executeOnCpu(*entry, args)))
    return fail("the CPU reference failed on @" + entry->getSymName());
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();

  for (auto [i, argIndex] : llvm::enumerate(sig->outputs)) {
    if (outputFiles.empty())
      break;
    std::string error;
    if (!args[argIndex].saveNpy(outputFiles[i], error))
      return fail("output #" + Twine(i) + ": " + error);
  }

  // One-line summary: what ran, where, and a fingerprint of the first output.
  HostBuffer &out = args[sig->outputs.front()];
  std::string fingerprint;
  Type outElem = out.type.getElementType();
  if (outElem.isF16() || outElem.isBF16() || outElem.isF32()) {
    std::vector<float> values = out.toFloats();
    double sum = 0, absMax = 0;
    int64_t nonFinite = 0;
    for (float v : values) {
      if (!std::isfinite(v)) {
        ++nonFinite;
        continue;
      }
      sum += v;
      absMax = std::max(absMax, std::fabs(static_cast<double>(v)));
    }
    fingerprint = llvm::formatv("sum={0:e6} absmax={1:e6} nonfinite={2}", sum,
                                absMax, nonFinite)
                      .str();
  } else {
    uint64_t hash = 1469598103934665603ull;
    for (uint8_t b : out.bytes)
      hash = (hash ^ b) * 1099511628211ull;
    fingerprint = llvm::formatv("fnv1a={0:x16}", hash).str();
  }
  std::string kernels;
  for (Operation &op : entry->getBody().front())
    if (!isa<func::ReturnOp>(op))
      kernels += (kernels.empty() ? "" : "+") + op.getName().getStringRef().str();
  llvm::outs() << llvm::formatv(
      "nvfp4-run: @{0} {1} on cpu-reference: {2} inputs ({3}), output {4} "
      "{5}, {6:f2} ms\n",
      entry->getSymName(), kernels, sig->inputs.size(),
      inputFiles.empty() ? "random, seed " + std::to_string(seed)
                         : std::string("npy"),
      typeToString(out.type), fingerprint, ms);
  return 0;
}
