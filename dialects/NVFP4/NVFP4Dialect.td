//===- NVFP4Dialect.td - nvfp4 dialect definition ----------*- tablegen -*-===//
//
// The nvfp4 dialect: kernel-level block-scaled FP4 (NVFP4) matrix operations
// on memrefs, lowered by the nvfp4 passes to NVVM for sm_100a and sm_90a.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_TD
#define NVFP4_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def NVFP4_Dialect : Dialect {
  let name = "nvfp4";
  let cppNamespace = "::mlir::nvfp4";
  let summary = "Block-scaled FP4 (NVFP4) matrix kernels";
  let description = [{
    NVFP4 stores matrix values as E2M1 (`f4E2M1FN`, two values per byte,
    element 2i in the low nibble) and gives every 16 consecutive values along
    K one E4M3 scale (`f8E4M3FN`). The real value of an element is
    `e2m1 * e4m3`; the product is exact in fp16. MXFP4, the OCP sibling,
    gives every 32 values one power-of-two E8M0 scale (`f8E8M0FNU`, 0xFF is
    NaN); the scale memref's element type says which format an op uses,
    and all scales of one op share it.

    The dialect's operations work at kernel level on memrefs in
    destination-passing style: a whole batched GEMV/GEMM, a gated dual GEMM,
    a grouped GEMM, or a quantization. Their operands are K-major (row-major
    with K innermost). A leading batch dimension is optional where noted.

    The output element type (f16, bf16 or f32) is the element type of the
    output memref rather than an attribute: the memref must carry it anyway,
    and an attribute could only repeat it or contradict it.

    The ops say *what* is computed; the `nvfp4-plan` pass decides *how*
    (tile sizes, threads, stages, split-K) per target and records it as an
    attribute, which later passes consume and a user may override.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute the plan pass attaches to an op.
    static constexpr ::llvm::StringLiteral kPlanAttrName = "nvfp4.plan";
    /// On a gpu.launch_func: the kernel waits for the previous launch with
    /// griddepcontrol.wait where it first needs its results, so a launcher
    /// may start it early (CUDA's programmatic dependent launch); a plain
    /// launch is equally correct.
    static constexpr ::llvm::StringLiteral kDependentLaunchAttrName =
        "nvfp4.programmatic_dependent_launch";
    /// On a kernel, from convert-nvfp4-to-nvvm to nvfp4-tensor-map-params:
    /// its parameter count, then the indices of its parameters that are
    /// tensor maps (by value).
    static constexpr ::llvm::StringLiteral kTensorMapParamsAttrName =
        "nvfp4.tensor_map_params";
  }];
}

class NVFP4_Op<string mnemonic, list<Trait> traits = []>
    : Op<NVFP4_Dialect, mnemonic, traits>;

// What each stage of the pipeline does with an op, as traits: the passes
// ask `op->hasTrait<...>()` instead of keeping lists of ops by hand, so a
// new op says where it belongs where it is defined
// (include/nvfp4/Dialect/NVFP4/NVFP4Traits.h).
class NVFP4_OpTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::OpTrait::nvfp4";
}
// On whole memrefs, before nvfp4-tile: nvfp4-plan plans it (unless it is
// also PlanFree) and nvfp4-tile turns it into kernels.
def NVFP4_KernelLevel : NVFP4_OpTrait<"KernelLevel">;
def NVFP4_PlanFree : NVFP4_OpTrait<"PlanFree">;
// Made by nvfp4-tile or nvfp4-software-pipeline inside a gpu.module, and
// lowered by convert-nvfp4-to-nvvm.
def NVFP4_CtaLevel : NVFP4_OpTrait<"CtaLevel">;
// A CTA-level op lowered for one MMA only: wgmma (sm_90a) or tcgen05
// (sm_100a).
def NVFP4_NeedsWgmma : NVFP4_OpTrait<"NeedsWgmma">;
def NVFP4_NeedsTcgen05 : NVFP4_OpTrait<"NeedsTcgen05">;

class NVFP4_KernelOp<string mnemonic, list<Trait> traits = []>
    : NVFP4_Op<mnemonic, !listconcat(traits, [NVFP4_KernelLevel])>;
class NVFP4_CtaOp<string mnemonic, list<Trait> traits = []>
    : NVFP4_Op<mnemonic, !listconcat(traits, [NVFP4_CtaLevel])>;
class NVFP4_WgmmaOp<string mnemonic, list<Trait> traits = []>
    : NVFP4_CtaOp<mnemonic, !listconcat(traits, [NVFP4_NeedsWgmma])>;
class NVFP4_Tcgen05Op<string mnemonic, list<Trait> traits = []>
    : NVFP4_CtaOp<mnemonic, !listconcat(traits, [NVFP4_NeedsTcgen05])>;

#endif // NVFP4_DIALECT_TD
