//===- NVFP4Types.td - nvfp4 dialect types -----------------*- tablegen -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TYPES_TD
#define NVFP4_TYPES_TD

include "NVFP4Dialect.td"
include "mlir/IR/AttrTypeBase.td"

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
    `scratch_bytes` (default 0) reserves at least that many bytes at the
    ring's start for reuse after the K loop (e.g. the reduction of K groups'
    partial sums); the barriers sit after max(stages x slot_bytes,
    scratch_bytes).

    Example: `!nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>`.
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$slot_bytes,
                        "int64_t":$consumers,
                        DefaultValuedParameter<"int64_t", "0">:$scratch_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes before the barriers: the slots, or the scratch if larger.
    int64_t getDataBytes() const {
      return std::max(getStages() * getSlotBytes(), getScratchBytes());
    }
    /// Dynamic shared memory the ring needs: its data, 1024 bytes of slack
    /// to align it, and 2 x stages mbarriers of 8 bytes.
    int64_t getSharedBytes() const {
      return getDataBytes() + 1024 + 16 * getStages();
    }
  }];
}

#endif // NVFP4_TYPES_TD
