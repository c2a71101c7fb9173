//===- InitAll.h - register nvfp4 and the upstream pieces it uses -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// One place that lists the dialects, passes and translations the nvfp4
// pipeline needs, shared by nvfp4-opt, nvfp4-run and the C API so that all
// three accept the same IR.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_INITALL_H
#define NVFP4_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::nvfp4 {

/// Adds the nvfp4 dialect and every upstream dialect (and dialect extension,
/// such as the LLVM IR translation interfaces) the pipeline produces.
void registerAllDialects(DialectRegistry &registry);

/// Registers nvfp4's passes and pipeline plus the upstream passes the
/// pipeline is built from, for command-line use.
void registerAllPasses();

} // namespace mlir::nvfp4

#endif // NVFP4_INITALL_H
