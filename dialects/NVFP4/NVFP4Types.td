//===- NVFP4Types.td - nvfp4 dialect types -----------------*- tablegen -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TYPES_TD
#define NVFP4_TYPES_TD

include "NVFP4Dialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def NVFP4_RingType : TypeDef<NVFP4_Dialect, "Ring"> {
  let mnemonic = "ring";
  let summary = "A ring of shared-memory slots with a full and an empty mbarrier each";
  let description = [{
    The multi-stage buffer of a software-pipelined K loop (created by
    `nvfp4-software-pipeline`, `nvfp4.ring.alloc`): `stages` slots of
    `slot_bytes` bytes in the CTA's dynamic shared memory, 1024-byte
    aligned (the 128B swizzle of the tensor-core operands works on absolute
    addresses). Slot s has two mbarriers:

    - `full[s]`: one arrival with the byte count (`nvfp4.ring.fill`); the
      copy's bytes complete its phase.
    - `empty[s]`: `consumers` arrivals (`nvfp4.ring.release`), one per
      consumer that read the slot's current contents.

    A slot's k-th use (k = 0, 1, ...) completes the phase of parity k % 2
    of both barriers; producers and consumers carry that parity.
    `scratch_bytes` (default 0) makes the ring's data at least that many
    bytes, for reuse after the K loop: the reduction of K groups' partial
    sums from its start, a split exchange (`reduce_splits`) at its end; the
    barriers sit after max(stages x slot_bytes, scratch_bytes).

    `cta_group = 2` (default 1) makes it the ring of a CTA pair whose first
    CTA's tcgen05 MMAs read both CTAs' slots (`cta_group::2`). Each CTA
    fills its own slots on its own `full` barriers; slot s has a third
    mbarrier, `peer_full[s]`, which in the pair's first CTA takes one
    arrival per use from the second (`nvfp4.ring.forward`, once the second
    CTA's copies of the slot landed); the first CTA's `nvfp4.ring.wait`
    waits for both. The first CTA's releases arrive on both CTAs' `empty`
    barriers (`nvfp4.tcgen05.release`).

    Example: `!nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>`.
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$slot_bytes,
                        "int64_t":$consumers,
                        DefaultValuedParameter<"int64_t", "0">:$scratch_bytes,
                        DefaultValuedParameter<"int64_t", "1">:$cta_group);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes before the barriers: the slots, or the scratch if larger.
    int64_t getDataBytes() const {
      return std::max(getStages() * getSlotBytes(), getScratchBytes());
    }
    /// mbarriers per slot: full and empty, and a pair's peer_full.
    int64_t getBarriersPerSlot() const { return getCtaGroup() == 2 ? 3 : 2; }
    /// Dynamic shared memory the ring needs: its data, 1024 bytes of slack
    /// to align it, and its mbarriers of 8 bytes.
    int64_t getSharedBytes() const {
      return getDataBytes() + 1024 + 8 * getBarriersPerSlot() * getStages();
    }
    /// The first byte of a split exchange of `bytes` (reduce_splits): the
    /// top `bytes` of the data, or with `aTileBytes` > 0 the first
    /// aTileBytes of each of the last ceil(bytes / aTileBytes) slots (their
    /// A tiles). What lies below (the K groups' sums, a staged store) must
    /// end there. -1 when the exchange does not fit that way: more slots
    /// than the ring has, a tile that is not a multiple of 16 bytes or
    /// larger than a slot, or a scratch larger than the slots.
    int64_t getSplitExchangeStart(int64_t bytes, int64_t aTileBytes) const {
      if (aTileBytes == 0)
        return bytes <= getDataBytes() ? getDataBytes() - bytes : -1;
      const int64_t slots = (bytes + aTileBytes - 1) / aTileBytes;
      if (aTileBytes % 16 || aTileBytes > getSlotBytes() ||
          slots > getStages() ||
          getScratchBytes() > getStages() * getSlotBytes())
        return -1;
      return (getStages() - slots) * getSlotBytes();
    }
  }];
}

def NVFP4_TmemType : TypeDef<NVFP4_Dialect, "Tmem"> {
  let mnemonic = "tmem";
  let summary = "A CTA's allocation of tensor memory (sm_100a TMEM)";
  let description = [{
    `columns` columns (a power of two in [32, 512]) of all 128 lanes of
    the CTA's tensor memory, allocated by `nvfp4.tmem.alloc` (tcgen05.alloc)
    and freed by `nvfp4.tmem.dealloc`; a value of this type is the
    allocation's base address (lane 0, its first column). The tcgen05 ops
    address columns relative to it. Each allocation also has an mbarrier,
    completed when the MMAs into it are done (`nvfp4.tcgen05.commit` with
    no slot) and waited on by the epilogue (`nvfp4.tcgen05.wait`).

    `cta_group = 2` (default 1): the allocation of a CTA pair, made by both
    CTAs together (`tcgen05.alloc.cta_group::2`, the same columns in
    each), for MMAs of M = 256 that the pair's first CTA issues into both
    CTAs' tensor memory; every tcgen05 op on it is `cta_group::2`, and the
    first CTA's commits arrive on both CTAs' mbarriers.

    Example: `!nvfp4.tmem<columns = 512>`.
  }];
  let parameters = (ins "int64_t":$columns,
                        DefaultValuedParameter<"int64_t", "1">:$cta_group);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def NVFP4_TensorMapSwizzle : I32EnumAttr<"TensorMapSwizzle",
    "how a TMA tensor map swizzles the tiles it writes to shared memory", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"B32", 1, "swizzle_32b">,
    I32EnumAttrCase<"B64", 2, "swizzle_64b">,
    I32EnumAttrCase<"B128", 3, "swizzle_128b">
  ]> {
  let cppNamespace = "::mlir::nvfp4";
  let genSpecializedAttr = 0;
}

def NVFP4_TensorMapType : TypeDef<NVFP4_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "A TMA tensor map, passed to the kernel by value";
  let description = [{
    What `cp.async.bulk.tensor` needs to copy a tile (`box`) of a dense,
    row-major global tensor of `shape` (outermost dimension first) and
    `element_type` into shared memory, with the shared-memory `swizzle`.
    Out-of-bounds elements read as zero.

    The map is a 128-byte `CUtensorMap` that the launcher encodes with
    `cuTensorMapEncodeTiled` from this type and the buffer's device address
    (`nvfp4.tensor_map` names the buffer) and passes **by value**: the
    kernel parameter becomes a 64-byte aligned `.param` array that the TMA
    instructions read in place (a `__grid_constant__` parameter), so no
    copy of the map is made in global memory (unlike upstream
    `!nvgpu.tensormap.descriptor`, which is a device pointer).
    `getTensorMapEncoding` (nvfp4/Runtime/TensorMap.h) gives the arguments
    of `cuTensorMapEncodeTiled`.

    Example: the 128 x 64 f16 tiles of a 32768 x 64 matrix, 128B-swizzled:
    `!nvfp4.tensor_map<32768x64xf16, box = [128, 64], swizzle = swizzle_128b>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType,
                        ArrayRefParameter<"int64_t">:$box,
                        "TensorMapSwizzle":$swizzle);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// Bytes of one element.
    int64_t getElementBytes() const;
    /// Bytes of the whole tensor.
    int64_t getTensorBytes() const;
    /// Bytes of one tile (what one copy writes to shared memory).
    int64_t getBoxBytes() const;
  }];
}

#endif // NVFP4_TYPES_TD
