//===- AllPasses.td - every nvfp4 pass, for the reference --*- tablegen -*-===//
//
// The generated pass reference (build/docs/NVFP4Passes.md) covers the
// passes of every layer in pipeline order.
//
//===----------------------------------------------------------------------===//

include "Passes.td"
include "ConversionPasses.td"
include "BinaryPasses.td"
