//===- NVFP4Interfaces.td - nvfp4 attribute interfaces -----*- tablegen -*-===//
//
// The interface every plan attribute implements, so that passes and the
// dialect's verifier handle plans of any kernel kind alike, and the ones
// the parts of a tensor-core kernel's plan implement.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_INTERFACES_TD
#define NVFP4_INTERFACES_TD

include "mlir/IR/Interfaces.td"
include "mlir/IR/AttrTypeBase.td"

def NVFP4_PlanAttrInterface : AttrInterface<"PlanAttrInterface"> {
  let cppNamespace = "::mlir::nvfp4";
  let description = [{
    A kernel plan: how one nvfp4 op is mapped to the GPU. `nvfp4-plan`
    chooses one per op and target (or keeps the one written in the IR) and
    attaches it as `nvfp4.plan`; `nvfp4-tile` and the conversion follow it.
    The dialect verifies that `nvfp4.plan` always holds a plan.
  }];
  let methods = [
    InterfaceMethod<"Threads of one CTA.", "int64_t", "getThreadsPerCta">,
    InterfaceMethod<"The kernel kind this plan is for ('gemv', 'gemm').",
                    "::llvm::StringRef", "getKernelKind">,
  ];
}

def NVFP4_KernelPartAttrInterface : AttrInterface<"KernelPartAttrInterface"> {
  let cppNamespace = "::mlir::nvfp4";
  let description = [{
    One part of a tensor-core kernel's plan (`#nvfp4.kernel`): its mainloop
    or its reduction. A part owns its fields, checks them itself (its
    attribute verifier), checks itself against the other parts
    (`verifyWith`, whose errors name both parts), and reports what it needs
    of the CTA's shared memory, so that the plan's resources are the sum of
    its parts' instead of a formula over every field.
  }];
  let methods = [
    InterfaceMethod<[{
        Checks this part against the other parts of `parts`; an error names
        both (`#nvfp4.split_k<...> needs ..., but #nvfp4.wgmma_mainloop<...>
        ...`).
      }], "::llvm::LogicalResult", "verifyWith",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "const ::mlir::nvfp4::KernelParts &":$parts)>,
    InterfaceMethod<[{
        Bytes of the ring's shared memory this part reuses after the K loop
        (the K groups' sums, a split cluster's exchange): the parts' areas
        lie side by side (SmemPlan places them).
      }], "int64_t", "getScratchBytes",
      (ins "const ::mlir::nvfp4::KernelParts &":$parts)>,
  ];
}

def NVFP4_MainloopAttrInterface
    : AttrInterface<"MainloopAttrInterface", [NVFP4_KernelPartAttrInterface]> {
  let cppNamespace = "::mlir::nvfp4";
  let description = [{
    A kernel plan's mainloop: the MMA and how its operands reach it. It
    fixes the CTA's tile (`tile_n` rows of B, the MMA's M, by `tile_m` rows
    of A, the MMA's N), its threads and its shared memory, which the
    scheduler, the reduction and the epilogue build on.
  }];
  let methods = [
    InterfaceMethod<"Rows of A per CTA (the MMA's N).", "int64_t",
                    "getTileM">,
    InterfaceMethod<"Rows of B per CTA (the MMA's M).", "int64_t",
                    "getTileN">,
    InterfaceMethod<"Ring slots (0: none).", "int64_t", "getStages">,
    InterfaceMethod<[{
        Weights multiplied with the same A, each into its own accumulator
        tile (1: the GEMM; 2: the gated dual GEMM). The reductions add
        every accumulator.
      }], "int64_t", "getWeights">,
    InterfaceMethod<"Threads of one CTA.", "int64_t", "getThreadsPerCta">,
    InterfaceMethod<[{
        K values of one step of the loop, the unit in which split-K divides
        K: 64 (a wgmma chunk) or 256 (a tcgen05 slot).
      }], "int64_t", "getKStep">,
    InterfaceMethod<[{
        Shared memory of the CTA, with `scratch` bytes reused after the
        loop: the ring (dynamic) or the mainloop's static buffers.
      }], "int64_t", "getSharedBytes", (ins "int64_t":$scratch)>,
  ];
}

#endif // NVFP4_INTERFACES_TD
