//===- NVFP4Attrs.td - nvfp4 attributes --------------------*- tablegen -*-===//
//
// Attributes of the nvfp4 dialect: the scale layout and the execution plans
// that nvfp4-plan records for the later passes.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_ATTRS_TD
#define NVFP4_ATTRS_TD

include "NVFP4Dialect.td"
include "NVFP4Interfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Scale layout
//===----------------------------------------------------------------------===//


// A bool plan field, spelled `true` or `false` (an integer such as 7 is
// refused as not a bool rather than as "too large").
class NVFP4_BoolParameter<string default>
    : DefaultValuedParameter<"bool", default> {
  let parser = "::mlir::nvfp4::parseBoolParameter($_parser)";
}

def NVFP4_ScaleLayout : I32EnumAttr<"ScaleLayout", "layout of e4m3 block scales", [
    I32EnumAttrCase<"Plain", 0, "plain">,
    I32EnumAttrCase<"Blocked", 1, "blocked">
  ]> {
  let cppNamespace = "::mlir::nvfp4";
  let genSpecializedAttr = 0;
}

def NVFP4_ScaleLayoutAttr : EnumAttr<NVFP4_Dialect, NVFP4_ScaleLayout,
                                     "scale_layout"> {
  let summary = "Memory layout of the e4m3 block scales";
  let description = [{
    `plain`: a `[batch x] rows x K/16` row-major array, one scale per 16
    values along K.

    `blocked`: the layout cuBLAS and `tcgen05.cp` consume. Rows are padded to
    a multiple of 128 and scale columns to a multiple of 4; each 128-row x
    4-column atom is 512 contiguous bytes, atoms ordered row-block major,
    K-block minor. Inside an atom the scale of (row r, column c) sits at byte
    `(r % 32) * 16 + (r / 32) * 4 + c`. The memref shape spells the atoms out:
    `[batch x] ceil(rows/128) x ceil(K/64) x 32 x 4 x 4`.

    See the PTX ISA, "Matrix fragments for tcgen05.mma ... block scaling":
    https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-mma-scale-factor-a-layout-1x
  }];
  let assemblyFormat = "`<` $value `>`";
}

def NVFP4_ScaleRounding : I32EnumAttr<"ScaleRounding",
    "how an MXFP4 quantize rounds a block's amax to its e8m0 scale", [
    I32EnumAttrCase<"Floor", 0, "floor">,
    I32EnumAttrCase<"Rceil", 1, "rceil">
  ]> {
  let cppNamespace = "::mlir::nvfp4";
  let genSpecializedAttr = 0;
}

def NVFP4_ScaleRoundingAttr : EnumAttr<NVFP4_Dialect, NVFP4_ScaleRounding,
                                       "scale_rounding"> {
  let summary = "Rounding of an MXFP4 block's power-of-two scale";
  let description = [{
    `floor`: the OCP MX rule, `2^(floor(log2(amax)) - 2)` (2 is e2m1's
    largest exponent); values up to 8x the scale saturate to +-6.
    `rceil`: `amax / 6` rounded up to a power of two (cuBLAS's and
    TensorRT-LLM's MXFP4 quantization); no value saturates.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def NVFP4_ScaleFormat : I32EnumAttr<"ScaleFormat",
    "the block-scaled format a kernel piece decodes", [
    I32EnumAttrCase<"NVFP4", 0, "nvfp4">,
    I32EnumAttrCase<"MXFP4", 1, "mxfp4">
  ]> {
  let cppNamespace = "::mlir::nvfp4";
  let genSpecializedAttr = 0;
}

def NVFP4_ScaleFormatAttr : EnumAttr<NVFP4_Dialect, NVFP4_ScaleFormat,
                                     "scale_format"> {
  let summary = "NVFP4 (e4m3 per 16 values) or MXFP4 (e8m0 per 32)";
  let description = [{
    For the per-thread ops that no longer see a scale memref (a ring
    slot's bytes, raw codes in registers): `nvfp4`, an e4m3 scale per 16
    values; `mxfp4`, an e8m0 (power-of-two) scale per 32 values. The ops
    with scale memrefs take the format from their element type instead.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def NVFP4_GlobalAmaxStep : I32EnumAttr<"GlobalAmaxStep",
    "a step of the device-computed per-tensor scale", [
    I32EnumAttrCase<"Zero", 0, "zero">,
    I32EnumAttrCase<"Amax", 1, "amax">,
    I32EnumAttrCase<"Finalize", 2, "finalize">
  ]> {
  let cppNamespace = "::mlir::nvfp4";
  let genSpecializedAttr = 0;
}

def NVFP4_GlobalAmaxStepAttr : EnumAttr<NVFP4_Dialect, NVFP4_GlobalAmaxStep,
                                        "global_amax_step"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Plans
//===----------------------------------------------------------------------===//

def NVFP4_QuantizePlanAttr : AttrDef<NVFP4_Dialect, "QuantizePlan",
    [DeclareAttrInterfaceMethods<NVFP4_PlanAttrInterface>]> {
  let mnemonic = "quantize_plan";
  let summary = "How nvfp4.quantize is mapped to the GPU";
  let description = [{
    Quantizing is bandwidth-bound: each thread reads whole blocks of 16
    values with 16-byte loads and writes their packed bytes and scales.

    - `warps_per_cta`: warps of a CTA (1 to 32).
    - `blocks_per_thread`: consecutive blocks of 16 values of a row one
      thread quantizes (1, 2 or 4), so that it loads 32 to 256 bytes at
      once and stores 8 x blocks_per_thread bytes of values; the row's
      blocks must be a multiple of it.

    `nvfp4-plan` chooses 64 bytes of input per thread (one block of f32,
    two of f16 or bf16) where the rows allow it; a user may write another.

    Example: `#nvfp4.quantize_plan<warps_per_cta = 8, blocks_per_thread = 2>`.
  }];
  let parameters = (ins "int64_t":$warps_per_cta, "int64_t":$blocks_per_thread);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Blocks of 16 values one CTA quantizes.
    int64_t getBlocksPerCta() const {
      return getWarpsPerCta() * 32 * getBlocksPerThread();
    }
  }];
}

def NVFP4_GemvPlanAttr : AttrDef<NVFP4_Dialect, "GemvPlan",
    [DeclareAttrInterfaceMethods<NVFP4_PlanAttrInterface>]> {
  let mnemonic = "gemv_plan";
  let summary = "How a batched GEMV (N = 1 scaled_matmul) is mapped to the GPU";
  let description = [{
    Chosen by `nvfp4-plan` per target and shape; a user or an autotuner may
    write it in the IR instead, and the plan pass keeps it (checking the
    shape's K % 64 and the plan's shared-memory budget).

    - `warps_per_cta`: warps in a CTA; each warp owns `rows_per_warp` rows.
    - `rows_per_warp`: rows of A one warp reduces together; the decoded B
      fragment is reused across them.
    - `bytes_per_thread`: packed fp4 bytes a thread loads per step (16 or 32);
      each step a warp covers `32 * bytes_per_thread * 2` values of K.
    - `unroll`: steps a thread keeps in flight before the first use.
    - `stage_b` (default false): the CTA decodes the whole B row once into
      shared memory before the K loop, instead of every warp decoding its B
      fragment every step (every warp of a CTA reads the same B chunks).
    - `prefetch` (default true): software-pipeline the K loop, issuing the
      global loads of iteration i + `prefetch_distance` before the math of
      iteration i.
    - `prefetch_distance` (default 1): iterations whose loads are in flight,
      held in registers, while one is computed (1 to 4; needs `prefetch`).
    - `k_split` (default 1): warps that share a group of rows, each taking
      every k_split-th 32-chunk span of K; their partial sums meet in shared
      memory. A CTA then covers (warps_per_cta / k_split) * rows_per_warp
      rows, so the grid has k_split times more CTAs.
    - `row_groups` (default 1): consecutive row groups one CTA computes in a
      loop, reusing its staged B; the grid has row_groups times fewer CTAs.
      The software pipeline runs across the groups' boundaries.
    - `stages` (default 0): 0 keeps A's in-flight loads in registers (the
      prefetch above). N >= 2 streams A through a ring of N shared-memory
      slots per warp instead: lane 0 fills a slot with bulk copies
      (`cp.async.bulk`, the TMA engine) of one outer iteration of the
      warp's rows (values and scales) and an mbarrier tracks their bytes, so
      N - 1 iterations are in flight without holding registers. Needs
      `stage_b`, `k_split = 1`, rows that are whole iterations long, and A
      and its scales 16-byte aligned (bulk copies); the ring is its own
      pipeline, so `prefetch` and `prefetch_distance` keep their defaults.

    Example: `#nvfp4.gemv_plan<warps_per_cta = 4, rows_per_warp = 1,
    bytes_per_thread = 16, unroll = 4, stage_b = true>`.
  }];
  let parameters = (ins "int64_t":$warps_per_cta, "int64_t":$rows_per_warp,
                        "int64_t":$bytes_per_thread, "int64_t":$unroll,
                        NVFP4_BoolParameter<"false">:$stage_b,
                        NVFP4_BoolParameter<"true">:$prefetch,
                        DefaultValuedParameter<"int64_t", "1">:$k_split,
                        DefaultValuedParameter<"int64_t", "1">:$row_groups,
                        DefaultValuedParameter<"int64_t", "0">:$stages,
                        DefaultValuedParameter<"int64_t", "1">:$prefetch_distance);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Rows of A one CTA computes per row group.
    int64_t getRowsPerCta() const {
      return getWarpsPerCta() / getKSplit() * getRowsPerWarp();
    }
    /// The launch grid's x dimension for `rows` rows per batch: one CTA per
    /// row_groups groups of rows.
    int64_t getGridX(int64_t rows) const {
      return (rows + getRowsPerCta() * getRowGroups() - 1) /
             (getRowsPerCta() * getRowGroups());
    }
    /// The most row groups a CTA can use on `rows` rows: more leave the
    /// extra groups without rows (one CTA covers them all already).
    int64_t getMaxRowGroups(int64_t rows) const {
      return (rows + getRowsPerCta() - 1) / getRowsPerCta();
    }
    /// Packed fp4 bytes of one row that one outer iteration of a warp covers.
    int64_t getIterationBytes() const {
      return 32 * getKSplit() * getBytesPerThread() * getUnroll();
    }
    /// stages > 0: bytes of one ring slot (values and scales of the warp's
    /// rows for one outer iteration) and of the CTA's whole ring with its
    /// 8-byte mbarriers.
    int64_t getRingSlotBytes() const {
      return getRowsPerWarp() * (getIterationBytes() + getIterationBytes() / 8);
    }
    int64_t getRingBytes() const {
      int64_t slots = getWarpsPerCta() * getStages();
      return slots * getRingSlotBytes() + (slots * 8 + 15) / 16 * 16;
    }
  }];
}

include "NVFP4KernelPlan.td"

#endif // NVFP4_ATTRS_TD
