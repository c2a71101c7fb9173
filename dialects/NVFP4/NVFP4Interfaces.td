//===- NVFP4Interfaces.td - nvfp4 attribute interfaces -----*- tablegen -*-===//
//
// The interface every plan attribute implements, so that passes and the
// dialect's verifier handle plans of any kernel kind alike.
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

#endif // NVFP4_INTERFACES_TD
