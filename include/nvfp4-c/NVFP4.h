/*===-- nvfp4-c/NVFP4.h - C API of the nvfp4 compiler -------------*- C -*-===*\
|*                                                                            *|
|* Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.  *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* For compilers and bindings that embed nvfp4 through MLIR's C API: register *|
|* the dialect (and the upstream pieces the pipeline produces) and run the    *|
|* nvfp4 pipeline on a module, which then holds gpu.binary + gpu.launch_func. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef NVFP4_C_NVFP4_H
#define NVFP4_C_NVFP4_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The nvfp4 dialect handle (mlirGetDialectHandle__nvfp4__).
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(NVFP4, nvfp4);

/// Inserts the nvfp4 dialect and every dialect, extension and translation
/// the nvfp4 pipeline uses into `registry`.
MLIR_CAPI_EXPORTED void nvfp4RegisterAllDialects(MlirDialectRegistry registry);

/// Parses the MLIR file `fileName` into a module, as
/// mlirModuleCreateParseFromFile does, after refusing input that would
/// overflow the MLIR parser's stack (brackets or aliases nested more than
/// 256 deep, affine maps of more than 1024 operators, binary data): the
/// same guard as nvfp4-opt and nvfp4-run. Errors go to the context's
/// diagnostic handlers; returns a null module on any of them.
MLIR_CAPI_EXPORTED MlirModule
nvfp4ModuleCreateParseFromFile(MlirContext context, MlirStringRef fileName);

/// Registers nvfp4's passes and `nvfp4-pipeline` with the global registry,
/// so textual pipelines (mlirParsePassPipeline) can name them.
MLIR_CAPI_EXPORTED void nvfp4RegisterAllPasses(void);

/// Runs the nvfp4 pipeline on `module`: `target` is "sm_100a" or "sm_90a"
/// (or "": the chip of a gpu.module @nvfp4_kernels in `module`, else
/// sm_100a),
/// `format` is "bin" (cubin, needs ptxas under `toolkit`/bin), "isa" (PTX),
/// "llvm" or "none". Diagnostics go to the context's handlers. Fails on
/// invalid options and on any error diagnostic emitted during the run.
MLIR_CAPI_EXPORTED MlirLogicalResult nvfp4RunPipeline(MlirModule module,
                                                      MlirStringRef target,
                                                      MlirStringRef format,
                                                      MlirStringRef toolkit);

/// After a successful nvfp4RunPipeline with a format other than "none":
/// the kernel image of the module's `gpu.binary @nvfp4_kernels` (cubin
/// bytes, PTX text or LLVM bitcode) in `object`, and its format ("bin",
/// "isa", "llvm", "fatbin") in `format`. Both point into the
/// module's attributes and live as long as its context. Fails when the
/// module holds no such binary, or several (a module of more than 64 ops
/// has one per 64: read them with nvfp4GetKernelBinaryAt).
MLIR_CAPI_EXPORTED MlirLogicalResult nvfp4GetKernelBinary(
    MlirModule module, MlirStringRef *object, MlirStringRef *format);

/// The number of gpu.binary ops (kernel images) in `module` after the
/// pipeline: nvfp4-tile puts the kernels of at most 64 ops in one
/// gpu.module (@nvfp4_kernels, @nvfp4_kernels_1, ...). Kernel names are
/// unique across them, so a launcher loads every image and finds a kernel
/// by name.
MLIR_CAPI_EXPORTED intptr_t nvfp4GetNumKernelBinaries(MlirModule module);

/// The `index`th gpu.binary of `module` (in module order): its symbol in
/// `name`, its image and format as nvfp4GetKernelBinary gives them. Fails
/// when `index` is out of range.
MLIR_CAPI_EXPORTED MlirLogicalResult
nvfp4GetKernelBinaryAt(MlirModule module, intptr_t index, MlirStringRef *name,
                       MlirStringRef *object, MlirStringRef *format);

#ifdef __cplusplus
}
#endif

#endif /* NVFP4_C_NVFP4_H */
