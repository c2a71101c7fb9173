//===- nvfp4-opt.cpp - the nvfp4 dialect's mlir-opt -------------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// MlirOptMain with the nvfp4 dialect, its passes and pipeline, and the
// upstream dialects and passes the pipeline is built from. The input is
// checked for nesting the parser cannot take (see Support/Nesting.h) before
// it is parsed.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/InitAll.h"
#include "nvfp4/Support/Nesting.h"
#include "nvfp4/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  mlir::nvfp4::registerAllDialects(registry);
  mlir::nvfp4::registerAllPasses();
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "nvfp4 " << NVFP4_VERSION_STRING << " (commit " << NVFP4_GIT_COMMIT
       << ")\n";
  });
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "nvfp4 optimizer driver: block-scaled FP4 kernels to NVVM\n",
      registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << "nvfp4-opt: error: " << error << "\n";
    return 1;
  }
  if (std::optional<std::string> deep =
          mlir::nvfp4::checkNestingDepth(file->getBuffer())) {
    llvm::errs() << "nvfp4-opt: error: cannot parse '" << inputFilename
                 << "': " << *deep << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "nvfp4-opt: error: " << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}
