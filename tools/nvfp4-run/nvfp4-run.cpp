//===- nvfp4-run.cpp - compile, run, check and time an nvfp4 kernel -------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4-run file.mlir [--entry NAME] [--seed N] [--inputs a.npy,...]
//                     [--output out.npy,...] [--target sm_90a|sm_100a]
//                     [--bench] [--require-gpu] [--save-inputs DIR]
//                     [--emit=mlir|llvm|ptx|cubin -o FILE] [--probe-gpu]
//
// Parses the file, finds the entry function, makes its inputs (seeded random
// data over all bit patterns, or .npy files in argument order), compiles it
// through the nvfp4 pipeline for the target, runs it on the GPU through the
// CUDA Driver API when the GPU is that target, checks the result against the
// CPU reference (|out - ref| <= 1e-3 + 1e-3 |ref|), optionally times it, and
// writes the outputs as .npy. Without a GPU (or driver) it compiles for the
// target and runs the CPU reference, unless --require-gpu or --bench says
// that only a GPU run will do. Every failure is reported as
// `nvfp4-run: error: ...` with a non-zero exit. The work is in lib/Runner
// (compile, run on a Device, check, time); this file parses options and
// prints.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/InitAll.h"
#include "nvfp4/Runner/Check.h"
#include "nvfp4/Runner/Compile.h"
#include "nvfp4/Runner/CpuExecutor.h"
#include "nvfp4/Runner/DeviceRun.h"
#include "nvfp4/Runner/GroupedInputs.h"
#include "nvfp4/Runner/HostBuffer.h"
#include "nvfp4/Runner/Predict.h"
#include "nvfp4/Runtime/CudaDriver.h"
#include "nvfp4/Support/Nesting.h"
#include "nvfp4/Target/KernelModule.h"
#include "nvfp4/Target/Target.h"
#include "nvfp4/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::nvfp4;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("nvfp4-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::cat(runCategory));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("Entry function (default: the only public "
                       "function with a body)"),
              cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the random inputs (default 0)"),
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
static cl::list<unsigned> e8m0Range(
    "e8m0-range",
    cl::desc("LO,HI: the e8m0 (MXFP4) codes drawn for random scales, "
             "inclusive (default 124,128 = 2^-3..2^1; 0,254 draws every "
             "finite scale)"),
    cl::CommaSeparated, cl::cat(runCategory));

static cl::opt<std::string>
    targetName("target",
               cl::desc("GPU target: sm_100a (B200) or sm_90a (H100/H200); "
                        "default: the GPU's own, or sm_100a without a GPU"),
               cl::cat(runCategory));
static cl::opt<std::string>
    emit("emit",
         cl::desc("Write one stage instead of running (to -o, default "
                  "stdout): mlir (after the pipeline, before "
                  "serialization), llvm, ptx, or cubin (needs ptxas)"),
         cl::cat(runCategory));
static cl::opt<bool>
    cpuOnly("cpu",
            cl::desc("Run only the CPU reference: no compilation, no "
                     "GPU (every nvfp4 op, including those without a "
                     "GPU kernel yet)"),
            cl::cat(runCategory));
static cl::opt<std::string> emitFile("o", cl::desc("Output file for --emit"),
                                     cl::init("-"), cl::cat(runCategory));
static cl::opt<bool> bench("bench",
                           cl::desc("Time the kernel on the GPU over rotating "
                                    "buffers larger than L2: median of "
                                    "--iters single launches, and of batches "
                                    "of 10 back-to-back launches"),
                           cl::cat(runCategory));
static cl::opt<unsigned> iters("iters",
                               cl::desc("Timed launches for --bench "
                                        "(default 100)"),
                               cl::init(100), cl::cat(runCategory));
static cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("CUDA toolkit root holding bin/ptxas (default "
                      "/usr/local/cuda); without ptxas the kernels are "
                      "compiled to PTX, which the CUDA driver assembles"),
             cl::init("/usr/local/cuda"), cl::cat(runCategory));
static cl::opt<bool> requireGpu(
    "require-gpu",
    cl::desc("Fail unless the kernels ran on the GPU and were checked "
             "against the CPU reference (GPU tests and benchmarks use it)"),
    cl::cat(runCategory));
static cl::opt<bool> probeGpu(
    "probe-gpu",
    cl::desc("Print the GPU the CUDA driver reports ('gpu: sm_90a NVIDIA "
             "H200') and exit 0 when nvfp4 targets it, else say why and "
             "exit 1"),
    cl::cat(runCategory));
static cl::list<int64_t> groupSizes(
    "group-sizes",
    cl::desc("A grouped GEMM's row counts, one per group (its offsets are "
             "written from them; default: the op's size_hint, else the rows "
             "split evenly; with --inputs, the offsets file's)"),
    cl::CommaSeparated, cl::cat(runCategory));
static cl::opt<std::string> saveInputs(
    "save-inputs",
    cl::desc("Write the inputs (random or loaded) to DIR/input<i>.npy, in "
             "argument order, so a run can be repeated with --inputs"),
    cl::value_desc("DIR"), cl::cat(runCategory));
static cl::opt<int64_t> perturbOutput(
    "perturb-output",
    cl::desc("Testing only: change this flat element of the first output "
             "after the kernels ran, to show that the check catches it"),
    cl::init(-1), cl::Hidden, cl::cat(runCategory));
static cl::opt<uint64_t> hostMemoryAvailable(
    "host-memory-available",
    cl::desc("Testing only: take this many bytes as the host memory "
             "available instead of the machine's MemAvailable"),
    cl::Hidden, cl::cat(runCategory));

/// Host memory the run may allocate for its buffers (the inputs, the
/// outputs, and a reference copy of each).
static constexpr uint64_t kHostBufferLimit = uint64_t(64) << 30;

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

/// Writes the compiled stage to the --emit destination and says on stderr
/// what was written; refuses binary to a terminal. Text stages of several
/// binaries (entries of more than kOpsPerKernelModule ops) follow each
/// other, each under a comment naming its gpu.binary; several cubins go to
/// FILE, then FILE with .1, .2, ... before its extension.
static int emitImage(const CompiledEntry &kernels, StringRef format,
                     ModuleOp compiled, StringRef entry, StringRef target) {
  if (format == "bin" && emitFile == "-" &&
      llvm::sys::Process::StandardOutIsDisplayed())
    return fail("--emit=cubin writes binary data; refusing to write it to a "
                "terminal (use -o FILE or a redirection)");
  const size_t images = format == "none" ? 1 : kernels.images.size();
  if (format == "bin" && images > 1 && emitFile == "-")
    return fail("the kernels of @" + entry + " are in " + Twine(images) +
                " cubins (one per " + Twine(kOpsPerKernelModule) +
                " ops); --emit=cubin needs -o FILE to write them to FILE "
                "and numbered files beside it");
  std::string error;
  SmallVector<std::string> paths;
  uint64_t written = 0;
  for (size_t i = 0; i < (format == "bin" ? images : 1); ++i) {
    std::string path = emitFile;
    if (i) {
      SmallString<128> numbered(emitFile);
      std::string ext = llvm::sys::path::extension(emitFile).str();
      llvm::sys::path::replace_extension(numbered, std::to_string(i) + ext);
      path = std::string(numbered);
    }
    auto out = openOutputFile(path, &error);
    if (!out)
      return fail("cannot write '" + path + "': " + error);
    if (format == "bin" && path != "-" && out->os().is_displayed())
      return fail("--emit=cubin writes binary data; refusing to write it to "
                  "the terminal '" +
                  path + "'");
    if (format == "none") {
      compiled->print(out->os());
    } else if (format == "bin") {
      out->os() << kernels.images[i].image;
    } else {
      for (const KernelImage &k : kernels.images) {
        if (images > 1)
          out->os() << (format == "llvm" ? "; " : "// ") << "gpu.binary @"
                    << k.binary << "\n";
        if (format == "isa") {
          out->os() << k.image;
          continue;
        }
        // gpu-module-to-binary stores LLVM bitcode; print it as text.
        llvm::LLVMContext llvmContext;
        auto llvmModule = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(k.image, k.binary), llvmContext);
        if (!llvmModule)
          return fail("cannot read the LLVM bitcode of the kernels: " +
                      llvm::toString(llvmModule.takeError()));
        (*llvmModule)->print(out->os(), nullptr);
      }
    }
    written += out->os().tell();
    out->keep();
    paths.push_back(path == "-" ? std::string("stdout") : "'" + path + "'");
  }
  // What was written, on stderr so that it never mixes with the data.
  StringRef what = format == "none"   ? "MLIR"
                   : format == "llvm" ? "LLVM IR"
                   : format == "isa"  ? "PTX"
                                      : "cubin";
  // The kernels, and their plan (once when they share it).
  llvm::SetVector<StringRef> plans;
  for (const KernelLaunch &k : kernels.launches)
    if (!k.plan.empty())
      plans.insert(k.plan);
  std::string kernelList;
  for (const KernelLaunch &k : kernels.launches)
    kernelList +=
        (kernelList.empty() ? "" : ", ") + ("@" + k.kernel) +
        (plans.size() > 1 && !k.plan.empty() ? " (plan " + k.plan + ")" : "");
  if (plans.size() == 1)
    kernelList += ("; plan " + plans.front()).str();
  llvm::errs() << llvm::formatv(
      "nvfp4-run: @{0}: wrote {1} bytes of {2} for {3} to {4}: {5} "
      "kernel{6}{7}{8}\n",
      entry, written, what, target, llvm::join(paths, ", "),
      kernels.launches.size(), kernels.launches.size() == 1 ? "" : "s",
      kernelList.empty() ? "" : ": ", kernelList);
  return 0;
}

/// sm_100a only: the predicted B200 time of each GEMM's plan (we have no
/// B200 to measure it on; lib/Runner/Predict.h says what is modeled).
static void printB200Predictions(ModuleOp module, StringRef entry,
                                 StringRef target) {
  if (target != "sm_100a")
    return;
  for (const GemmPrediction &p : predictB200Entry(module, entry))
    llvm::outs() << formatPrediction(p, entry) << "\n";
}

/// One line per compiled kernel: what a kernel author checks first.
static void printKernels(const CompiledEntry &kernels, StringRef target,
                         Device *device) {
  llvm::outs() << llvm::formatv(
      "nvfp4-run: compiled for {0} in {1:f3} s ({2} kernel{3}, {4})\n", target,
      kernels.compileSeconds, kernels.launches.size(),
      kernels.launches.size() == 1 ? "" : "s",
      kernels.format == "bin" ? "cubin" : kernels.format);
  for (const KernelLaunch &k : kernels.launches) {
    std::string line = llvm::formatv(
        "nvfp4-run: kernel @{0}: grid ({1}, {2}, {3}), block ({4}, {5}, {6})",
        k.kernel, k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1],
        k.block[2]);
    if (k.cluster[0] * k.cluster[1] * k.cluster[2] > 1)
      line += llvm::formatv(", cluster ({0}, {1}, {2})", k.cluster[0],
                            k.cluster[1], k.cluster[2]);
    if (k.dynamicSharedBytes)
      line += llvm::formatv(", {0} bytes dynamic smem", k.dynamicSharedBytes);
    // Parameters passed as by-value tensor maps, and what they describe.
    for (auto [i, o] : llvm::enumerate(k.operands)) {
      if (!o.tensorMap)
        continue;
      const TensorMapEncoding &e = *o.tensorMap;
      std::string dims, box;
      for (int d = static_cast<int>(e.rank) - 1; d >= 0; --d) {
        dims += std::to_string(e.globalDim[d]) + (d ? "x" : "");
        box += std::to_string(e.boxDim[d]) + (d ? "x" : "");
      }
      static const char *const swizzles[] = {"none", "32B", "64B", "128B"};
      line += llvm::formatv("; param {0}: tensor map of {1} #{2} ({3}, box "
                            "{4}, swizzle {5})",
                            i, o.workspace ? "workspace" : "argument", o.index,
                            dims, box,
                            e.swizzle < 4 ? swizzles[e.swizzle] : "other");
    }
    auto it = kernels.ptxas.find(k.kernel);
    if (it != kernels.ptxas.end()) {
      const PtxasReport &r = it->second;
      line += llvm::formatv("; ptxas: {0} registers, {1} bytes smem, {2} "
                            "bytes stack, {3} bytes spill stores, {4} bytes "
                            "spill loads",
                            r.registers, r.sharedBytes, r.stackBytes,
                            r.spillStoreBytes, r.spillLoadBytes);
    }
    KernelResources res;
    std::string error;
    if (device && device->kernelResources(k.kernel, res, error))
      line +=
          llvm::formatv("; driver: {0} registers, {1} bytes static smem, "
                        "{2} bytes local",
                        res.registers, res.staticSharedBytes, res.localBytes);
    if (!k.plan.empty())
      line += "; plan " + k.plan;
    llvm::outs() << line << "\n";
    const std::string planNote =
        k.plan.empty() ? std::string() : " (plan " + k.plan + ")";
    // The plan verifiers budget registers by an estimate; ptxas has the
    // last word. A spilling kernel is correct but slower: say so.
    if (it != kernels.ptxas.end() && it->second.spillStoreBytes > 0) {
      llvm::outs().flush(); // after its kernel's line, also in one stream
      llvm::errs() << llvm::formatv(
          "nvfp4-run: warning: kernel @{0} spills {1} bytes to local memory "
          "under ptxas ({2} registers per thread): correct, but slower{3}; "
          "a smaller b_prefetch, tile_m or k_groups, or more ring rounds "
          "(stages / k_groups), needs fewer registers\n",
          k.kernel, it->second.spillStoreBytes, it->second.registers, planNote);
    }
    // So is one whose wgmmas ptxas serializes (each waits for the last):
    // two chunks a slot or two weights at a large tile_m can do that
    // without spilling (performance.md, slots v1 and v2).
    if (it != kernels.ptxas.end() && !it->second.wgmmaSerialized.empty()) {
      llvm::outs().flush();
      llvm::errs() << llvm::formatv(
          "nvfp4-run: warning: kernel @{0}: ptxas serializes its "
          "wgmma.mma_async instructions ({1}): correct, but slower{2}; a "
          "smaller tile_m, slot_chunks = 1 or fewer weights needs fewer "
          "registers\n",
          k.kernel, it->second.wgmmaSerialized, planNote);
    }
  }
}

/// A fingerprint of one output for the summary line.
static std::string fingerprint(const HostBuffer &out) {
  Type e = out.type.getElementType();
  if (e.isF16() || e.isBF16() || e.isF32()) {
    double sum = 0, absMax = 0;
    int64_t nonFinite = 0;
    for (float v : out.toFloats()) {
      if (!std::isfinite(v)) {
        ++nonFinite;
        continue;
      }
      sum += v;
      absMax = std::max(absMax, std::fabs(static_cast<double>(v)));
    }
    int64_t values = out.type.getNumElements();
    if (nonFinite == values)
      return llvm::formatv("no finite values (nonfinite={0} of {0})", nonFinite)
          .str();
    if (nonFinite)
      return llvm::formatv("sum={0:e6} absmax={1:e6} over the {2} finite "
                           "values, nonfinite={3}",
                           sum, absMax, values - nonFinite, nonFinite)
          .str();
    return llvm::formatv("sum={0:e6} absmax={1:e6} nonfinite=0", sum, absMax)
        .str();
  }
  uint64_t hash = 1469598103934665603ull;
  for (uint8_t b : out.bytes)
    hash = (hash ^ b) * 1099511628211ull;
  return llvm::formatv("fnv1a={0:x16}", hash).str();
}

static int run(int argc, char **argv) {
  cl::HideUnrelatedOptions(runCategory);
  cl::AddExtraVersionPrinter([](raw_ostream &os) {
    os << "nvfp4 " << NVFP4_VERSION_STRING << " (commit " << NVFP4_GIT_COMMIT
       << ")\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "nvfp4-run: compile an nvfp4 kernel, run it, check it against the CPU "
      "reference\n");

  if (probeGpu) {
    std::string error;
    std::unique_ptr<CudaDriver> gpu = CudaDriver::open(error);
    if (!gpu) {
      llvm::outs() << "no gpu: " << error << "\n";
      return 1;
    }
    llvm::outs() << "gpu: " << gpu->archName() << " " << gpu->deviceName()
                 << "\n";
    if (!parseGpuTarget(gpu->archName())) {
      llvm::outs() << "nvfp4 does not target " << gpu->archName()
                   << "; supported targets: " << supportedGpuTargets() << "\n";
      return 1;
    }
    return 0;
  }
  if (inputFile.empty())
    return fail("no input file; usage: nvfp4-run file.mlir [options] "
                "(--help lists them)");
  // An option given an empty value (a script's unset variable) must not
  // silently mean its default.
  for (auto [option, name] :
       {std::pair<cl::opt<std::string> *, StringRef>{&targetName, "--target"},
        {&entryName, "--entry"},
        {&emit, "--emit"},
        {&cudaPath, "--cuda-path"},
        {&emitFile, "-o"},
        {&saveInputs, "--save-inputs"}})
    if (option->getNumOccurrences() && StringRef(*option).trim().empty())
      return fail(Twine(name) +
                  " was given an empty value; name one, or leave the option "
                  "out for its default");
  if (entryName.getNumOccurrences() && entryName == "@")
    return fail("--entry was given '@' without a function name");
  // Option combinations that cannot do what they say.
  if (cpuOnly && !emit.empty())
    return fail("--cpu runs the CPU reference only; it cannot --emit a "
                "compiled stage");
  if (cpuOnly && (bench || requireGpu))
    return fail(Twine("--cpu runs the CPU reference only; it cannot ") +
                (bench ? "--bench" : "--require-gpu"));
  if (!emit.empty() && (bench || requireGpu))
    return fail(Twine("--emit prints a compiled stage and runs nothing; it "
                      "cannot be combined with ") +
                (bench ? "--bench" : "--require-gpu"));
  // The run's options mean nothing when nothing runs: say so rather than
  // ignore them.
  if (!emit.empty()) {
    for (auto [given, name] : {std::pair<bool, StringRef>{
                                   seed.getNumOccurrences() > 0, "--seed"},
                               {!inputFiles.empty(), "--inputs"},
                               {!outputFiles.empty(), "--output"},
                               {saveInputs.getNumOccurrences() > 0,
                                "--save-inputs"},
                               {!groupSizes.empty(), "--group-sizes"},
                               {maxScaleCode.getNumOccurrences() > 0,
                                "--max-scale-code"},
                               {e8m0Range.getNumOccurrences() > 0,
                                "--e8m0-range"},
                               {perturbOutput.getNumOccurrences() > 0,
                                "--perturb-output"}})
      if (given)
        return fail(Twine("--emit prints a compiled stage and runs "
                         "nothing; ") +
                    name + " applies to a run");
  }
  if (emitFile.getNumOccurrences() && emit.empty())
    return fail("-o names the file for --emit; without --emit nothing is "
                "written to it (outputs go to --output)");
  if (iters == 0)
    return fail("--iters must be at least 1");
  if (iters.getNumOccurrences() && !bench)
    return fail("--iters sets how many launches --bench times; without "
                "--bench nothing is timed");
  // Options of the random inputs mean nothing for loaded ones: say so
  // rather than ignore them.
  if (!inputFiles.empty() &&
      (seed.getNumOccurrences() || maxScaleCode.getNumOccurrences() ||
       e8m0Range.getNumOccurrences()))
    return fail(Twine(seed.getNumOccurrences()           ? "--seed"
                      : maxScaleCode.getNumOccurrences() ? "--max-scale-code"
                                                         : "--e8m0-range") +
                " shapes the random inputs, but --inputs loads them from "
                ".npy files");
  if (e8m0Range.getNumOccurrences() &&
      (e8m0Range.size() != 2 || e8m0Range[0] > e8m0Range[1] ||
       e8m0Range[1] > 0xFF))
    return fail("--e8m0-range takes two codes LO,HI with LO <= HI <= 255 "
                "(254 is the largest finite e8m0 scale, 2^127; 255 is NaN)");
  if (perturbOutput.getNumOccurrences() && perturbOutput < 0)
    return fail("--perturb-output names a flat element index (>= 0)");
  if (maxScaleCode > 0x7E)
    return fail("--max-scale-code must be at most 126 (0x7E, the largest "
                "finite e4m3 code)");
  // `--entry @name` names the function as IR spells it.
  if (StringRef(entryName).starts_with("@"))
    entryName = entryName.substr(1);
  for (std::string &file : inputFiles)
    file = StringRef(file).trim().str();
  for (std::string &file : outputFiles)
    file = StringRef(file).trim().str();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllPasses();
  MLIRContext context(registry);
  // Diagnostics name the op and location; a dump of the op is noise here.
  context.printOpOnDiagnostic(false);
  context.loadAllAvailableDialects();

  std::string errorMessage;
  auto file = openInputFile(inputFile, &errorMessage);
  if (!file)
    return fail("cannot read '" + inputFile + "': " + errorMessage);
  if (std::optional<std::string> deep = checkNestingDepth(file->getBuffer()))
    return fail("cannot parse '" + inputFile + "': " + *deep);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + inputFile + "' (diagnostics above)");

  FailureOr<func::FuncOp> entry = findEntry(*module);
  if (failed(entry))
    return 1;
  FailureOr<EntrySignature> sig = analyzeEntry(*entry);
  if (failed(sig))
    return fail("cannot run @" + entry->getSymName() + " (diagnostics above)");
  if (!inputFiles.empty() && inputFiles.size() != sig->inputs.size())
    return fail("@" + entry->getSymName() + " reads " +
                Twine(sig->inputs.size()) +
                " input arguments, but --inputs "
                "names " +
                Twine(inputFiles.size()) + " files");
  if (!outputFiles.empty() && outputFiles.size() != sig->outputs.size())
    return fail("@" + entry->getSymName() + " writes " +
                Twine(sig->outputs.size()) +
                " output arguments, but --output names " +
                Twine(outputFiles.size()) + " files");
  // The random scale options shape one scale format each: one whose format
  // no input has is noted, not silently dropped (scripts/nvfp4 run passes
  // the same options to examples of both formats).
  auto inputHas = [&](auto isElement) {
    return llvm::any_of(sig->inputs, [&](unsigned i) {
      return isElement(
          cast<MemRefType>(entry->getArgumentTypes()[i]).getElementType());
    });
  };
  if (maxScaleCode.getNumOccurrences() &&
      !inputHas([](Type t) { return isa<Float8E4M3FNType>(t); }))
    llvm::errs() << "nvfp4-run: note: --max-scale-code ignored: no input of @"
                 << entry->getSymName() << " has e4m3 (NVFP4) scales\n";
  if (e8m0Range.getNumOccurrences() &&
      !inputHas([](Type t) { return isa<Float8E8M0FNUType>(t); }))
    llvm::errs() << "nvfp4-run: note: --e8m0-range ignored: no input of @"
                 << entry->getSymName() << " has e8m0 (MXFP4) scales\n";
  if (!groupSizes.empty()) {
    std::string error;
    if (!checkGroupSizes(*entry, groupSizes, error))
      return fail(error);
  }

  // Target: the GPU's own by default, sm_100a without one.
  std::string driverError = "--cpu";
  std::unique_ptr<CudaDriver> gpu;
  if (emit.empty() && !cpuOnly)
    gpu = CudaDriver::open(driverError);
  std::string target = targetName;
  if (target.empty()) {
    if (gpu && !parseGpuTarget(gpu->archName()))
      return fail("the GPU is " + gpu->archName() + " (" + gpu->deviceName() +
                  "), which nvfp4 does not target; supported targets: " +
                  supportedGpuTargets() +
                  " (name one with --target to compile for it and run the "
                  "CPU reference)");
    target = gpu ? gpu->archName() : "sm_100a";
  }
  if (!parseGpuTarget(target))
    return fail("unsupported target '" + target +
                "'; supported targets: " + supportedGpuTargets());
  const bool onGpu = gpu && gpu->archName() == target;
  if ((bench || requireGpu || perturbOutput.getNumOccurrences()) && !onGpu)
    return fail(
        Twine(bench        ? "--bench"
              : requireGpu ? "--require-gpu"
                           : "--perturb-output") +
        " needs a " + target + " GPU to run the kernels on, but " +
        (gpu ? "the GPU is " + gpu->archName() + " (" + gpu->deviceName() + ")"
             : driverError));

  // Host memory for the arguments (and the reference's copies), checked
  // before anything is allocated: --emit allocates none.
  uint64_t hostBytes = 0;
  for (Type type : entry->getArgumentTypes()) {
    std::optional<uint64_t> bytes =
        HostBuffer::checkedStorageBytes(cast<MemRefType>(type));
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    hostBytes = !bytes || *bytes > (kMax - hostBytes) / 2
                    ? kMax
                    : hostBytes + 2 * *bytes;
  }
  if (emit.empty() && hostBytes > kHostBufferLimit)
    return fail("@" + entry->getSymName() + " would need " +
                (hostBytes == std::numeric_limits<uint64_t>::max()
                     ? std::string("more than 2^64")
                     : std::to_string(hostBytes)) +
                " bytes of host memory for its arguments and their reference "
                "copies, more than nvfp4-run's limit of " +
                std::to_string(kHostBufferLimit) +
                " bytes; compile it with --emit instead");
  // Within the limit but beyond what the machine has free: refuse rather
  // than be killed (or abort) half way through allocating.
  if (emit.empty()) {
    std::optional<HostMemory> available =
        hostMemoryAvailable.getNumOccurrences()
            ? std::optional<HostMemory>(
                  HostMemory{hostMemoryAvailable, /*addressSpaceLimit=*/false})
            : availableHostMemory();
    if (available && hostBytes > available->bytes) {
      const std::string bytes = std::to_string(available->bytes);
      return fail("@" + entry->getSymName() + " would need " +
                  std::to_string(hostBytes) +
                  " bytes of host memory for its arguments and their "
                  "reference copies, but " +
                  (available->addressSpaceLimit
                       ? "the process's address-space limit (ulimit -v) "
                         "leaves it only " +
                             bytes + " bytes"
                       : "only " + bytes +
                             " bytes are available on this "
                             "machine") +
                  "; compile it with --emit instead, or run it where more "
                  "memory is free");
    }
  }

  // Compile a copy of the module (the original stays for the CPU reference).
  std::string ptxas = cudaPath + "/bin/ptxas";
  bool havePtxas = llvm::sys::fs::can_execute(ptxas);
  std::string format = "bin";
  if (!emit.empty()) {
    format = llvm::StringSwitch<std::string>(emit)
                 .Case("mlir", "none")
                 .Case("llvm", "llvm")
                 .Case("ptx", "isa")
                 .Case("cubin", "bin")
                 .Default("");
    if (format.empty())
      return fail("--emit must be one of mlir, llvm, ptx, cubin; got '" + emit +
                  "'");
  } else if (!havePtxas && !cpuOnly) {
    format = "isa"; // The driver assembles the PTX when it loads it.
    llvm::errs() << "nvfp4-run: note: no ptxas at '" << ptxas
                 << "': compiling to PTX, which the CUDA driver assembles "
                    "when it loads it (no ptxas register or spill report; "
                    "set --cuda-path to a CUDA toolkit for a cubin)\n";
  }
  if (format == "bin" && !havePtxas)
    return fail("--emit=cubin needs ptxas, not found at '" + ptxas +
                "' (set --cuda-path)");
  // Without a GPU and without --target, compiling is informative only: an
  // entry the pipeline cannot lower yet (an op with no GPU kernel) still
  // runs on the CPU reference, and why it was not compiled is noted.
  const bool compileOptional =
      !gpu && targetName.getNumOccurrences() == 0 && emit.empty();
  OwningOpRef<ModuleOp> compiled = module->clone();
  FailureOr<CompiledEntry> kernels = failure();
  std::string notCompiled;
  if (!cpuOnly) {
    std::optional<ScopedDiagnosticHandler> collect;
    if (compileOptional)
      collect.emplace(&context, [&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error &&
            notCompiled.empty())
          notCompiled = diag.str();
        return success();
      });
    kernels =
        compileEntry(*compiled, entry->getSymName(), target, format, cudaPath);
    if (failed(kernels) && !compileOptional)
      return fail("cannot compile @" + entry->getSymName() + " for " + target +
                  " (diagnostics above)");
    if (failed(kernels))
      llvm::errs() << "nvfp4-run: note: @" << entry->getSymName()
                   << " not compiled for " << target << ": " << notCompiled
                   << "; running the CPU reference\n";
  }
  if (!emit.empty())
    return emitImage(*kernels, format, *compiled, entry->getSymName(), target);

  // Buffers for every argument: inputs from .npy files or seeded random data.
  SmallVector<HostBuffer> args;
  for (Type type : entry->getArgumentTypes())
    args.emplace_back(cast<MemRefType>(type));
  RandomOptions random;
  random.seed = seed;
  random.maxScaleCode = static_cast<uint8_t>(maxScaleCode);
  if (e8m0Range.size() == 2) {
    random.minE8M0 = static_cast<uint8_t>(e8m0Range[0]);
    random.maxE8M0 = static_cast<uint8_t>(e8m0Range[1]);
  }
  // Quantize inputs for MXFP4 draw their adversarial blocks 32 long.
  entry->walk([&](QuantizeOp op) {
    if (BlockFormat::of(op.getSf().getType()).isMX())
      random.valueBlock = 32;
  });
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
  // A random per-tensor scale of a quantize is what a user gives it: the
  // amax of the tensor's finite values / (448 x 6), so the block scales
  // use e4m3's range. Only where both are the entry's random inputs (an x
  // an earlier op writes is not known yet).
  if (inputFiles.empty())
    entry->walk([&](QuantizeOp op) {
      auto x = dyn_cast<BlockArgument>(op.getX());
      auto global = dyn_cast_or_null<BlockArgument>(op.getGlobalScale());
      auto isInput = [&](BlockArgument arg) {
        return arg && arg.getOwner() == &entry->getBody().front() &&
               llvm::is_contained(sig->inputs, arg.getArgNumber());
      };
      if (!isInput(x) || !isInput(global))
        return;
      float amax = 0.0f;
      for (float v : args[x.getArgNumber()].toFloats())
        if (std::isfinite(v))
          amax = std::fmax(amax, std::fabs(v));
      args[global.getArgNumber()].fromFloats({amax / (448.0f * 6.0f)});
    });
  // A random per-tensor scale of an NVFP4 C is a calibrated one: the amax
  // of the op's finite fp32 values / (448 x 6), the values of the CPU
  // reference run up to the op (so an earlier op's result counts too).
  SmallVector<Operation *> ops = getEntryOps(*entry);
  auto hasCGlobal = [](Operation *op) {
    if (auto gemm = dyn_cast<ScaledMatmulOp>(op))
      return static_cast<bool>(gemm.getCGlobalScale());
    if (auto dual = dyn_cast<ScaledDualMatmulOp>(op))
      return static_cast<bool>(dual.getCGlobalScale());
    return false;
  };
  while (!ops.empty() && !hasCGlobal(ops.back()))
    ops.pop_back();
  if (inputFiles.empty() && !ops.empty()) {
    SmallVector<HostBuffer> prefix(args);
    for (Operation *op : ops) {
      Value c, global;
      if (auto gemm = dyn_cast<ScaledMatmulOp>(op))
        c = gemm.getC(), global = gemm.getCGlobalScale();
      if (auto dual = dyn_cast<ScaledDualMatmulOp>(op))
        c = dual.getC(), global = dual.getCGlobalScale();
      auto globalArg = dyn_cast_or_null<BlockArgument>(global);
      if (globalArg && llvm::is_contained(sig->inputs,
                                          globalArg.getArgNumber())) {
        SmallVector<HostBuffer> unquantized(prefix);
        auto cArg = cast<BlockArgument>(c);
        unquantized[cArg.getArgNumber()] = HostBuffer(MemRefType::get(
            cast<MemRefType>(c.getType()).getShape(),
            Float32Type::get(&context)));
        if (failed(executeOpOnCpu(op, unquantized)))
          return fail("the CPU reference failed on @" + entry->getSymName());
        float amax = 0.0f;
        for (float v : unquantized[cArg.getArgNumber()].toFloats())
          if (std::isfinite(v))
            amax = std::fmax(amax, std::fabs(v));
        const float g = amax / (448.0f * 6.0f);
        args[globalArg.getArgNumber()].fromFloats({g});
        prefix[globalArg.getArgNumber()].fromFloats({g});
      }
      if (failed(executeOpOnCpu(op, prefix)))
        return fail("the CPU reference failed on @" + entry->getSymName());
    }
  }
  // A grouped GEMM's offsets: from --group-sizes, the size hint or an
  // even split (unless an offsets file was given); the sizes were checked
  // before compiling.
  writeGroupOffsets(*entry, args,
                    groupSizes.empty()
                        ? std::nullopt
                        : std::optional<ArrayRef<int64_t>>(groupSizes),
                    !inputFiles.empty());
  if (!saveInputs.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(saveInputs))
      return fail("cannot create '" + saveInputs + "': " + ec.message());
    std::string names;
    for (auto [i, argIndex] : llvm::enumerate(sig->inputs)) {
      std::string path = saveInputs + "/input" + std::to_string(i) + ".npy";
      std::string error;
      if (!args[argIndex].saveNpy(path, error))
        return fail("cannot save input #" + Twine(i) + ": " + error);
      names += (names.empty() ? "" : ",") + path;
    }
    llvm::errs() << "nvfp4-run: note: inputs saved; repeat this run with "
                    "--inputs "
                 << names << "\n";
  }

  // The CPU reference is the ground truth (and the result without a GPU).
  SmallVector<HostBuffer> reference(args);
  auto start = std::chrono::steady_clock::now();
  if (failed(executeOnCpu(*entry, reference)))
    return fail("the CPU reference failed on @" + entry->getSymName());
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();

  std::string where;
  std::string checkLine;
  // The run's last line: what ran where, and what was checked.
  std::string verdict;
  SmallVector<OutputCheck> checks;
  if (!onGpu) {
    std::string compiledNote =
        succeeded(kernels) ? "compiled for " + target + ": " +
                                 std::to_string(kernels->getImageBytes()) +
                                 "-byte " + (format == "bin" ? "cubin" : "ptx")
        : cpuOnly ? std::string("not compiled")
                  : "not compiled for " + target;
    // Why the CPU reference ran instead of the GPU, in both lines.
    const std::string otherGpu =
        gpu ? "the GPU is " + gpu->archName() : std::string();
    std::string whyCpu =
        gpu       ? otherGpu + " (" + gpu->deviceName() + "), not " + target
        : cpuOnly ? std::string("--cpu")
                  : "no GPU: " + driverError;
    where = "cpu-reference (" +
            (gpu ? otherGpu + ", not " + target : driverError) + "; " +
            compiledNote + ")";
    verdict =
        (cpuOnly ? std::string()
         : succeeded(kernels)
             ? "compiled for " + target + " (" +
                   std::to_string(kernels->launches.size()) + " kernel" +
                   (kernels->launches.size() == 1 ? "" : "s") + "), "
             : "not compiled for " + target + " (" + notCompiled + "), ") +
        "ran on the CPU reference only (" + whyCpu + "): not checked";
    args = reference;
    for (unsigned o : sig->outputs) {
      OutputCheck check;
      check.argIndex = o;
      check.values = args[o].type.getNumElements();
      countNonFinite(args[o], check);
      checks.push_back(check);
    }
    if (succeeded(kernels)) {
      printKernels(*kernels, target, nullptr);
      printB200Predictions(*module, entry->getSymName(), target);
    }
  } else {
    std::string error;
    DeviceRunOptions options;
    if (perturbOutput >= 0)
      options.perturbElement = perturbOutput;
    options.untouched = untouchedGroupRows(*entry, args);
    if (!runOnDevice(*gpu, *kernels, *sig, args, options, error))
      return fail("on the GPU: " + error);
    printKernels(*kernels, target, gpu.get());
    printB200Predictions(*module, entry->getSymName(), target);
    FailureOr<SmallVector<OutputCheck>> checked =
        checkOutputs(*entry, args, reference, *sig);
    if (failed(checked))
      return fail("the CPU reference failed on @" + entry->getSymName());
    checks = std::move(*checked);
    for (const OutputCheck &check : checks) {
      if (check.mismatches)
        return fail("GPU result of " +
                    describeMismatch(args[check.argIndex], check));
      checkLine += llvm::formatv("; check OK (#{0}): {1} values, max abs err "
                                 "{2:e2}, max rel err {3:e2}, {4} within the "
                                 "widened tolerance only",
                                 check.argIndex, check.values, check.maxAbsErr,
                                 check.maxRelErr, check.widened)
                       .str();
      if (check.overflowed)
        checkLine +=
            llvm::formatv(", {0} not compared (their products' magnitudes "
                          "overflow fp32, where the tensor cores' fp32 "
                          "products give inf or NaN)",
                          check.overflowed)
                .str();
    }
    where = "gpu " + target + " (" + gpu->deviceName() + ")";
    int64_t checkedValues = 0;
    for (const OutputCheck &check : checks)
      checkedValues += check.values;
    verdict = "ran on " + target + " (" + gpu->deviceName() +
              "), checked OK against the CPU reference (" +
              std::to_string(checkedValues) + " values)";
  }
  for (const OutputCheck &check : checks) {
    std::string warning = describeNonFinite(args[check.argIndex], check);
    if (!warning.empty())
      llvm::errs() << "nvfp4-run: warning: " << warning << "\n";
  }

  std::string benchLine;
  if (bench) {
    BenchResult b;
    std::string error;
    if (!benchmarkOnDevice(*gpu, *kernels, *sig, args, iters, b, error))
      return fail("on the GPU: " + error);
    benchLine = llvm::formatv(
        "nvfp4-run: bench @{0} on {1}: {2:f2} us per launch back to back "
        "(median of {3} batches of {4}), {5:f2} us launched alone (median "
        "of {6}); {7} buffer sets; {8:f0} GB/s; floor {9:f2} us ({10} "
        "bytes at the measured copy rate {11:f2} TB/s) = {12:f1}% of floor; "
        "host issue {13:f2} us per launch (median of the batches)",
        entry->getSymName(), target, b.backToBackUs, b.batches, b.batchSize,
        b.aloneUs, b.singles, b.bufferSets, b.bytes / b.backToBackUs * 1e-3,
        b.floorUs, b.bytes, b.copyTBs, 100.0 * b.floorUs / b.backToBackUs,
        b.hostIssueUs);
    // Matrix products also get their FLOP rate (2 M N K L per product;
    // the gated dual GEMM has two).
    double flops = 0;
    entry->walk([&](ScaledMatmulOp matmul) {
      OperandShape a = getOperandShape(matmul.getA().getType());
      flops += 2.0 * a.batch * a.rows * a.k *
               getOperandShape(matmul.getB().getType()).rows;
    });
    entry->walk([&](ScaledDualMatmulOp dual) {
      OperandShape a = getOperandShape(dual.getA().getType());
      flops += 2 * 2.0 * a.batch * a.rows * a.k *
               getOperandShape(dual.getB1().getType()).rows;
    });
    entry->walk([&](GroupedProblemsOp problems) {
      for (auto [a, b] : llvm::zip(problems.getA(), problems.getB()))
        flops += 2.0 * getOperandShape(cast<MemRefType>(a.getType())).rows *
                 getOperandShape(cast<MemRefType>(b.getType())).rows *
                 getOperandShape(cast<MemRefType>(a.getType())).k;
    });
    if (flops > 0)
      benchLine += llvm::formatv("; {0:f1} TFLOP/s back to back",
                                 flops / (b.backToBackUs * 1e-6) / 1e12)
                       .str();
  }

  for (auto [i, argIndex] : llvm::enumerate(sig->outputs)) {
    if (outputFiles.empty())
      break;
    std::string error;
    if (!args[argIndex].saveNpy(outputFiles[i], error))
      return fail("output #" + Twine(i) + ": " + error);
  }

  // One-line summary: what ran, where, and a fingerprint of every output.
  std::string outputs;
  for (unsigned o : sig->outputs)
    outputs += (outputs.empty() ? "" : "; ") + ("#" + Twine(o) + " ").str() +
               typeToString(args[o].type) + " " + fingerprint(args[o]);
  std::string kernelNames;
  for (Operation &op : entry->getBody().front())
    if (!isa<func::ReturnOp>(op))
      kernelNames +=
          (kernelNames.empty() ? "" : "+") + op.getName().getStringRef().str();
  llvm::outs() << llvm::formatv(
      "nvfp4-run: @{0} {1} on {2}: {3} inputs ({4}), output{5} {6}{7}; cpu "
      "reference {8:f2} ms\n",
      entry->getSymName(), kernelNames, where, sig->inputs.size(),
      inputFiles.empty() ? "random, seed " + std::to_string(seed)
                         : std::string("npy"),
      sig->outputs.size() == 1 ? "" : "s", outputs, checkLine, ms);
  if (!benchLine.empty())
    llvm::outs() << benchLine << "\n";
  llvm::outs() << "nvfp4-run: @" << entry->getSymName() << ": " << verdict
               << "\n";
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  return run(argc, argv);
}
