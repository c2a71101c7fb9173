//===- NVFP4Traits.h - what each pipeline stage does with an op -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Marker traits (dialects/NVFP4/NVFP4Dialect.td) that place an op in the
// pipeline: the passes ask `op->hasTrait<OpTrait::nvfp4::CtaLevel>()` rather
// than keeping lists of ops by hand.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_NVFP4TRAITS_H
#define NVFP4_DIALECT_NVFP4_NVFP4TRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::OpTrait::nvfp4 {

/// An op on whole memrefs, before nvfp4-tile: nvfp4-plan plans it (unless
/// it is PlanFree) and nvfp4-tile turns it into kernels.
template <typename ConcreteType>
class KernelLevel
    : public ::mlir::OpTrait::TraitBase<ConcreteType, KernelLevel> {};

/// A kernel-level op whose kernel needs no plan (the same for every shape
/// and target).
template <typename ConcreteType>
class PlanFree : public ::mlir::OpTrait::TraitBase<ConcreteType, PlanFree> {};

/// An op made by nvfp4-tile or nvfp4-software-pipeline inside a gpu.module
/// and lowered by convert-nvfp4-to-nvvm.
template <typename ConcreteType>
class CtaLevel : public ::mlir::OpTrait::TraitBase<ConcreteType, CtaLevel> {};

/// A CTA-level op lowered with wgmma only (sm_90a).
template <typename ConcreteType>
class NeedsWgmma : public ::mlir::OpTrait::TraitBase<ConcreteType, NeedsWgmma> {
};

/// A CTA-level op lowered with tcgen05 only (sm_100a).
template <typename ConcreteType>
class NeedsTcgen05
    : public ::mlir::OpTrait::TraitBase<ConcreteType, NeedsTcgen05> {};

} // namespace mlir::OpTrait::nvfp4

#endif // NVFP4_DIALECT_NVFP4_NVFP4TRAITS_H
