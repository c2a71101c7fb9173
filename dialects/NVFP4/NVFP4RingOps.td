//===- NVFP4RingOps.td - the ring of shared-memory stages --*- tablegen -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The ops nvfp4-software-pipeline writes a CTA's K loop with, for every
// target: the ring of shared-memory stages and its producer/consumer
// protocol (full and empty mbarriers, TMA and bulk copies). They run per
// thread inside the kernel's gpu.func; convert-nvfp4-to-nvvm lowers them
// (Ring.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RING_OPS_TD
#define NVFP4_RING_OPS_TD

include "NVFP4Types.td"

//===----------------------------------------------------------------------===//
// The ring: stages in shared memory, full/empty mbarriers
//===----------------------------------------------------------------------===//

def NVFP4_RingAllocOp : NVFP4_CtaOp<"ring.alloc"> {
  let summary = "Place a ring in dynamic shared memory and initialize its barriers";
  let description = [{
    Every thread of the CTA executes it (it ends with a CTA barrier): the
    ring takes the kernel's dynamic shared memory from its first 1024-byte
    aligned address; thread 0 initializes `full[s]` for one arrival and
    `empty[s]` for `consumers` arrivals. The launch must give the kernel the type's
    `getSharedBytes()` of dynamic shared memory.

    Example:
    ```mlir
    %ring = nvfp4.ring.alloc
        : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>
    ```
  }];
  let results = (outs NVFP4_RingType:$ring);
  let assemblyFormat = "attr-dict `:` qualified(type($ring))";
  let hasVerifier = 1;
}

def NVFP4_RingFillOp : NVFP4_CtaOp<"ring.fill"> {
  let summary = "Producer: copy one slot's tile with TMA (cp.async.bulk.tensor)";
  let description = [{
    Executed by one producer thread: arrives on `full[slot]` expecting
    `slot_bytes` bytes and starts the TMA copy of the tile of `map` whose
    first element is at `coordinates` (i32, outermost dimension first, as
    the map's shape), which completes the transaction. The map's box is
    exactly one slot; the map's swizzle is applied on the slot's absolute
    address (slots are 1024-byte aligned). The slot must be free: never
    used yet, or acquired (`nvfp4.ring.acquire`) after its consumers
    released it.

    Example:
    ```mlir
    nvfp4.ring.fill %ring[%slot] from %map[%row, %c0]
        : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>,
          !nvfp4.tensor_map<32768x64xf16, box = [128, 64], swizzle = swizzle_128b>
    ```
  }];
  // No declared memory effects: it writes the slot and arrives on a
  // barrier, neither of which is an operand, so it must count as having
  // unknown effects (never dead, never reordered).
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot,
                       NVFP4_TensorMapType:$map, Variadic<I32>:$coordinates);
  let assemblyFormat = [{
    $ring `[` $slot `]` `from` $map `[` $coordinates `]` attr-dict `:`
    qualified(type($ring)) `,` qualified(type($map))
  }];
  let hasVerifier = 1;
}

def NVFP4_RingExpectOp : NVFP4_CtaOp<"ring.expect"> {
  let summary = "Producer: arrive on a slot's full barrier expecting its bytes";
  let description = [{
    Executed by one producer thread before the copies of a slot that is
    filled by several of them (`nvfp4.ring.copy`, `nvfp4.ring.copy_bytes`):
    arrives on `full[slot]` expecting `slot_bytes` bytes, or `bytes` when
    the copies leave part of the slot unwritten, which the copies then
    deliver. The slot must be free, as for `nvfp4.ring.fill`.
    Example:
    ```mlir
    nvfp4.ring.expect %ring[%slot]
        : !nvfp4.ring<stages = 6, slot_bytes = 36864, consumers = 1>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$bytes);
  let assemblyFormat = [{
    $ring `[` $slot `]` (`bytes` $bytes^)? attr-dict `:` qualified(type($ring))
  }];
  let hasVerifier = 1;
}

def NVFP4_RingCopyOp : NVFP4_CtaOp<"ring.copy"> {
  let summary = "Producer: copy a tile into part of a slot with TMA";
  let description = [{
    Starts the TMA copy (cp.async.bulk.tensor) of the tile of `map` whose
    first element is at `coordinates` (i32, outermost first) to byte
    `offset` of the slot (a multiple of 1024, so the map's swizzle sees
    the same address bits as at the slot's start); its bytes complete
    `full[slot]`, armed by a `nvfp4.ring.expect`. The tile must end
    within the slot. A ring of one CTA only. With `keep_in_l2` the copy's
    lines are evicted from L2 after normal ones (an evict_last cache
    policy): for tiles every CTA reads, while other operands stream
    through L2 once.
    Example:
    ```mlir
    nvfp4.ring.copy %ring[%slot] at 16384 from %map[%l, %m, %k]
        : !nvfp4.ring<stages = 6, slot_bytes = 36864, consumers = 1>,
          !nvfp4.tensor_map<1x128x8192xi8, box = [1, 128, 128],
                            swizzle = swizzle_128b>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       NVFP4_TensorMapType:$map, Variadic<I32>:$coordinates,
                       UnitAttr:$keep_in_l2);
  let assemblyFormat = [{
    $ring `[` $slot `]` `at` $offset `from` $map `[` $coordinates `]`
    (`keep_in_l2` $keep_in_l2^)? attr-dict `:` qualified(type($ring)) `,`
    qualified(type($map))
  }];
  let hasVerifier = 1;
}

def NVFP4_RingCopyBytesOp : NVFP4_CtaOp<"ring.copy_bytes"> {
  let summary = "Producer: copy contiguous bytes into part of a slot";
  let description = [{
    Starts a bulk copy (cp.async.bulk) of `bytes` contiguous bytes of
    `source` from byte `source_offset` (i64) to byte `offset` of the slot;
    its bytes complete `full[slot]`, armed by a `nvfp4.ring.expect`. Both
    offsets and the size are multiples of 16; the bytes must lie within
    `source` and the slot. A ring of one CTA only.
    Example:
    ```mlir
    nvfp4.ring.copy_bytes %ring[%slot] at 32768 from %sfb[%offset] bytes 2048
        : !nvfp4.ring<stages = 6, slot_bytes = 36864, consumers = 1>,
          memref<7168x1024xf8E4M3FN>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       // No declared effects (as ring.fill): it writes the
                       // slot and completes a barrier, which are no
                       // operands, so it must count as unknown effects.
                       AnyMemRef:$source,
                       I64:$source_offset,
                       ConfinedAttr<I64Attr, [IntPositive]>:$bytes);
  let assemblyFormat = [{
    $ring `[` $slot `]` `at` $offset `from` $source `[` $source_offset `]`
    `bytes` $bytes attr-dict `:` qualified(type($ring)) `,` type($source)
  }];
  let hasVerifier = 1;
}

def NVFP4_RingAcquireOp : NVFP4_CtaOp<"ring.acquire"> {
  let summary = "Producer: wait until a slot's consumers released it";
  let description = [{
    Waits for the phase of parity `phase` of `empty[slot]`: every consumer
    released the use of the slot that had that parity.

    Example:
    ```mlir
    nvfp4.ring.acquire %ring[%slot] phase %parity
        : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot, I32:$phase);
  let assemblyFormat = [{
    $ring `[` $slot `]` `phase` $phase attr-dict `:` qualified(type($ring))
  }];
}

def NVFP4_RingWaitOp : NVFP4_CtaOp<"ring.wait"> {
  let summary = "Consumer: wait until a slot's bytes have landed";
  let description = [{
    Waits for the phase of parity `phase` of `full[slot]`: the fill of the
    slot's use with that parity completed, so its bytes are visible to the
    thread (and to the tensor cores' async proxy). With `peer` (the first
    CTA of a pair: a ring of `cta_group = 2`) it then waits for that phase
    of `peer_full[slot]` too: the second CTA's bytes of the slot landed
    (`nvfp4.ring.forward`).

    Example:
    ```mlir
    nvfp4.ring.wait %ring[%slot] phase %parity
        : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot, I32:$phase,
                       UnitAttr:$peer);
  let assemblyFormat = [{
    $ring `[` $slot `]` `phase` $phase (`peer` $peer^)? attr-dict `:`
    qualified(type($ring))
  }];
  let hasVerifier = 1;
}

def NVFP4_RingForwardOp : NVFP4_CtaOp<"ring.forward"> {
  let summary =
      "A CTA pair's second CTA: tell the first that a slot's bytes landed";
  let description = [{
    For a ring of `cta_group = 2`, in the pair's second CTA, one thread,
    after its `nvfp4.ring.wait` of this CTA's `full[slot]` (its own copies
    of the slot landed): arrives, with release semantics at cluster scope,
    on `peer_full[slot]` of the pair's first CTA (this CTA's cluster rank
    with bit 0 cleared), whose `nvfp4.ring.wait ... peer` waits for that
    arrival before its MMAs read this CTA's slot.

    Example:
    ```mlir
    nvfp4.ring.forward %ring[%slot]
        : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1,
                      cta_group = 2>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot);
  let assemblyFormat = [{
    $ring `[` $slot `]` attr-dict `:` qualified(type($ring))
  }];
  let hasVerifier = 1;
}

def NVFP4_RingReleaseOp : NVFP4_CtaOp<"ring.release"> {
  let summary = "Consumer: release a slot (one arrival on its empty barrier)";
  let description = [{
    Executed by one thread per consumer once everything that consumer
    issued on the slot has read it (for asynchronous MMAs: after they
    completed).

    Example:
    ```mlir
    nvfp4.ring.release %ring[%slot]
        : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>
    ```
  }];
  let arguments = (ins NVFP4_RingType:$ring, I32:$slot);
  let assemblyFormat = [{
    $ring `[` $slot `]` attr-dict `:` qualified(type($ring))
  }];
}

#endif // NVFP4_RING_OPS_TD
