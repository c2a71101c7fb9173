//===- nvfp4-run.cpp - compile, run, check and time an nvfp4 kernel ---------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4-run file.mlir [--entry NAME] [--seed N] [--inputs a.npy,...]
//                     [--output out.npy,...] [--target sm_90a|sm_100a]
//                     [--bench] [--emit=mlir|llvm|ptx|cubin -o FILE]
//
// Parses the file, finds the entry function, makes its inputs (seeded random
// data over all bit patterns, or .npy files in argument order), compiles it
// through the nvfp4 pipeline for the target, runs it on the GPU through the
// CUDA Driver API when the GPU is that target, checks the result against the
// CPU reference (|out - ref| <= 1e-3 + 1e-3 |ref|), optionally times it, and
// writes the outputs as .npy. Without a GPU (or driver) it compiles for the
// target and runs the CPU reference. Every failure is reported as
// `nvfp4-run: error: ...` with a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/InitAll.h"
#include "nvfp4/Reference/Compare.h"
#include "nvfp4/Runner/Compile.h"
#include "nvfp4/Runner/CpuExecutor.h"
#include "nvfp4/Runtime/CudaDriver.h"
#include "nvfp4/Target/Target.h"
#include "nvfp4/Runner/HostBuffer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
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

static cl::opt<std::string>
    targetName("target",
               cl::desc("GPU target: sm_100a (B200) or sm_90a (H100/H200); "
                        "default: the GPU's own, or sm_100a without a GPU"),
               cl::cat(runCategory));
static cl::opt<std::string>
    emit("emit",
         cl::desc("Print one stage instead of running: mlir (after the "
                  "pipeline, before serialization), llvm, ptx, or cubin"),
         cl::cat(runCategory));
static cl::opt<bool>
    cpuOnly("cpu", cl::desc("Run only the CPU reference: no compilation, no "
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
static cl::opt<unsigned> iters("iters", cl::desc("Timed launches for --bench"),
                               cl::init(100), cl::cat(runCategory));
static cl::opt<std::string>
    cudaPath("cuda-path", cl::desc("CUDA toolkit root holding bin/ptxas"),
             cl::init("/usr/local/cuda"), cl::cat(runCategory));

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
  if (cpuOnly && !emit.empty())
    return fail("--cpu runs the CPU reference only; it cannot --emit a "
                "compiled stage");
  if (maxScaleCode > 0x7E)
    return fail("--max-scale-code must be at most 126 (0x7E, the largest "
                "finite e4m3 code)");

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

  // Target: the GPU's own by default, sm_100a without one.
  std::string driverError = "--cpu";
  std::unique_ptr<CudaDriver> gpu;
  if (emit.empty() && !cpuOnly)
    gpu = CudaDriver::open(driverError);
  std::string target = targetName;
  if (target.empty()) {
    if (gpu && !parseGpuTarget(gpu->archName()))
      return fail("the GPU is " + gpu->archName() + " (" +
                  gpu->deviceName() +
                  "), which nvfp4 does not target; supported targets: " +
                  supportedGpuTargets() +
                  " (name one with --target to compile for it and run the "
                  "CPU reference)");
    target = gpu ? gpu->archName() : "sm_100a";
  }
  if (!parseGpuTarget(target))
    return fail("unsupported target '" + target +
                "'; supported targets: " + supportedGpuTargets());

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
      return fail("--emit must be one of mlir, llvm, ptx, cubin; got '" +
                  emit + "'");
  } else if (!havePtxas) {
    format = "isa"; // The driver assembles the PTX when it loads it.
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
        if (diag.getSeverity() == DiagnosticSeverity::Error && notCompiled.empty())
          notCompiled = diag.str();
        return success();
      });
    kernels = compileEntry(*compiled, entry->getSymName(), target, format,
                           cudaPath);
    if (failed(kernels) && !compileOptional)
      return fail("cannot compile @" + entry->getSymName() + " for " +
                  target + " (diagnostics above)");
    if (failed(kernels))
      llvm::errs() << "nvfp4-run: note: @" << entry->getSymName()
                   << " not compiled for " << target << ": " << notCompiled
                   << "; running the CPU reference\n";
  }
  if (!emit.empty()) {
    std::string error;
    auto out = openOutputFile(emitFile, &error);
    if (!out)
      return fail("cannot write '" + emitFile + "': " + error);
    if (format == "none") {
      compiled->print(out->os());
    } else if (format == "llvm") {
      // gpu-module-to-binary stores LLVM bitcode; print it as text.
      llvm::LLVMContext llvmContext;
      auto llvmModule = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(kernels->image, "nvfp4_kernels"), llvmContext);
      if (!llvmModule)
        return fail("cannot read the LLVM bitcode of the kernels: " +
                    llvm::toString(llvmModule.takeError()));
      (*llvmModule)->print(out->os(), nullptr);
    } else {
      out->os() << kernels->image;
    }
    out->keep();
    return 0;
  }

  // The CPU reference is the ground truth (and the result without a GPU).
  SmallVector<HostBuffer> reference(args);
  auto start = std::chrono::steady_clock::now();
  if (failed(executeOnCpu(*entry, reference)))
    return fail("the CPU reference failed on @" + entry->getSymName());
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();

  std::string where = "cpu-reference";
  std::string checkLine, benchLine;
  bool ranOnGpu = gpu && gpu->archName() == target;
  if (!ranOnGpu) {
    std::string compiledNote =
        succeeded(kernels)
            ? "compiled for " + target + ": " +
                  std::to_string(kernels->image.size()) + "-byte " +
                  (format == "bin" ? "cubin" : "ptx")
            : cpuOnly ? std::string("not compiled")
                      : "not compiled for " + target;
    where = "cpu-reference (" +
            (gpu ? "the GPU is " + gpu->archName() + ", not " + target
                 : driverError) +
            "; " + compiledNote + ")";
    args = reference;
  } else {
    std::string error;
    auto gpuFail = [&](const std::string &what) {
      return fail("on the GPU: " + what);
    };
    if (!gpu->loadModule(kernels->image, error))
      return gpuFail(error);
    // Device copies of every argument; outputs poisoned with 0xFF (NaN in
    // every float format) so an element the kernel skips cannot pass.
    std::vector<DevicePtr> device(args.size());
    for (auto [i, buffer] : llvm::enumerate(args)) {
      if (!gpu->alloc(buffer.bytes.size(), device[i], error) ||
          !gpu->copyToDevice(device[i], buffer.bytes.data(),
                             buffer.bytes.size(), error))
        return gpuFail(error);
    }
    for (unsigned o : sig->outputs)
      if (!gpu->memset(device[o], 0xFF, args[o].bytes.size(), error))
        return gpuFail(error);
    auto launchAll = [&](const std::vector<DevicePtr> &ptrs) {
      for (const KernelLaunch &k : kernels->launches) {
        std::vector<DevicePtr> params;
        for (unsigned a : k.argIndices)
          params.push_back(ptrs[a]);
        if (!gpu->launch(k.kernel, k.grid, k.block, params, error))
          return false;
      }
      return true;
    };
    if (!launchAll(device) || !gpu->synchronize(error))
      return gpuFail(error);
    for (unsigned o : sig->outputs)
      if (!gpu->copyToHost(args[o].bytes.data(), device[o],
                           args[o].bytes.size(), error))
        return gpuFail(error);
    // Check every output against the reference: the contest's rule
    // |out - ref| <= 1e-3 + 1e-3 |ref|, plus the bound on fp32
    // accumulation-order differences (which only matters when large
    // partial sums cancel), plus one output ulp for bf16, whose rounding
    // step (2^-8 relative) exceeds the rule's 1e-3.
    FailureOr<SmallVector<std::vector<float>>> bounds =
        accumulationBounds(*entry, args, *sig);
    if (failed(bounds))
      return fail("the CPU reference failed on @" + entry->getSymName());
    for (auto [oi, o] : llvm::enumerate(sig->outputs)) {
      Type e = args[o].type.getElementType();
      if (!(e.isF16() || e.isBF16() || e.isF32())) {
        if (args[o].bytes != reference[o].bytes)
          return fail("GPU result of argument #" + Twine(o) +
                      " differs from the CPU reference");
        continue;
      }
      std::vector<float> got = args[o].toFloats();
      std::vector<float> want = reference[o].toFloats();
      std::vector<float> extra = (*bounds)[oi];
      extra.resize(got.size(), 0.0f);
      if (e.isBF16())
        for (size_t i = 0; i < extra.size(); ++i)
          extra[i] += std::fabs(want[i]) * 0x1p-7f;
      ::nvfp4::ref::CompareResult cmp = ::nvfp4::ref::compareOutputs(
          got.data(), want.data(), static_cast<int64_t>(got.size()), 1e-3,
          1e-3, extra.data());
      if (cmp.mismatches)
        return fail(llvm::formatv(
            "GPU result of argument #{0} differs from the CPU reference in "
            "{1} of {2} values; first at index {3}: got {4}, want {5}, "
            "allowed difference {6} (1e-3 + 1e-3 |ref| + fp32 "
            "accumulation bound{7})",
            o, cmp.mismatches, got.size(), cmp.firstBad, cmp.firstGot,
            cmp.firstWant, cmp.firstAllowed,
            e.isBF16() ? " + 1 bf16 ulp" : ""));
      checkLine += llvm::formatv("; check OK: {0} values, max abs err {1:e2}, "
                                 "max rel err {2:e2}, {3} within the widened "
                                 "tolerance only",
                                 got.size(), cmp.maxAbsErr, cmp.maxRelErr,
                                 cmp.widened)
                       .str();
    }
    where = "gpu " + target + " (" + gpu->deviceName() + ")";

    if (bench) {
      // Bytes the kernel must move: every input once, every output once.
      size_t inBytes = 0, allBytes = 0;
      for (unsigned i : sig->inputs)
        inBytes += args[i].bytes.size();
      allBytes = inBytes;
      for (unsigned o : sig->outputs)
        allBytes += args[o].bytes.size();
      // Rotate over enough copies of the arguments to exceed L2 twice.
      size_t sets = std::clamp<size_t>(
          (2 * static_cast<size_t>(gpu->l2Bytes()) + allBytes - 1) / allBytes +
              1,
          2, 64);
      std::vector<std::vector<DevicePtr>> copies(sets, device);
      for (size_t s = 1; s < sets; ++s)
        for (size_t i = 0; i < args.size(); ++i)
          if (!gpu->alloc(args[i].bytes.size(), copies[s][i], error) ||
              !gpu->copyOnDevice(copies[s][i], device[i],
                                 args[i].bytes.size(), error))
            return gpuFail(error);
      // The floor: a device-to-device copy of 1 GiB, bytes read + written.
      const size_t copyBytes = size_t(1) << 30;
      DevicePtr src, dst;
      float copyMs = 0;
      if (!gpu->alloc(copyBytes, src, error) ||
          !gpu->alloc(copyBytes, dst, error) ||
          !gpu->copyOnDevice(dst, src, copyBytes, error) ||
          !gpu->time(
              [&] {
                for (int r = 0; r < 5; ++r)
                  if (!gpu->copyOnDevice(dst, src, copyBytes, error))
                    return false;
                return true;
              },
              copyMs, error))
        return gpuFail(error);
      double copyTBs = 5.0 * 2.0 * copyBytes / (copyMs * 1e-3) / 1e12;
      for (size_t w = 0; w < 2 * sets; ++w)
        if (!launchAll(copies[w % sets]))
          return gpuFail(error);
      // Two timings, both over rotating buffer sets: (a) each launch between
      // its own pair of events (includes the launch latency, which is
      // several microseconds for short kernels), and (b) batches of
      // back-to-back launches, one event pair per batch, divided by the
      // batch size: the kernel's throughput as a caller issuing a stream of
      // them sees it. The floor comparison uses (b).
      std::vector<float> single, batched;
      for (unsigned r = 0; r < iters; ++r) {
        float t = 0;
        if (!gpu->time([&] { return launchAll(copies[r % sets]); }, t, error))
          return gpuFail(error);
        single.push_back(t * 1000.0f);
      }
      const unsigned batch = 10;
      for (unsigned r = 0; r < std::max(5u, iters / batch); ++r) {
        float t = 0;
        if (!gpu->time(
                [&] {
                  for (unsigned i = 0; i < batch; ++i)
                    if (!launchAll(copies[(r * batch + i) % sets]))
                      return false;
                  return true;
                },
                t, error))
          return gpuFail(error);
        batched.push_back(t * 1000.0f / batch);
      }
      auto median = [](std::vector<float> &v) {
        std::sort(v.begin(), v.end());
        return static_cast<double>(v[v.size() / 2]);
      };
      double singleUs = median(single), batchedUs = median(batched);
      double floorUs = allBytes / (copyTBs * 1e12) * 1e6;
      benchLine = llvm::formatv(
          "nvfp4-run: bench @{0} on {1}: {2:f2} us per launch back to back "
          "(median of {3} batches of {4}), {5:f2} us launched alone (median "
          "of {6}); {7} buffer sets; {8:f0} GB/s; floor {9:f2} us ({10} "
          "bytes at the measured copy rate {11:f2} TB/s) = {12:f1}% of floor",
          entry->getSymName(), target, batchedUs, batched.size(), batch,
          singleUs, single.size(), sets, allBytes / batchedUs * 1e-3, floorUs,
          allBytes, copyTBs, 100.0 * floorUs / batchedUs);
    }
  }

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
  std::string kernelNames;
  for (Operation &op : entry->getBody().front())
    if (!isa<func::ReturnOp>(op))
      kernelNames +=
          (kernelNames.empty() ? "" : "+") + op.getName().getStringRef().str();
  llvm::outs() << llvm::formatv(
      "nvfp4-run: @{0} {1} on {7}: {2} inputs ({3}), output {4} "
      "{5}{8}; cpu reference {6:f2} ms\n",
      entry->getSymName(), kernelNames, sig->inputs.size(),
      inputFiles.empty() ? "random, seed " + std::to_string(seed)
                         : std::string("npy"),
      typeToString(out.type), fingerprint, ms, where, checkLine);
  if (!benchLine.empty())
    llvm::outs() << benchLine << "\n";
  return 0;
}
