//===- NVFP4Dialect.h - nvfp4 dialect ---------------------------*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The nvfp4 dialect, its attributes and operations.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_DIALECT_NVFP4_NVFP4DIALECT_H
#define NVFP4_DIALECT_NVFP4_NVFP4DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::nvfp4 {
struct KernelParts;
} // namespace mlir::nvfp4

#include "nvfp4/Dialect/NVFP4/NVFP4AttrInterfaces.h.inc"
#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h.inc"
#include "nvfp4/Dialect/NVFP4/NVFP4Enums.h.inc"

// (The tcgen05 mainloop plan sizes its scales by the format.)
#include "nvfp4/Dialect/NVFP4/BlockFormat.h"

namespace mlir::nvfp4 {
/// Parses a bool attribute parameter: `true` or `false`.
FailureOr<bool> parseBoolParameter(AsmParser &parser);
} // namespace mlir::nvfp4

#define GET_ATTRDEF_CLASSES
#include "nvfp4/Dialect/NVFP4/NVFP4Attrs.h.inc"

namespace mlir::nvfp4 {
/// The parts of a `#nvfp4.kernel` plan, as each part sees the others
/// (KernelPartAttrInterface); a missing part is null.
struct KernelParts {
  MainloopAttrInterface mainloop;
  SplitKAttr reduction;
  /// Every part, mainloop first.
  SmallVector<KernelPartAttrInterface, 2> all() const {
    SmallVector<KernelPartAttrInterface, 2> parts = {
        cast<KernelPartAttrInterface>(mainloop)};
    if (reduction)
      parts.push_back(cast<KernelPartAttrInterface>(reduction));
    return parts;
  }
  /// CTAs that split K (1 without a reduction).
  int64_t getSplits() const { return reduction ? reduction.getSplits() : 1; }
};
} // namespace mlir::nvfp4

#define GET_TYPEDEF_CLASSES
#include "nvfp4/Dialect/NVFP4/NVFP4Types.h.inc"

namespace mlir::nvfp4 {
/// Whether the source of a scale re-layout holds plain scales ([L x] rows x
/// K/16) rather than blocked atoms (rank 5 or 6).
inline bool isPlainScaleSource(MemRefType src) { return src.getRank() <= 3; }
} // namespace mlir::nvfp4

#include "nvfp4/Dialect/NVFP4/NVFP4Traits.h"

#define GET_OP_CLASSES
#include "nvfp4/Dialect/NVFP4/NVFP4Ops.h.inc"

namespace mlir::nvfp4 {

/// Logical shape of a K-major NVFP4 operand: `[batch x] rows x k`.
struct OperandShape {
  /// Batch size; 1 for rank-2 (unbatched) operands.
  int64_t batch = 1;
  int64_t rows = 0;
  int64_t k = 0;
  /// Whether the operand carries a leading batch dimension.
  bool batched = false;
};

/// Returns the `[batch x] rows x k` view of a rank-2 or rank-3 static memref.
OperandShape getOperandShape(MemRefType type);

/// The `known_block_size` of the kernel around `op` (its nearest
/// isolated-from-above ancestor, a gpu.func; read by name so that the
/// dialect does not depend on the GPU dialect), or null where none is
/// known.
DenseI32ArrayAttr getKnownBlockSize(Operation *op);

/// Whether a kernel's CTA or cluster shape `shape` is `x` x 1 x 1.
bool isRowShape(DenseI32ArrayAttr shape, int64_t x);

/// What a scale re-layout (nvfp4.block_scales, nvfp4.block_scales_tile)
/// reads and writes, per batch: `rows` rows of the source (a blocked
/// source's padding rows included), `srcChunks` and `chunks` 4-column
/// chunks of K in the source and the (blocked, padded) destination, which
/// has `rowBlocks` blocks of 128 rows.
struct BlockScalesShape {
  bool plain;
  int64_t batch, rows, rowBlocks, srcChunks, chunks;
};
BlockScalesShape getBlockScalesShape(MemRefType src, MemRefType dst);

/// The plan attributes' spelling of a block format.
inline ScaleFormat getScaleFormat(BlockFormat format) {
  return format.isMX() ? ScaleFormat::MXFP4 : ScaleFormat::NVFP4;
}

/// Returns the expected shape of a scale memref of `format` for `rows x k`
/// values in `layout`, with a leading `batch` dimension when `batched` is
/// set.
SmallVector<int64_t> getScaleShape(BlockFormat format, ScaleLayout layout,
                                   int64_t rows, int64_t k, bool batched,
                                   int64_t batch);

} // namespace mlir::nvfp4

#endif // NVFP4_DIALECT_NVFP4_NVFP4DIALECT_H
