//===- Passes.td - nvfp4 pass definitions ------------------*- tablegen -*-===//
//
// The nvfp4 pipeline: plan -> tile -> convert-nvfp4-to-nvvm -> serialize.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_PASSES_TD
#define NVFP4_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // NVFP4_PASSES_TD
