//===- Passes.td - the transforms: plan, tile, pipeline ----*- tablegen -*-===//
//
// The first stages of the nvfp4 pipeline (lib/Transforms): nvfp4-plan ->
// nvfp4-tile -> nvfp4-software-pipeline. The conversion's passes are in
// ConversionPasses.td, the binary stage's in BinaryPasses.td: one file per
// layer, so that each layer includes only its own passes' declarations.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_PASSES_TD
#define NVFP4_PASSES_TD

include "mlir/Pass/PassBase.td"

def NVFP4PlanPass : Pass<"nvfp4-plan", "ModuleOp"> {
  let summary = "Choose a kernel strategy for every nvfp4 op and target";
  let description = [{
    Attaches an `nvfp4.plan` attribute (`#nvfp4.gemv_plan`) to every batched
    GEMV (`nvfp4.scaled_matmul` with N = 1): warps per CTA, rows per warp,
    bytes per lane and step, steps in flight, whether B is staged in shared
    memory, the software pipeline, k_split and row_groups (see the
    attribute). A plan already present (written by a user or an autotuner)
    is kept; its shape constraints and shared-memory budget are checked.
    Shapes the target's kernels cannot handle are reported here, before any
    code is generated (the GEMV kernels need K % 64 == 0 and plain scales).
    Other nvfp4 ops have no GPU kernel yet: an error, never a silent
    fallback.

    Before:
    ```mlir
    nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<1x7168x16384xf4E2M1FN>, ...)
        outs(%c : memref<1x7168x1xf16>)
    ```
    After (`target=sm_90a`):
    ```mlir
    nvfp4.scaled_matmul ins(...) outs(...) {nvfp4.plan = #nvfp4.gemv_plan<
        warps_per_cta = 4, rows_per_warp = 2, bytes_per_thread = 16,
        unroll = 2, stage_b = true>}
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "GPU target: sm_100a (B200) or sm_90a (H100/H200); default: the "
           "chip of an existing gpu.module @nvfp4_kernels, else sm_100a">,
    Option<"smCount", "sm-count", "int64_t", /*default=*/"0",
           "Streaming multiprocessors the grids are sized for (0: the "
           "chip's, 132 for sm_90a, 148 for sm_100a)">
  ];
  let dependentDialects = ["::mlir::nvfp4::NVFP4Dialect"];
}

def NVFP4TilePass : Pass<"nvfp4-tile", "ModuleOp"> {
  let summary = "Map planned nvfp4 ops onto a CTA grid in an outlined gpu.func";
  let description = [{
    Every planned GEMV becomes a `gpu.func` kernel `@<function>_kernel` in
    the `gpu.module` `@nvfp4_kernels` (created with an `#nvvm.target` for
    `target`) whose body derives its tile from the block ids (x: the CTA's
    rows, y: the batch) and runs one CTA-level `nvfp4.gemv_tile`. The host op is replaced by a
    `gpu.launch_func` with the grid and block sizes of the plan.

    Before:
    ```mlir
    func.func @gemv(%a: memref<1x7168x16384xf4E2M1FN>, ...) {
      nvfp4.scaled_matmul ins(...) outs(%c : ...) {nvfp4.plan = #nvfp4.gemv_plan<...>}
    ```
    After:
    ```mlir
    gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
      gpu.func @gemv_kernel(%a: memref<...>, ...) kernel {
        %bx = gpu.block_id x
        ...
        nvfp4.gemv_tile ins(...) outs(...) rows %row batch %l plan #nvfp4.gemv_plan<...>
    }
    func.func @gemv(...) {
      gpu.launch_func @nvfp4_kernels::@gemv_kernel blocks in (%c896, %c1, %c1)
          threads in (%c128, %c1, %c1) args(%a : memref<...>, ...)
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "GPU target: sm_100a (B200) or sm_90a (H100/H200); default: the "
           "chip of an existing gpu.module @nvfp4_kernels, else sm_100a">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

def NVFP4SoftwarePipelinePass : Pass<"nvfp4-software-pipeline"> {
  let summary = "Write each CTA's K loop as a multi-stage producer/consumer pipeline";
  let description = [{
    Every `nvfp4.gemm_tile` whose plan has a ring (`stages > 0`) becomes
    its K loop, per thread: a ring of `stages` shared-memory slots with a
    full and an empty mbarrier each (`nvfp4.ring.alloc`); the producer's
    TMA tile copies of A's decoded tiles (`nvfp4.ring.fill`, after
    `nvfp4.ring.acquire` for a reused slot); and the consumers' rounds
    (`nvfp4.ring.wait`, the MMAs, `nvfp4.ring.release`). The loop is
    software-pipelined: the weights' chunks are loaded `b_prefetch`
    rounds ahead and dequantized one round ahead (or, with `b_tma`, the
    producer copies them into the slots with A's tiles, `nvfp4.ring.expect`
    and `nvfp4.ring.copy`, and each round reads the next round's with
    `nvfp4.wgmma.read_b`; each warp then releases the slots its lanes
    read), one round of MMAs stays in
    flight, and the loop is unrolled by two so that consecutive rounds'
    fragments are distinct values (modulo variable expansion). The consumer
    is chosen by the chip of the kernel's gpu.module: sm_90a warpgroups with
    wgmma (`nvfp4.wgmma.*`); a ring plan for another chip is an error.
    With `producer = true` the warpgroup after the consumers fills the
    ring (its first thread, in chunk order; the warpgroup gives its
    registers to the consumers with `setmaxregister`) and the consumers
    only wait, compute and release. The plan must match the kernel's
    `known_block_size` and `known_cluster_size`.
    Tiles without a ring (`stages = 0`) are left to the conversion.

    Before:
    ```mlir
    nvfp4.gemm_tile ins(%a, %sfa : ...) weight(%b, %sfb : ...)
        a_tiles(%map : !nvfp4.tensor_map<...>)
        outs(%c : ...) at m %m n %n batch %l
        plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1,
                                tile_m = 128, stages = 6>>
        epilogue {
        ^bb0(%acc: f32):
          nvfp4.yield %acc : f32
        }
    ```
    After (abridged):
    ```mlir
    %ring = nvfp4.ring.alloc : !nvfp4.ring<stages = 6, slot_bytes = 16384, consumers = 1>
    %b0, %b1, %s0, %s1 = nvfp4.wgmma.load_b ins(%b, %sfb : ...) row %row chunk %c0 batch %l
    %frags = nvfp4.wgmma.decode_b %b0, %b1, %s0, %s1
    nvvm.griddepcontrol wait
    scf.if %thread0 { nvfp4.ring.fill %ring[%s] from %map[%row, %c0] : ... }
    %r:6 = scf.for %i = %c0 to %end step %c2 iter_args(%acc = %zero, ...) {
      nvfp4.ring.wait %ring[%slot] phase %phase : ...
      %acc1 = nvfp4.wgmma.mma %acc, %frags, %ring[%slot] : ...
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.if %release {
        nvfp4.ring.release %ring[%previous] : ...
        scf.if %refill {
          nvfp4.ring.acquire %ring[%previous] phase %p : ...
          nvfp4.ring.fill %ring[%previous] from %map[%r, %c0] : ...
      ...
    nvfp4.wgmma.store %acc outs(%c : ...) at m %m row %row batch %l : vector<64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // NVFP4_PASSES_TD
