//===- pipeline.c - the nvfp4 C API, end to end
//----------------------------===//
// RUN: nvfp4-capi-test 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//

#include "nvfp4-c/NVFP4.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kModule =
    "func.func @gemv(%a: memref<1x64x1024xf4E2M1FN>, %sfa: "
    "memref<1x64x64xf8E4M3FN>, %b: memref<1x1x1024xf4E2M1FN>, %sfb: "
    "memref<1x1x64xf8E4M3FN>, %c: memref<1x64x1xf16>) {\n"
    "  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : "
    "memref<1x64x1024xf4E2M1FN>, memref<1x64x64xf8E4M3FN>, "
    "memref<1x1x1024xf4E2M1FN>, memref<1x1x64xf8E4M3FN>) outs(%c : "
    "memref<1x64x1xf16>)\n"
    "  return\n"
    "}\n";

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

int main(void) {
  /* Unbuffered, so diagnostics (stderr) and output interleave in order. */
  setvbuf(stdout, NULL, _IONBF, 0);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  nvfp4RegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);

  /* The dialect handle is usable on its own. */
  MlirDialectHandle handle = mlirGetDialectHandle__nvfp4__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  // CHECK: dialect: nvfp4
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module))
    return 1;

  /* An unsupported target fails (the diagnostic goes to stderr). */
  // CHECK: unsupported target 'sm_80'; supported targets: sm_100a, sm_90a
  // CHECK: sm_80: failure
  MlirModule bad =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  MlirLogicalResult r =
      nvfp4RunPipeline(bad, mlirStringRefCreateFromCString("sm_80"),
                       mlirStringRefCreateFromCString("isa"),
                       mlirStringRefCreateFromCString("/usr/local/cuda"));
  fflush(stderr);
  printf("sm_80: %s\n", mlirLogicalResultIsSuccess(r) ? "success" : "failure");
  mlirModuleDestroy(bad);

  /* Invalid options fail before anything runs: an unknown format, and a
     cubin without ptxas. */
  // CHECK: nvfp4-pipeline: unknown format 'ptx'
  // CHECK: format=ptx: failure
  bad = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  r = nvfp4RunPipeline(bad, mlirStringRefCreateFromCString("sm_90a"),
                       mlirStringRefCreateFromCString("ptx"),
                       mlirStringRefCreateFromCString("/usr/local/cuda"));
  fflush(stderr);
  printf("format=ptx: %s\n",
         mlirLogicalResultIsSuccess(r) ? "success" : "failure");
  // CHECK: format=bin needs ptxas, but '/nonexistent/bin/ptxas' is not an
  // executable CHECK: toolkit=/nonexistent: failure
  r = nvfp4RunPipeline(bad, mlirStringRefCreateFromCString("sm_90a"),
                       mlirStringRefCreateFromCString("bin"),
                       mlirStringRefCreateFromCString("/nonexistent"));
  fflush(stderr);
  printf("toolkit=/nonexistent: %s\n",
         mlirLogicalResultIsSuccess(r) ? "success" : "failure");
  /* No binary in a module the pipeline did not serialize. */
  MlirStringRef image, format;
  // CHECK: no binary: failure
  printf("no binary: %s\n",
         mlirLogicalResultIsSuccess(nvfp4GetKernelBinary(bad, &image, &format))
             ? "success"
             : "failure");
  mlirModuleDestroy(bad);

  /* The real pipeline to PTX. */
  r = nvfp4RunPipeline(module, mlirStringRefCreateFromCString("sm_100a"),
                       mlirStringRefCreateFromCString("isa"),
                       mlirStringRefCreateFromCString("/usr/local/cuda"));
  // CHECK: sm_100a: success
  printf("sm_100a: %s\n",
         mlirLogicalResultIsSuccess(r) ? "success" : "failure");
  /* The kernel image, without any other MLIR library. */
  // CHECK: binary: success, format isa, PTX for sm_100a
  r = nvfp4GetKernelBinary(module, &image, &format);
  printf("binary: %s, format %.*s, PTX for %s\n",
         mlirLogicalResultIsSuccess(r) ? "success" : "failure",
         (int)format.length, format.data,
         strstr(image.data, ".target sm_100a") ? "sm_100a" : "?");
  /* One binary here; the same through the indexed accessors. */
  MlirStringRef name;
  // CHECK: binaries: 1, #0 @nvfp4_kernels isa, #1: failure
  r = nvfp4GetKernelBinaryAt(module, 0, &name, &image, &format);
  printf("binaries: %d, #0 @%.*s %.*s, #1: %s\n",
         (int)nvfp4GetNumKernelBinaries(module), (int)name.length, name.data,
         (int)format.length, format.data,
         mlirLogicalResultIsSuccess(
             nvfp4GetKernelBinaryAt(module, 1, &name, &image, &format))
             ? "success"
             : "failure");
  // CHECK: gpu.launch_func @nvfp4_kernels::@gemv_kernel
  // CHECK: gpu.binary @nvfp4_kernels
  // CHECK-SAME: cvt.rn.f16x2.e2m1x2
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  printf("\n");

  /* Registered passes are reachable from textual pipelines. */
  nvfp4RegisterAllPasses();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(nvfp4-pipeline{target=sm_90a format=none})"),
      print, NULL);
  // CHECK: textual pipeline: success
  printf("\ntextual pipeline: %s\n",
         mlirLogicalResultIsSuccess(parsed) ? "success" : "failure");
  mlirPassManagerDestroy(pm);

  /* An empty target means the default in the C API (its "not given"). */
  // CHECK: empty target: success
  bad = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  r = nvfp4RunPipeline(bad, mlirStringRefCreateFromCString(""),
                       mlirStringRefCreateFromCString("none"),
                       mlirStringRefCreateFromCString("/usr/local/cuda"));
  printf("empty target: %s\n",
         mlirLogicalResultIsSuccess(r) ? "success" : "failure");
  mlirModuleDestroy(bad);

  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
