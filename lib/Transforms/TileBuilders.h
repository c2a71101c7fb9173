//===- TileBuilders.h - what nvfp4-tile builds kernels with -----*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The pieces nvfp4-tile (Tile.cpp) and the GEMM's grid and launches
// (Gemm/TileScheduler.cpp, Gemm/ProblemScheduler.cpp) share: workspaces,
// kernels, launches that record their plan. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TRANSFORMS_TILEBUILDERS_H
#define NVFP4_TRANSFORMS_TILEBUILDERS_H

#include "Gemm/GemmOperands.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

#include <optional>

namespace mlir::nvfp4 {

/// A byte workspace of the entry (gpu.alloc; the launcher allocates it),
/// and its release after the entry's last use.
Value allocWorkspace(OpBuilder &hb, Location loc, MemRefType type);
void freeWorkspace(OpBuilder &hb, Location loc, Value workspace);

/// Launches `kernel`, recording the plan (if any) on the launch (nvfp4-run
/// prints it).
gpu::LaunchFuncOp
launchWithPlan(OpBuilder &hb, Location loc, gpu::GPUFuncOp kernel,
               gpu::KernelDim3 grid, gpu::KernelDim3 block, Value dynamicShared,
               ValueRange operands, Attribute plan,
               std::optional<gpu::KernelDim3> cluster = std::nullopt);

/// The launch's cluster shape of a kernel whose plan asks for one (`shape`
/// x, y, z, more than one CTA), which the kernel also declares
/// (known_cluster_size, .reqnctapercluster in the PTX); none otherwise.
std::optional<gpu::KernelDim3> clusterOf(OpBuilder &hb, OpBuilder &kb,
                                         Location loc, gpu::GPUFuncOp kernel,
                                         ArrayRef<int64_t> shape);

/// Creates an empty kernel `name` taking `argTypes` with `threads` threads
/// per CTA; the builder is left at the start of its body.
gpu::GPUFuncOp createKernel(OpBuilder &kb, Location loc, StringRef name,
                            TypeRange argTypes, int64_t threads,
                            SymbolTable &symbols);

/// Block id `d` times `factor`, as an index.
Value scaledBlockId(OpBuilder &kb, Location loc, gpu::Dimension d,
                    int64_t factor);

/// Launches kernel `name`: CTAs of nvfp4.block_scales_tile writing `dst`
/// (the blocked layout of `src`), one per 4 x kThreads words; `plan` (if
/// any) is recorded on the launch.
void launchBlockScales(OpBuilder &hb, OpBuilder &kb, Location loc,
                       gpu::GPUModuleOp kernels, SymbolTable &symbols,
                       StringRef name, Value src, Value dst, Attribute plan);

/// The sm_100a GEMM's scales of an operand (`rows` rows, `batch` batches
/// if `batched`) as its ring slots copy them: blocked, K chunks padded to
/// whole slots. Scales already so are used as they are; others are
/// written so into a workspace by the pre-pass kernel
/// `<name>_block_<operand>`, before the GEMM in stream order
/// (Gemm/TileScheduler.cpp).
Value slotBlockedScales(OpBuilder &hb, OpBuilder &kb, Location loc,
                        gpu::GPUModuleOp kernels, SymbolTable &symbols,
                        StringRef name, Value scales, ScaleLayout layout,
                        int64_t k, int64_t rows, bool batched, int64_t batch,
                        Attribute plan, SmallVectorImpl<Value> &workspaces);

/// nvfp4.quantize as one kernel of nvfp4.quantize_tile CTAs in
/// `kernels` and its launch, in place of the op (Quantize/TileQuantize.cpp).
LogicalResult tileQuantize(QuantizeOp op, QuantizePlanAttr plan,
                           gpu::GPUModuleOp kernels, SymbolTable &symbols,
                           StringRef kernelName);

/// A GEMM-shaped op (a scaled_matmul or scaled_dual_matmul with a
/// #nvfp4.kernel plan) as its kernels and launches in `kernels`, in place
/// of the op (Gemm/TileScheduler.cpp): a #nvfp4.wgmma_mainloop (tileGemm)
/// or a #nvfp4.tcgen05_mainloop (tileGemmTcgen05).
LogicalResult tileGemm(const GemmOperands &op, KernelPlanAttr plan,
                       gpu::GPUModuleOp kernels, SymbolTable &symbols,
                       StringRef kernelName);
LogicalResult tileGemmTcgen05(const GemmOperands &op, KernelPlanAttr plan,
                              gpu::GPUModuleOp kernels, SymbolTable &symbols,
                              StringRef kernelName);

/// A grouped_problems with a #nvfp4.kernel plan (a wgmma or tcgen05
/// mainloop) as one kernel whose CTAs each take a tile of one problem, and
/// its pre-passes (Gemm/ProblemScheduler.cpp), in place of the op.
void tileProblems(GroupedProblemsOp op, KernelPlanAttr plan,
                  gpu::GPUModuleOp kernels, SymbolTable &symbols,
                  StringRef kernelName);

} // namespace mlir::nvfp4

#endif // NVFP4_TRANSFORMS_TILEBUILDERS_H
