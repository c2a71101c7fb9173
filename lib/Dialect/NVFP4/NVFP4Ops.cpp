//===- NVFP4Ops.cpp - nvfp4 operations and their verifiers ----------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Every constraint of the op definitions is checked here with a message that
// names the operand, the expected shape (with its symbolic form) and what was
// found. Constraints of one particular lowering (K % 64 for the GEMV kernels)
// are not checked on the kernel-level ops: nvfp4-plan reports them. The
// CTA-level gemv_tile, which only exists for that lowering, checks them.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Dialect/NVFP4/Tcgen05Tiles.h"
#include "nvfp4/Dialect/NVFP4/WgmmaBTiles.h"
#include "nvfp4/Target/Tcgen05Descriptors.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nvfp4;

DenseI32ArrayAttr mlir::nvfp4::getKnownBlockSize(Operation *op) {
  Operation *fn = op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  return fn ? fn->getAttrOfType<DenseI32ArrayAttr>("known_block_size")
            : DenseI32ArrayAttr();
}

bool mlir::nvfp4::isRowShape(DenseI32ArrayAttr shape, int64_t x) {
  return shape.asArrayRef() ==
         ArrayRef<int32_t>({static_cast<int32_t>(x), 1, 1});
}

BlockScalesShape mlir::nvfp4::getBlockScalesShape(MemRefType src,
                                                  MemRefType dst) {
  ArrayRef<int64_t> s = src.getShape(), d = dst.getShape();
  BlockScalesShape shape;
  shape.plain = isPlainScaleSource(src);
  shape.batch = d.size() == 6 ? d.front() : 1;
  shape.rowBlocks = d[d.size() - 5];
  shape.chunks = d[d.size() - 4];
  shape.srcChunks = shape.plain ? s.back() / 4 : s[s.size() - 4];
  shape.rows = shape.plain ? s[s.size() - 2] : shape.rowBlocks * 128;
  return shape;
}

OperandShape mlir::nvfp4::getOperandShape(MemRefType type) {
  OperandShape s;
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() == 3) {
    s.batched = true;
    s.batch = shape[0];
  }
  s.rows = shape[shape.size() - 2];
  s.k = shape.back();
  return s;
}

SmallVector<int64_t> mlir::nvfp4::getScaleShape(BlockFormat format,
                                                ScaleLayout layout,
                                                int64_t rows, int64_t k,
                                                bool batched, int64_t batch) {
  SmallVector<int64_t> shape;
  if (batched)
    shape.push_back(batch);
  if (layout == ScaleLayout::Plain) {
    shape.append({rows, format.getScaleColumns(k)});
  } else {
    // An atom spelled out: 32 rows x 4 row groups x 4 columns.
    shape.append({BlockFormat::getRowAtoms(rows), format.getColumnAtoms(k), 32,
                  4, BlockFormat::kAtomColumns});
  }
  return shape;
}

namespace {

/// Prints a shape as `[a, b, c]`.
std::string formatShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

/// The symbolic form of a scale shape, for diagnostics.
std::string scaleShapeSpelling(BlockFormat format, ScaleLayout layout,
                               StringRef batch, StringRef rows) {
  std::string prefix = batch.empty() ? "" : batch.str() + ", ";
  if (layout == ScaleLayout::Plain)
    return "([" + prefix + rows.str() + ", K/" +
           std::to_string(format.blockSize) + "])";
  return "([" + prefix + "ceil(" + rows.str() + "/128), ceil(K/" +
         std::to_string(format.getAtomK()) + "), 32, 4, 4])";
}

/// Checks that memref `value` (operand `name` of `op`) is static, non-empty
/// and has an identity layout; the kernels address memrefs as dense
/// row-major arrays.
LogicalResult verifyDense(Operation *op, Value value, StringRef name) {
  auto type = cast<MemRefType>(value.getType());
  if (!type.hasStaticShape())
    return op->emitOpError() << "expects '" << name
                             << "' to have a static shape, but got " << type;
  if (llvm::is_contained(type.getShape(), 0))
    return op->emitOpError()
           << "expects every dimension of '" << name
           << "' to be at least 1 (an empty problem has nothing to "
              "compute or launch), but got "
           << type;
  if (!type.getLayout().isIdentity())
    return op->emitOpError()
           << "expects '" << name
           << "' to have an identity layout (dense, row-major), but got "
           << type;
  // The kernels read and write their operands in global memory.
  if (Attribute space = type.getMemorySpace()) {
    auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
    if (!gpuSpace || gpuSpace.getValue() != gpu::AddressSpace::Global)
      return op->emitOpError()
             << "expects '" << name
             << "' in global memory (the default memory space or "
                "#gpu.address_space<global>), but got memory space "
             << space;
  }
  return success();
}

/// Checks that a GEMV plan's row_groups are no more than `rows` rows of A
/// can use: beyond that a single CTA loops over every row.
LogicalResult verifyGemvRowGroups(Operation *op, GemvPlanAttr plan,
                                  int64_t rows) {
  int64_t most = plan.getMaxRowGroups(rows);
  if (plan.getRowGroups() > most)
    return op->emitOpError()
           << "has a GEMV plan with row_groups = " << plan.getRowGroups()
           << ", but its " << rows << " rows of A fill at most " << most
           << " group" << (most == 1 ? "" : "s") << " of "
           << plan.getRowsPerCta()
           << " rows (warps_per_cta / k_split x rows_per_warp); use "
              "row_groups <= "
           << most;
  return success();
}

/// verifyDense on the leading memref operands of `op`, named `names`.
LogicalResult verifyDenseOperands(Operation *op, ArrayRef<StringRef> names) {
  for (auto [value, name] : llvm::zip(op->getOperands(), names))
    if (failed(verifyDense(op, value, name)))
      return failure();
  return success();
}

/// Checks an FP4 data operand against the reference operand `a`: same rank,
/// batch and K.
LogicalResult verifyLikeA(Operation *op, StringRef name, MemRefType type,
                          const OperandShape &a, StringRef aName = "a") {
  int64_t rank = a.batched ? 3 : 2;
  if (type.getRank() != rank)
    return op->emitOpError() << "expects '" << name << "' to have rank " << rank
                             << " like '" << aName << "', but got rank "
                             << type.getRank();
  OperandShape s = getOperandShape(type);
  if (s.batch != a.batch)
    return op->emitOpError() << "expects '" << name << "' to have batch size "
                             << a.batch << " like '" << aName << "', but got "
                             << s.batch;
  if (s.k != a.k)
    return op->emitOpError() << "expects '" << name << "' to have K = " << a.k
                             << " like '" << aName << "', but got " << s.k;
  return success();
}

/// The block scales of C that `op` writes (an NVFP4 or MXFP4 C), or null:
/// C's format is its own, independent of the operands'.
Value getOutputScales(Operation *op) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<ScaledMatmulOp, ScaledDualMatmulOp, GemmTileOp, WgmmaStoreOp,
            Tcgen05StoreOp>([](auto o) -> Value { return o.getCScales(); })
      .Default([](Operation *) { return Value(); });
}

/// The block format of `op`'s scale operands but C's, which must all share
/// it (a product of NVFP4 and MXFP4 operands is not built); NVFP4 for an
/// op without scales.
FailureOr<BlockFormat> verifyFormat(Operation *op) {
  std::optional<BlockFormat> format;
  Type first;
  Value cScales = getOutputScales(op);
  for (Value value : op->getOperands()) {
    if (cScales && value == cScales)
      continue;
    auto type = dyn_cast<MemRefType>(value.getType());
    std::optional<BlockFormat> f =
        type ? BlockFormat::get(type.getElementType()) : std::nullopt;
    if (!f)
      continue;
    if (format && *format != *f)
      return op->emitOpError()
             << "expects every block scale in one format, but got "
             << format->getName() << " scales (" << first << ") and "
             << f->getName() << " scales (" << type.getElementType()
             << "); mixed NVFP4 x MXFP4 products are not supported";
    if (!format) {
      format = f;
      first = type.getElementType();
    }
  }
  return format.value_or(BlockFormat::nvfp4());
}

/// Checks that the op's scales share a format and that K is a multiple of
/// its block size.
LogicalResult verifyK(Operation *op, int64_t k) {
  FailureOr<BlockFormat> format = verifyFormat(op);
  if (failed(format))
    return failure();
  if (k % format->blockSize != 0)
    return op->emitOpError()
           << "expects K (" << k << ") to be a multiple of "
           << format->blockSize << ", the " << format->getName()
           << " scale block size";
  return success();
}

/// Checks a scale operand's shape for `rows x k` values in `layout`.
LogicalResult verifyScales(Operation *op, StringRef name, MemRefType type,
                           ScaleLayout layout, int64_t rows, StringRef rowsName,
                           int64_t k, bool batched, int64_t batch,
                           StringRef batchName = "L") {
  const BlockFormat format = BlockFormat::of(type);
  SmallVector<int64_t> want =
      getScaleShape(format, layout, rows, k, batched, batch);
  if (type.getShape() != ArrayRef<int64_t>(want))
    return op->emitOpError()
           << "expects '" << name << "' in the " << stringifyScaleLayout(layout)
           << " scale layout to have shape " << formatShape(want) << " "
           << scaleShapeSpelling(format, layout, batched ? batchName : "",
                                 rowsName)
           << ", but got " << formatShape(type.getShape());
  return success();
}

/// Checks the output shape.
LogicalResult verifyOutput(Operation *op, MemRefType type,
                           ArrayRef<int64_t> want, StringRef spelling,
                           StringRef name = "c") {
  if (type.getShape() != want)
    return op->emitOpError()
           << "expects '" << name << "' to have shape " << formatShape(want)
           << " "
           << spelling << ", but got " << formatShape(type.getShape());
  return success();
}

/// Checks C's format companions: an FP4 C (f4E2M1FN, `[L x] M x N`)
/// comes with its block scales `cScales` of C's shape in `layout`: e4m3
/// (NVFP4: N a multiple of 16, optionally a one-f32 `global`) or e8m0
/// (MXFP4: N a multiple of 32, no `global`, the op's `c_scale_rounding`
/// only here); a float C with none of them. `partials` (split-K's raw
/// sums) and a tile that ends at a run-time row (`rowEnd`: a grouped
/// GEMM's) only with a float C.
LogicalResult verifyOutputFormat(Operation *op, MemRefType cType,
                                 Value cScales, Value global,
                                 ScaleLayout layout, Value partials,
                                 Value rowEnd = {}) {
  const bool fp4 = isa<Float4E2M1FNType>(cType.getElementType());
  const bool rounding = op->hasAttr("c_scale_rounding");
  if (!fp4) {
    if (cScales || global || rounding)
      return op->emitOpError()
             << "expects 'c_scales', 'c_global_scale' and 'c_scale_rounding' "
                "only with an FP4 C (f4E2M1FN), but C is "
             << cType.getElementType();
    return success();
  }
  if (!cScales)
    return op->emitOpError() << "expects 'c_scales' (C's e4m3 or e8m0 block "
                                "scales) with an FP4 C (f4E2M1FN)";
  auto scalesType = cast<MemRefType>(cScales.getType());
  const BlockFormat format = BlockFormat::of(scalesType);
  if (format.isMX() && global)
    return op->emitOpError()
           << "expects no 'c_global_scale' with an MXFP4 C (f8E8M0FNU "
              "'c_scales'): MXFP4 has only its power-of-two block scales";
  if (!format.isMX() && rounding)
    return op->emitOpError()
           << "expects 'c_scale_rounding' only with an MXFP4 C (f8E8M0FNU "
              "'c_scales'): NVFP4's e4m3 scales round to nearest";
  if (partials)
    return op->emitOpError()
           << "expects no split-K partials with an " << format.getName()
           << " C: its blocks are quantized from the "
              "finished sums";
  if (rowEnd)
    return op->emitOpError() << "expects no run-time row end (a grouped "
                                "GEMM's tile) with an "
                             << format.getName() << " C";
  if (failed(verifyDense(op, cScales, "c_scales")) ||
      (global && failed(verifyDense(op, global, "c_global_scale"))))
    return failure();
  if (global &&
      cast<MemRefType>(global.getType()).getShape() != ArrayRef<int64_t>{1})
    return op->emitOpError()
           << "expects 'c_global_scale' to hold one f32 (memref<1xf32>), but "
              "got "
           << global.getType();
  if (cType.getRank() != 2 && cType.getRank() != 3)
    return op->emitOpError() << "expects an FP4 C of rank 2 or 3";
  OperandShape c = getOperandShape(cType);
  if (c.k % format.blockSize != 0)
    return op->emitOpError()
           << "expects N (" << c.k << ") to be a multiple of "
           << format.blockSize << " with an " << format.getName()
           << " C (one scale per " << format.blockSize << " values of a row)";
  return verifyScales(op, "c_scales", scalesType, layout, c.rows, "M", c.k,
                      c.batched, c.batch);
}

/// Checks the rank of the leading operand.
LogicalResult verifyRank2or3(Operation *op, StringRef name, MemRefType type,
                             StringRef rows) {
  if (type.getRank() != 2 && type.getRank() != 3)
    return op->emitOpError() << "expects '" << name << "' to have rank 2 (["
                             << rows << ", K]) or 3 ([L, " << rows
                             << ", K]), but got rank " << type.getRank();
  return success();
}

/// The checks every A-times-B op starts with: dense operands, A of rank 2 or
/// 3, B like A (rank, batch, K) and K a multiple of 16. Returns A's shape.
FailureOr<OperandShape> verifyProductOperands(Operation *op,
                                              ArrayRef<StringRef> names,
                                              MemRefType aType, StringRef bName,
                                              MemRefType bType) {
  if (failed(verifyDenseOperands(op, names)) ||
      failed(verifyRank2or3(op, "a", aType, "M")))
    return failure();
  OperandShape a = getOperandShape(aType);
  if (failed(verifyLikeA(op, bName, bType, a)) || failed(verifyK(op, a.k)))
    return failure();
  return a;
}

SmallVector<int64_t> outputShape(const OperandShape &a, int64_t n) {
  SmallVector<int64_t> shape;
  if (a.batched)
    shape.push_back(a.batch);
  shape.append({a.rows, n});
  return shape;
}

/// The checks of an A x B^T op with separate scale and output operands (the
/// kernel-level scaled_matmul and the CTA-level tiles): operands, both
/// scales in their layouts (for K rounded up by `scaleK`, the identity by
/// default; A's for `sfaRows` rows named `sfaRowsName`, by default A's M,
/// unbatched when they are not A's), and C's shape. Returns A's shape.
FailureOr<OperandShape>
verifyScaledProduct(Operation *op, MemRefType aType, MemRefType sfaType,
                    MemRefType bType, MemRefType sfbType, MemRefType cType,
                    ScaleLayout sfaLayout, ScaleLayout sfbLayout,
                    int64_t (*scaleK)(int64_t) = nullptr,
                    std::optional<int64_t> sfaRows = std::nullopt,
                    StringRef sfaRowsName = "M") {
  FailureOr<OperandShape> shape = verifyProductOperands(
      op, {"a", "sfa", "b", "sfb", "c"}, aType, "b", bType);
  if (failed(shape))
    return failure();
  const OperandShape &a = *shape;
  int64_t n = getOperandShape(bType).rows;
  const int64_t k = scaleK ? scaleK(a.k) : a.k;
  if (failed(verifyScales(op, "sfa", sfaType, sfaLayout,
                          sfaRows.value_or(a.rows), sfaRowsName, k,
                          a.batched && !sfaRows, a.batch)) ||
      failed(verifyScales(op, "sfb", sfbType, sfbLayout, n, "N", k, a.batched,
                          a.batch)) ||
      failed(verifyOutput(op, cType, outputShape(a, n),
                          a.batched ? "([L, M, N])" : "([M, N])")))
    return failure();
  return a;
}

/// Checks the GEMM's scales, K step and the tensor map of the decoded
/// tiles of A.
LogicalResult verifyGemmTiles(Operation *op, const OperandShape &a,
                              WgmmaMainloopAttr plan, TensorMapType tiles) {
  FailureOr<BlockFormat> format = verifyFormat(op);
  if (failed(format))
    return failure();
  if (a.k % WgmmaMainloopAttr::kTileK != 0)
    return op->emitOpError() << "expects K (" << a.k
                             << ") to be a multiple of 64, the GEMM kernels' "
                                "K step";
  if (!tiles)
    return success();
  TensorMapType want = getATilesMapType(plan, a.batch, a.rows, a.k, *format);
  if (tiles != want)
    return op->emitOpError() << "expects the decoded tiles of A as " << want
                             << ", but got " << tiles;
  // The fills address tiles by row with TMA's signed 32-bit coordinates.
  if (want.getShape()[0] > std::numeric_limits<int32_t>::max())
    return op->emitOpError()
           << "expects the decoded tiles of A to have fewer than 2^31 rows "
              "(TMA coordinates are signed 32-bit), but they have "
           << want.getShape()[0];
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// ScaledMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult ScaledMatmulOp::verify() {
  FailureOr<OperandShape> a = verifyScaledProduct(
      getOperation(), getA().getType(), getSfa().getType(), getB().getType(),
      getSfb().getType(), getC().getType(), getSfaLayout(), getSfbLayout());
  if (failed(a) ||
      failed(verifyOutputFormat(getOperation(), getC().getType(),
                                getCScales(), getCGlobalScale(),
                                getCScalesLayout(), Value())))
    return failure();
  // A plan given in the IR uses only what the shape has.
  if (auto gemv =
          (*this)->getAttrOfType<GemvPlanAttr>(NVFP4Dialect::kPlanAttrName))
    return verifyGemvRowGroups(getOperation(), gemv, a->rows);
  return success();
}

//===----------------------------------------------------------------------===//
// ScaledDualMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult ScaledDualMatmulOp::verify() {
  Operation *op = getOperation();
  FailureOr<OperandShape> shape =
      verifyProductOperands(op, {"a", "sfa", "b1", "sfb1", "b2", "sfb2", "c"},
                            getA().getType(), "b1", getB1().getType());
  if (failed(shape))
    return failure();
  const OperandShape &a = *shape;
  if (getB1().getType().getShape() != getB2().getType().getShape())
    return emitOpError() << "expects 'b1' and 'b2' to have the same shape, "
                            "but got "
                         << formatShape(getB1().getType().getShape()) << " and "
                         << formatShape(getB2().getType().getShape());
  int64_t n = getOperandShape(getB1().getType()).rows;
  if (failed(verifyScales(op, "sfa", getSfa().getType(), getSfaLayout(), a.rows,
                          "M", a.k, a.batched, a.batch)) ||
      failed(verifyScales(op, "sfb1", getSfb1().getType(), getSfbLayout(), n,
                          "N", a.k, a.batched, a.batch)) ||
      failed(verifyScales(op, "sfb2", getSfb2().getType(), getSfbLayout(), n,
                          "N", a.k, a.batched, a.batch)))
    return failure();
  if (failed(verifyOutput(op, getC().getType(), outputShape(a, n),
                          a.batched ? "([L, M, N])" : "([M, N])")))
    return failure();
  return verifyOutputFormat(op, getC().getType(), getCScales(),
                            getCGlobalScale(), getCScalesLayout(), Value());
}

//===----------------------------------------------------------------------===//
// GroupedMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult GroupedMatmulOp::verify() {
  Operation *op = getOperation();
  if (failed(verifyDenseOperands(op, {"a", "sfa", "b", "sfb", "offsets", "c"})))
    return failure();
  MemRefType aType = getA().getType();
  if (aType.getRank() != 2)
    return emitOpError() << "expects 'a' to have rank 2 ([Mmax, K], the "
                            "groups' rows stacked), but got rank "
                         << aType.getRank();
  MemRefType bType = getB().getType();
  if (bType.getRank() != 3)
    return emitOpError() << "expects 'b' to have rank 3 ([G, N, K]), but got "
                            "rank "
                         << bType.getRank();
  int64_t rows = aType.getDimSize(0), k = aType.getDimSize(1);
  int64_t g = bType.getDimSize(0);
  // Every warp of the kernel finds its tile from all G + 1 offsets in
  // passes of 32 written out (nvfp4.group_tile), and the planner and the
  // reference keep per-group vectors: code, compile time and memory grow
  // with G, so G is bounded (MoE models have up to a few hundred experts).
  constexpr int64_t kMaxGroups = 1024;
  if (g > kMaxGroups)
    return emitOpError() << "expects at most " << kMaxGroups
                         << " groups (the kernel walks every group's offset "
                            "to find its tile), but 'b' has "
                         << g;
  if (rows > std::numeric_limits<int32_t>::max())
    return emitOpError() << "expects at most 2^31 - 1 rows (the offsets are "
                            "i32), but 'a' has "
                         << rows;
  if (bType.getDimSize(2) != k)
    return emitOpError() << "expects 'b' to have K = " << k
                         << " like 'a', but got " << bType.getDimSize(2);
  if (failed(verifyK(op, k)))
    return failure();
  int64_t n = bType.getDimSize(1);
  MemRefType offsetsType = getOffsets().getType();
  if (offsetsType.getDimSize(0) != g + 1)
    return emitOpError() << "expects 'offsets' to hold G + 1 = " << g + 1
                         << " row offsets (one more than 'b' has groups), "
                            "but it holds "
                         << offsetsType.getDimSize(0);
  if (std::optional<ArrayRef<int64_t>> hint = getSizeHint()) {
    if (static_cast<int64_t>(hint->size()) != g)
      return emitOpError() << "expects 'size_hint' to give one size per "
                              "group ("
                           << g << "), but it gives " << hint->size();
    int64_t total = 0;
    for (auto [i, m] : llvm::enumerate(*hint)) {
      if (m < 0)
        return emitOpError() << "expects 'size_hint' to hold sizes >= 0, but "
                                "group "
                             << i << " has " << m;
      // Each at most the rows, so the sum cannot overflow.
      if (m > rows)
        return emitOpError() << "expects every size of 'size_hint' to be at "
                                "most the rows of 'a' ("
                             << rows << "), but group " << i << " has " << m;
      total += m;
    }
    if (total > rows)
      return emitOpError() << "expects the sizes of 'size_hint' to sum to at "
                              "most the rows of 'a' ("
                           << rows << "), but they sum to " << total;
  }
  // A's scales travel with its rows: plain only, since a group may start
  // at any row (blocked atoms would need each group on a 128-row atom).
  if (getSfaLayout() != ScaleLayout::Plain)
    return emitOpError()
           << "expects 'sfa' in the plain scale layout: a group starts at "
              "any row decided at run time, so A's scales cannot be in "
              "128-row atoms of their own (the kernels read them row by "
              "row)";
  if (failed(verifyScales(op, "sfa", getSfa().getType(), ScaleLayout::Plain,
                          rows, "Mmax", k, /*batched=*/false, 1)) ||
      failed(verifyScales(op, "sfb", getSfb().getType(), getSfbLayout(), n, "N",
                          k, /*batched=*/true, g, "G")))
    return failure();
  return verifyOutput(op, getC().getType(), {rows, n}, "([Mmax, N])");
}

//===----------------------------------------------------------------------===//
// GroupedProblemsOp
//===----------------------------------------------------------------------===//

LogicalResult GroupedProblemsOp::verify() {
  Operation *op = getOperation();
  const size_t g = getA().size();
  if (g == 0)
    return emitOpError() << "expects at least one problem";
  const StringRef lists[] = {"sfa", "b", "sfb", "c"};
  const size_t sizes[] = {getSfa().size(), getB().size(), getSfb().size(),
                          getC().size()};
  for (auto [name, size] : llvm::zip(lists, sizes))
    if (size != g)
      return emitOpError() << "expects one '" << name << "' per problem ("
                           << g << ", as many as 'a'), but got " << size;
  FailureOr<BlockFormat> format = verifyFormat(op);
  if (failed(format))
    return failure();
  // Each C a buffer of its own, read by no problem: the problems' CTAs run
  // in any order.
  for (auto [i, c] : llvm::enumerate(getC()))
    for (OpOperand &other : op->getOpOperands())
      if (other.get() == c && other.getOperandNumber() !=
                                  getC().getBeginOperandIndex() + i)
        return emitOpError()
               << "expects 'c[" << i
               << "]' to be an operand of its own (the problems run in any "
                  "order), but it is also operand #"
               << other.getOperandNumber();
  for (size_t i = 0; i < g; ++i) {
    auto name = [&](StringRef role) {
      return (role + "[" + Twine(i) + "]").str();
    };
    const std::string aName = name("a"), bName = name("b");
    Value operands[] = {getA()[i], getSfa()[i], getB()[i], getSfb()[i],
                        getC()[i]};
    StringRef roles[] = {"a", "sfa", "b", "sfb", "c"};
    for (auto [value, role] : llvm::zip(operands, roles))
      if (failed(verifyDense(op, value, name(role))))
        return failure();
    auto aType = cast<MemRefType>(getA()[i].getType());
    if (aType.getRank() != 2)
      return emitOpError() << "expects '" << aName
                           << "' to have rank 2 ([M, K]: each problem is "
                              "one product), but got rank "
                           << aType.getRank();
    OperandShape a = getOperandShape(aType);
    if (failed(verifyLikeA(op, bName, cast<MemRefType>(getB()[i].getType()),
                           a, aName)))
      return failure();
    if (a.k % format->blockSize != 0)
      return emitOpError() << "expects K of problem " << i << " (" << a.k
                           << ") to be a multiple of " << format->blockSize
                           << ", the " << format->getName()
                           << " scale block size";
    const int64_t n = getOperandShape(cast<MemRefType>(getB()[i].getType()))
                          .rows;
    if (failed(verifyScales(op, name("sfa"),
                            cast<MemRefType>(getSfa()[i].getType()),
                            getSfaLayout(), a.rows, "M", a.k,
                            /*batched=*/false, 1)) ||
        failed(verifyScales(op, name("sfb"),
                            cast<MemRefType>(getSfb()[i].getType()),
                            getSfbLayout(), n, "N", a.k, /*batched=*/false,
                            1)) ||
        failed(verifyOutput(op, cast<MemRefType>(getC()[i].getType()),
                            {a.rows, n}, "([M, N])", name("c"))))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GroupTileOp
//===----------------------------------------------------------------------===//

LogicalResult GroupTileOp::verify() {
  if (getTileM() < 1 || getTileM() > 256 || getRows() < 1)
    return emitOpError() << "expects tile_m in [1, 256] (the MMA's N) and "
                            "rows at least 1";
  if (getOffsets().getType().getDimSize(0) < 2)
    return emitOpError() << "expects the offsets of at least one group (2 "
                            "or more entries)";
  if (getRows() > std::numeric_limits<int32_t>::max())
    return emitOpError() << "expects rows below 2^31 (offsets are i32)";
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeOp
//===----------------------------------------------------------------------===//

/// The operands of nvfp4.quantize and quantize_tile: q of x's shape, the
/// scales of x's rows and K in `layout`, a global scale of one float.
static LogicalResult verifyQuantize(Operation *op, Value x, Value q, Value sf,
                                    ScaleLayout layout, Value global) {
  // By name: the optional global scale shifts the operands' positions.
  if (failed(verifyDense(op, x, "x")) || failed(verifyDense(op, q, "q")) ||
      failed(verifyDense(op, sf, "sf")))
    return failure();
  auto xType = cast<MemRefType>(x.getType());
  if (failed(verifyRank2or3(op, "x", xType, "R")))
    return failure();
  OperandShape shape = getOperandShape(xType);
  if (failed(verifyK(op, shape.k)))
    return failure();
  auto qType = cast<MemRefType>(q.getType());
  if (qType.getShape() != xType.getShape())
    return op->emitOpError()
           << "expects 'q' to have the shape of 'x' "
           << formatShape(xType.getShape()) << ", but got "
           << formatShape(qType.getShape());
  const BlockFormat format = BlockFormat::of(sf.getType());
  if (format.isMX() && global)
    return op->emitOpError()
           << "expects no 'global_scale' with MXFP4 scales (f8E8M0FNU): "
              "MXFP4 has only its power-of-two block scales";
  if (!format.isMX() && op->hasAttr("scale_rounding"))
    return op->emitOpError()
           << "expects 'scale_rounding' only with MXFP4 scales "
              "(f8E8M0FNU): NVFP4's e4m3 scales round to nearest";
  if (global) {
    if (failed(verifyDense(op, global, "global_scale")))
      return failure();
    if (cast<MemRefType>(global.getType()).getShape() != ArrayRef<int64_t>{1})
      return op->emitOpError()
             << "expects 'global_scale' to hold one f32 (memref<1xf32>), "
                "but got "
             << global.getType();
  }
  return verifyScales(op, "sf", cast<MemRefType>(sf.getType()), layout,
                      shape.rows, "R", shape.k, shape.batched, shape.batch);
}

LogicalResult QuantizeOp::verify() {
  if (Value returned = getReturnedGlobalScale()) {
    if (getGlobalScale())
      return emitOpError() << "expects either 'global_scale' (given) or "
                              "'returns_global_scale' (computed on the "
                              "device), not both";
    if (failed(verifyDense(getOperation(), returned, "returns_global_scale")))
      return failure();
    if (cast<MemRefType>(returned.getType()).getShape() != ArrayRef<int64_t>{1})
      return emitOpError()
             << "expects 'returns_global_scale' to hold one f32 "
                "(memref<1xf32>), but got "
             << returned.getType();
    if (BlockFormat::of(getSf().getType()).isMX())
      return emitOpError() << "expects no 'returns_global_scale' with MXFP4 "
                              "scales (f8E8M0FNU): MXFP4 has only its "
                              "power-of-two block scales";
  }
  return verifyQuantize(getOperation(), getX(), getQ(), getSf(), getSfLayout(),
                        getGlobalScale());
}

LogicalResult GlobalAmaxTileOp::verify() {
  // Each of the kernel's threads reads words / kThreads of the words.
  if (getWords() < kThreads || getWords() % kThreads != 0)
    return emitOpError() << "expects words to be a positive multiple of "
                         << kThreads << " (the CTA's threads), but got "
                         << getWords();
  if (DenseI32ArrayAttr block = getKnownBlockSize(getOperation());
      block && !isRowShape(block, kThreads))
    return emitOpError() << "expects a kernel of " << kThreads
                         << " x 1 x 1 threads (known_block_size)";
  if (getG().getType().getShape() != ArrayRef<int64_t>{1})
    return emitOpError() << "expects 'g' to hold one f32 (memref<1xf32>)";
  return success();
}

LogicalResult QuantizeTileOp::verify() {
  if (failed(verifyQuantize(getOperation(), getX(), getQ(), getSf(),
                            getSfLayout(), getGlobalScale())))
    return failure();
  const int64_t blockSize = BlockFormat::of(getSf().getType()).blockSize;
  const int64_t blocks = getOperandShape(getX().getType()).k / blockSize;
  if (blocks % getPlan().getBlocksPerThread() != 0)
    return emitOpError() << "expects the rows' " << blocks << " blocks of "
                         << blockSize
                         << " values to be a multiple of the "
                            "plan's blocks_per_thread ("
                         << getPlan().getBlocksPerThread() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// GemvTileOp
//===----------------------------------------------------------------------===//

LogicalResult GemvTileOp::verify() {
  Operation *op = getOperation();
  FailureOr<OperandShape> shape =
      verifyProductOperands(op, {"a", "sfa", "b", "sfb", "c"}, getA().getType(),
                            "b", getB().getType());
  if (failed(shape))
    return failure();
  const OperandShape &a = *shape;
  if (getOperandShape(getB().getType()).rows != 1)
    return emitOpError() << "expects 'b' to hold one row (N = 1), but got "
                         << getOperandShape(getB().getType()).rows;
  if (failed(verifyScales(op, "sfa", getSfa().getType(), ScaleLayout::Plain,
                          a.rows, "M", a.k, a.batched, a.batch)) ||
      failed(verifyScales(op, "sfb", getSfb().getType(), ScaleLayout::Plain, 1,
                          "N", a.k, a.batched, a.batch)))
    return failure();
  if (a.k % 64 != 0)
    return emitOpError() << "expects K (" << a.k
                         << ") to be a multiple of 64, the GEMV kernels' "
                            "load granule";
  GemvPlanAttr plan = getPlan();
  if (failed(verifyGemvRowGroups(getOperation(), plan, a.rows)))
    return failure();
  if (plan.getStages() != 0 && (a.k / 2) % plan.getIterationBytes() != 0)
    return emitOpError() << "expects rows of whole ring slots with stages = "
                         << plan.getStages() << ": K / 2 (" << a.k / 2
                         << " bytes) must be a multiple of "
                         << plan.getIterationBytes()
                         << " (32 * bytes_per_thread * unroll)";
  return verifyOutput(op, getC().getType(), outputShape(a, 1),
                      a.batched ? "([L, M, N])" : "([M, N])");
}

//===----------------------------------------------------------------------===//
// GemmTileOp
//===----------------------------------------------------------------------===//

/// Split-K's operands of a gemm_tile (either plan kind): `split` exactly
/// when split_k > 1; `partials` exactly when the plan
/// writes them (`partialsBytes` > 0: split-K in mode `global`),
/// split_k dividing the `steps` K steps (`stepsText`, `what`), and partials
/// of `partialsBytes`.
static LogicalResult verifySplitK(GemmTileOp op, int64_t splitK, int64_t steps,
                                  StringRef stepsText, StringRef what,
                                  int64_t partialsBytes) {
  if (splitK == 1) {
    if (op.getSplit() || op.getPartials())
      return op.emitOpError() << "expects no `split` and no `partials` with "
                                 "split_k = 1";
    return success();
  }
  if (!op.getSplit())
    return op.emitOpError() << "expects `split` with split_k = " << splitK;
  if (partialsBytes == 0) {
    if (op.getPartials())
      return op.emitOpError() << "expects no `partials` with an on-chip "
                                 "split-K (the splits add their tiles on "
                                 "chip)";
  } else if (!op.getPartials()) {
    return op.emitOpError() << "expects `partials` with split_k = " << splitK;
  }
  if (steps % splitK != 0)
    return op.emitOpError() << "expects split_k (" << splitK << ") to divide "
                            << stepsText << " = " << steps << ", " << what;
  if (op.getPartials() &&
      op.getPartials().getType().getNumElements() != partialsBytes)
    return op.emitOpError() << "expects `partials` to hold " << partialsBytes
                            << " bytes (split_k fp32 copies of C), but it has "
                            << op.getPartials().getType().getNumElements();
  return success();
}

/// The sm_100a tile: K in steps of 64, the maps of A's and B's packed
/// bytes, and split-K's operands (the scales are checked by the caller).
static LogicalResult verifyTcgen05Tile(GemmTileOp op, const OperandShape &a,
                                       KernelPlanAttr plan,
                                       int64_t weightBatch) {
  if (a.k % Tcgen05MainloopAttr::kMmaK != 0)
    return op.emitOpError()
           << "expects K (" << a.k
           << ") to be a multiple of 64 with a #nvfp4.tcgen05_mainloop (the "
              "tcgen05 MMA's K)";
  int64_t n = getOperandShape(op.getWeight().getType()).rows;
  MLIRContext *ctx = op.getContext();
  TensorMapType want[] = {
      getPackedOperandMapType(ctx, a.batch, a.rows, a.k,
                              plan.getTcgen05().getARowsPerCta()),
      getPackedOperandMapType(ctx, weightBatch, n, a.k,
                              Tcgen05MainloopAttr::kTileN)};
  auto wrongB = [&](Value map) { return map.getType() != want[1]; };
  if (op.getATiles() || !op.getBScales().empty() || !op.getABytes() ||
      op.getBBytes().size() != op.getB().size() ||
      op.getABytes().getType() != want[0] ||
      llvm::any_of(op.getBBytes(), wrongB))
    return op.emitOpError() << "expects the tensor maps of A's and each "
                               "weight's packed bytes, a_bytes "
                            << want[0] << " and b_bytes " << want[1]
                            << " (no others), with a "
                               "#nvfp4.tcgen05_mainloop";
  return verifySplitK(op, plan.getSplitK(), Tcgen05MainloopAttr::getSlices(a.k),
                      "ceil(K / 256)", "the K slices the splits share",
                      plan.getPartialsBytes(a.batch, a.rows, n));
}

LogicalResult GemmTileOp::verify() {
  FailureOr<BlockFormat> format = verifyFormat(getOperation());
  if (failed(format))
    return failure();
  Tcgen05MainloopAttr tcgen05 = getTcgen05Mainloop();
  // On sm_90a MXFP4 is decoded by the ring's ops (wgmma.decode_b,
  // decode_a_tile) to bf16; the CTA that decodes A itself reads NVFP4
  // only. tcgen05 reads either, as its plan's format says.
  if (tcgen05 && tcgen05.getFormat() != getScaleFormat(*format))
    return emitOpError() << "has " << format->getName()
                         << " scales and expects a #nvfp4.tcgen05_mainloop "
                            "of that format (its MMAs' scale vector and "
                            "slot layout), but got "
                         << tcgen05;
  if (format->isMX() && !tcgen05 && getWgmmaMainloop().getStages() == 0)
    return emitOpError()
           << "expects NVFP4 (f8E4M3FN) scales with stages = 0 (the CTA "
              "that decodes A itself has no MXFP4 path; plans with a ring "
              "have)";
  if (tcgen05 && (getSfaLayout() != ScaleLayout::Blocked ||
                  getSfbLayout() != ScaleLayout::Blocked))
    return emitOpError()
           << "expects both scale operands in the blocked layout with a "
              "#nvfp4.tcgen05_mainloop (tcgen05.cp copies its 128 x 4 atoms "
              "into "
              "TMEM as they are; nvfp4-tile writes plain scales blocked with "
              "nvfp4.block_scales_tile)";
  // One accumulator per weight: the plan's mainloop is sized for them.
  const int64_t weights = getPlan().getMainloop().getWeights();
  if (getB().size() != getSfb().size() ||
      static_cast<int64_t>(getB().size()) != weights)
    return emitOpError() << "expects " << weights
                         << " weight(s) and their scales (the plan's "
                            "mainloop has that many accumulators), but got "
                         << getB().size() << " weights and "
                         << getSfb().size() << " scale operands";
  // The weights share the tile's rows, K and scale layout.
  for (size_t i = 1; i < getB().size(); ++i)
    if (getB()[i].getType() != getWeight().getType() ||
        getSfb()[i].getType() != getWeightScales().getType())
      return emitOpError() << "expects every weight and its scales to have "
                              "the types of the first ("
                           << getWeight().getType() << ", "
                           << getWeightScales().getType() << "), but weight "
                           << i << " has " << getB()[i].getType() << ", "
                           << getSfb()[i].getType();
  // A grouped GEMM's tile: group g's weights (B is G x N x K) times rows
  // of an unbatched A, checked as the GEMM of one group.
  MemRefType weightType = getWeight().getType();
  MemRefType weightScalesType = getWeightScales().getType();
  const bool grouped = static_cast<bool>(getGroup());
  int64_t weightBatch = 0;
  if (grouped || getRowBegin() || getRowEnd()) {
    if (!grouped || !getRowBegin() || !getRowEnd())
      return emitOpError() << "expects `group` with `rows` (a grouped "
                              "GEMM's tile), or neither";
    if (getPlan().getSplitK() > 1 || getPlan().getStages() == 0)
      return emitOpError() << "has a grouped GEMM's tile, which takes a "
                              "plan with a ring (stages > 0) and without "
                              "split-K";
    if (weightType.getRank() != 3 || getA().getType().getRank() != 2 ||
        getC().getType().getRank() != 2)
      return emitOpError() << "expects a grouped GEMM's weights of rank 3 "
                              "([G, N, K]) and A and C of rank 2";
    weightBatch = weightType.getDimSize(0);
    if (weightScalesType.getRank() < 2 ||
        weightScalesType.getDimSize(0) != weightBatch)
      return emitOpError() << "expects the weights' scales to lead with the "
                              "weights' "
                           << weightBatch << " groups";
    auto dropGroup = [](MemRefType t) {
      return MemRefType::get(t.getShape().drop_front(), t.getElementType());
    };
    weightType = dropGroup(weightType);
    weightScalesType = dropGroup(weightScalesType);
  }
  // A grouped sm_100a tile's A scales are the gathered tiles'
  // (nvfp4.gather_scales_tile), not A's rows.
  std::optional<int64_t> sfaRows;
  if (grouped && tcgen05)
    sfaRows = getATileCount(getOperandShape(getA().getType()).rows,
                            weightBatch, tcgen05.getTileM()) *
              tcgen05.getTileM();
  // sm_100a slots copy scales 256 K values at a time: blocked for K
  // rounded up to 256 (nvfp4.block_scales_tile pads them).
  FailureOr<OperandShape> a = verifyScaledProduct(
      getOperation(), getA().getType(), getSfa().getType(), weightType,
      weightScalesType, getC().getType(), getSfaLayout(), getSfbLayout(),
      tcgen05 ? &Tcgen05MainloopAttr::getSlotK : nullptr, sfaRows,
      sfaRows ? "the gathered tiles' rows" : "M");
  if (failed(a) ||
      failed(verifyOutputFormat(getOperation(), getC().getType(),
                                getCScales(), getCGlobalScale(),
                                getCScalesLayout(), getPartials(),
                                getRowEnd())))
    return failure();
  if (!grouped)
    weightBatch = a->batch;
  if (tcgen05)
    return verifyTcgen05Tile(*this, *a, getPlan(), weightBatch);
  WgmmaMainloopAttr plan = getWgmmaMainloop();
  // A grouped GEMM's decoded tiles: the pre-pass's gather, as many tiles
  // as the groups can need.
  OperandShape tilesShape = *a;
  if (grouped)
    tilesShape.rows =
        getATileCount(a->rows, weightBatch, plan.getTileM()) * plan.getTileM();
  int64_t n = getOperandShape(weightType).rows;
  if (getABytes())
    return emitOpError() << "expects no a_bytes with a "
                            "#nvfp4.wgmma_mainloop (A comes decoded, as "
                            "a_tiles, or is decoded by the CTA)";
  if (plan.getStages() > 0 && !getATiles())
    return emitOpError() << "expects the decoded tiles of A (`a_tiles`) "
                            "with stages = "
                         << plan.getStages();
  if (plan.getStages() == 0 && getATiles())
    return emitOpError() << "expects no decoded tiles of A with stages = 0 "
                            "(the CTA decodes A itself)";
  if (plan.getStages() == 0 && getCScales())
    return emitOpError() << "expects a ring (stages > 0) with an "
                         << BlockFormat::of(getCScales().getType()).getName()
                         << " C: the CTA that decodes A itself stores a "
                            "float C only";
  if (failed(verifyGemmTiles(getOperation(), tilesShape, plan,
                             getATiles()
                                 ? cast<TensorMapType>(getATiles().getType())
                                 : TensorMapType())))
    return failure();
  // b_tma: the maps of B's bytes and of its scale codes.
  const size_t bMaps = plan.getBTma() ? getB().size() : 0;
  if (getBBytes().size() != bMaps || getBScales().size() != bMaps)
    return emitOpError() << "expects " << bMaps
                         << " b_bytes and b_scales maps with this "
                            "#nvfp4.wgmma_mainloop (one each per weight with "
                            "b_tma), but got "
                         << getBBytes().size() << " and "
                         << getBScales().size();
  // Each weight's warpgroup reads its scale codes as the second warpgroup
  // of a one-weight CTA would: rows of 16 bytes, not a 128-row atom.
  if (plan.getSplitWeights() && getSfbLayout() == ScaleLayout::Blocked)
    return emitOpError() << "expects plain B scales with split_weights (each "
                            "weight's warpgroup reads its codes as rows of "
                            "the slot), but they are blocked";
  if (plan.getBTma()) {
    MLIRContext *ctx = getContext();
    if (!bTmaScalesFit(getSfbLayout(), a->k))
      return emitOpError() << "expects K (" << a->k
                           << ") to be a multiple of 256 with b_tma and plain "
                              "scales (TMA needs a row of scales to be a "
                              "multiple of 16 bytes)";
    // The copies address B's rows and the blocked scales' atoms with TMA's
    // signed 32-bit coordinates.
    const int64_t atoms = getSfbLayout() == ScaleLayout::Blocked
                              ? weightBatch * BlockFormat::getRowAtoms(n) *
                                    (a->k / WgmmaMainloopAttr::kTileK)
                              : n;
    if (atoms > std::numeric_limits<int32_t>::max())
      return emitOpError() << "expects B's scales to have fewer than 2^31 "
                              "rows or atoms (TMA coordinates are signed "
                              "32-bit), but they have "
                           << atoms;
    TensorMapType bMap = getWgmmaBMapType(ctx, plan, weightBatch, n, a->k);
    TensorMapType sfbMap = getWgmmaSfbMapType(
        ctx, plan, BlockFormat::of(getWeightScales().getType()), getSfbLayout(),
        weightBatch, n, a->k);
    for (auto [bytes, scales] : llvm::zip(getBBytes(), getBScales())) {
      if (bytes.getType() != bMap)
        return emitOpError() << "expects B's bytes as " << bMap
                             << ", but got " << bytes.getType();
      if (scales.getType() != sfbMap)
        return emitOpError() << "expects B's scales as " << sfbMap
                             << ", but got " << scales.getType();
    }
  }
  const int64_t partialsBytes =
      getPlan().getPartialsBytes(a->batch, a->rows, n);
  return verifySplitK(*this, getPlan().getSplitK(),
                      a->k / WgmmaMainloopAttr::kTileK, "K / 64",
                      "the K chunks the splits share", partialsBytes);
}

/// Whether `op` may stand in an epilogue region (gemm_tile's, and the
/// tcgen05.store's clone of it): an elementwise f32 arith op or math.exp2,
/// which the pipeline applies to whole fragments and the conversions lower.
static bool isElementwiseEpilogueOp(Operation &op) {
  Dialect *dialect = op.getDialect();
  StringRef ns = dialect ? dialect->getNamespace() : "";
  return (ns == "arith" || op.getName().getStringRef() == "math.exp2") &&
         op.getNumRegions() == 0 &&
         llvm::all_of(op.getResultTypes(), [](Type t) { return t.isF32(); });
}

LogicalResult GemmTileOp::verifyRegions() {
  Block &body = getEpilogue().front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError() << "expects its epilogue to end with nvfp4.yield";
  const size_t weights = getB().size();
  if (body.getNumArguments() != weights ||
      llvm::any_of(body.getArgumentTypes(),
                   [](Type t) { return !t.isF32(); }))
    return emitOpError() << "expects an epilogue of " << weights
                         << " f32 argument(s), one accumulator element per "
                            "weight, but it has "
                         << body.getNumArguments();
  // Applied to whole fragments of accumulators: each op must be
  // elementwise on f32 (arith, and math.exp2: the conversion lowers both on
  // vectors).
  for (Operation &op : body.without_terminator()) {
    if (!isElementwiseEpilogueOp(op))
      return op.emitOpError()
             << "is not an elementwise f32 arith op or math.exp2, which a "
                "gemm_tile's epilogue applies to whole accumulator "
                "fragments";
    // Its operands are the accumulators' elements or values of the
    // epilogue itself, never the kernel's scalars.
    for (Value operand : op.getOperands())
      if (operand.getParentBlock() != &body)
        return op.emitOpError()
               << "uses a value defined outside the gemm_tile's epilogue, "
                  "which applies to whole accumulator fragments";
  }
  if (yield.getValue().getParentBlock() != &body)
    return yield.emitOpError()
           << "yields a value defined outside the gemm_tile's epilogue, "
              "which applies to whole accumulator fragments";
  // The epilogue comes after every reduction: split-K in mode global adds
  // the splits' raw partial tiles in a later kernel (nvfp4.sum_splits).
  if (!getEpilogueIdentity() && getPlan().needsSumKernel())
    return emitOpError() << "expects the identity epilogue with "
                         << getPlan().getReduction()
                         << " (nvfp4.sum_splits adds the splits' partial "
                            "tiles after this kernel, and an epilogue "
                            "applies after every reduction); add the "
                            "splits on chip (mode cluster or scatter)";
  return success();
}

std::optional<unsigned> GemmTileOp::getEpilogueIdentity() {
  Block &body = getEpilogue().front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(yield.getValue());
  if (!arg || arg.getOwner() != &body)
    return std::nullopt;
  return arg.getArgNumber();
}

void GemmTileOp::build(OpBuilder &builder, OperationState &state, Value a,
                       Value sfa, Value b, Value sfb, Value c, Value mBase,
                       Value nBase, Value batch, Value aTiles, Value aBytes,
                       ValueRange bBytes, ValueRange bScales, Value split,
                       Value partials, KernelPlanAttr plan,
                       ScaleLayout sfaLayout, ScaleLayout sfbLayout) {
  build(builder, state, a, sfa, ValueRange(b), ValueRange(sfb), c,
        /*c_scales=*/Value(), /*c_global_scale=*/Value(), mBase, nBase, batch,
        aTiles, aBytes, bBytes, bScales, split, partials,
        /*group=*/Value(), /*row_begin=*/Value(), /*row_end=*/Value(), plan,
        sfaLayout, sfbLayout, ScaleLayout::Plain, /*c_scale_rounding=*/{});
  // The identity epilogue: C's element is the accumulator's.
  OpBuilder::InsertionGuard guard(builder);
  Region *epilogue = state.regions.front().get();
  Block *body = builder.createBlock(epilogue, {}, {builder.getF32Type()},
                                    {state.location});
  YieldOp::create(builder, state.location, body->getArgument(0));
}

//===----------------------------------------------------------------------===//
// SumSplitsOp
//===----------------------------------------------------------------------===//

LogicalResult SumSplitsOp::verify() {
  MemRefType c = getC().getType();
  if (!c.hasStaticShape() || !c.getLayout().isIdentity())
    return emitOpError() << "expects C to be a static, contiguous memref";
  int64_t want = getSplits() * c.getNumElements() * 4;
  if (getPartials().getType().getNumElements() != want)
    return emitOpError() << "expects `partials` to hold " << want << " bytes ("
                         << getSplits() << " fp32 copies of C), but it has "
                         << getPartials().getType().getNumElements();
  return success();
}

//===----------------------------------------------------------------------===//
// BlockScalesOp and BlockScalesTileOp
//===----------------------------------------------------------------------===//

/// The shapes of a scale re-layout (nvfp4.block_scales and its CTA form):
/// `dst` blocked, `src` plain or blocked over the same rows and batch, with
/// no more K chunks than `dst`; with `anyRows` (a gather's), `dst`'s rows
/// need not be `src`'s.
static LogicalResult verifyBlockScales(Operation *op, MemRefType srcType,
                                       MemRefType dstType,
                                       bool anyRows = false) {
  auto emitOpError = [&]() { return op->emitOpError(); };
  if (failed(verifyDenseOperands(op, {"src", "dst"})))
    return failure();
  FailureOr<BlockFormat> format = verifyFormat(op);
  if (failed(format))
    return failure();
  const std::string kb = "K/" + std::to_string(format->blockSize);
  const std::string chunkK = "K/" + std::to_string(format->getAtomK());
  ArrayRef<int64_t> dst = dstType.getShape();
  ArrayRef<int64_t> src = srcType.getShape();
  const bool plain = src.size() <= 3;
  if ((dst.size() != 5 && dst.size() != 6) ||
      dst.take_back(3) != ArrayRef<int64_t>({32, 4, 4}))
    return emitOpError() << "expects 'dst' in the blocked layout ([[L, ] "
                            "row blocks, chunks, 32, 4, 4]), but got shape "
                         << formatShape(dst);
  const bool batched = dst.size() == 6;
  if ((plain && src.size() != (batched ? 3u : 2u)) ||
      (!plain && (src.size() != dst.size() ||
                  src.take_back(3) != ArrayRef<int64_t>({32, 4, 4}))))
    return emitOpError()
           << "expects 'src' to be plain "
           << (batched ? "([L, R, " : "([R, ") << kb << "])"
           << " or blocked like 'dst' " << (batched ? "([L, " : "([")
           << "ceil(R/128), ceil(" << chunkK
           << "), 32, 4, 4]), but got shape "
           << formatShape(src);
  if (batched && src.front() != dst.front())
    return emitOpError() << "expects 'src' and 'dst' to have the same batch "
                            "size, but got "
                         << src.front() << " and " << dst.front();
  const int64_t rowBlocks = dst[dst.size() - 5], chunks = dst[dst.size() - 4];
  const int64_t srcBlocks = plain
                                ? BlockFormat::getRowAtoms(src[src.size() - 2])
                                : src[src.size() - 5];
  if (srcBlocks != rowBlocks && !anyRows)
    return emitOpError() << "expects 'dst' to have " << srcBlocks
                         << " blocks of 128 rows like 'src', but got "
                         << rowBlocks;
  if (plain && src.back() % 4 != 0)
    return emitOpError() << "expects plain scales of K a multiple of "
                         << format->getAtomK() << " (" << kb << " = "
                         << src.back()
                         << " scale columns, whole 4-column words)";
  const int64_t srcChunks = plain ? src.back() / 4 : src[src.size() - 4];
  if (srcChunks > chunks)
    return emitOpError() << "expects 'dst' to have at least the " << srcChunks
                         << " K chunks of 'src', but got " << chunks;
  return success();
}

LogicalResult BlockScalesOp::verify() {
  return verifyBlockScales(getOperation(), getSrc().getType(),
                           getDst().getType());
}

LogicalResult BlockScalesTileOp::verify() {
  // Each thread writes its words of the CTA's range: the kernel must have
  // exactly kThreads threads.
  if (DenseI32ArrayAttr block = getKnownBlockSize(getOperation());
      block && !isRowShape(block, kThreads))
    return emitOpError() << "expects a kernel of " << kThreads
                         << " x 1 x 1 threads (known_block_size), the "
                            "CTA its words are spread over";
  return verifyBlockScales(getOperation(), getSrc().getType(),
                           getDst().getType());
}

LogicalResult GatherScalesTileOp::verify() {
  Operation *op = getOperation();
  if (DenseI32ArrayAttr block = getKnownBlockSize(op);
      block && !isRowShape(block, kThreads))
    return emitOpError() << "expects a kernel of " << kThreads
                         << " x 1 x 1 threads (known_block_size), the "
                            "CTA its words are spread over";
  if (getSrc().getType().getRank() != 2 || getDst().getType().getRank() != 5)
    return emitOpError() << "expects a plain, unbatched 'src' ([R, K/bs]) "
                            "and a blocked, unbatched 'dst'";
  if (getTileM() % 32 != 0 || getTileM() > 256)
    return emitOpError() << "expects tile_m to be 32, 64, ..., 256 (the "
                            "tcgen05 MMA's N), but got "
                         << getTileM();
  // The same words as nvfp4.block_scales_tile's: whole 4-scale words,
  // the destination at least as long in K.
  return verifyBlockScales(op, getSrc().getType(), getDst().getType(),
                           /*anyRows=*/true);
}

//===----------------------------------------------------------------------===//
// DecodeATileOp
//===----------------------------------------------------------------------===//

LogicalResult DecodeATileOp::verify() {
  Operation *op = getOperation();
  if (failed(verifyDenseOperands(op, {"a", "sfa", "tiles"})) ||
      failed(verifyRank2or3(op, "a", getA().getType(), "M")))
    return failure();
  OperandShape a = getOperandShape(getA().getType());
  if (failed(verifyK(op, a.k)) ||
      failed(verifyScales(op, "sfa", getSfa().getType(), getSfaLayout(), a.rows,
                          "M", a.k, a.batched, a.batch)))
    return failure();
  if (failed(verifyGemmTiles(op, a, getPlan(), TensorMapType())))
    return failure();
  int64_t want = getPlan().getATilesBytes(a.batch, a.rows, a.k);
  // A grouped GEMM's gather: as many whole tiles as its groups can need.
  if (getRowBegin() || getRowEnd()) {
    if (!getRowBegin() || !getRowEnd() || a.batched)
      return emitOpError() << "expects `rows` to give both ends, and A not "
                              "batched";
    const int64_t tile = getPlan().getATilesBytes(1, getPlan().getTileM(), a.k);
    const int64_t bytes = getTiles().getType().getNumElements();
    if (bytes % tile != 0 || bytes < want)
      return emitOpError() << "expects `tiles` to hold whole tiles of " << tile
                           << " bytes, at least " << want << ", but it has "
                           << bytes;
    return success();
  }
  if (getTiles().getType().getNumElements() != want)
    return emitOpError() << "expects `tiles` to hold " << want
                         << " bytes (the decoded tiles of A), but it has "
                         << getTiles().getType().getNumElements();
  return success();
}

/// gemm_tile's weights: `weight(%b, %sfb : type, type)` per weight.
static ParseResult
parseWeights(OpAsmParser &parser,
             SmallVectorImpl<OpAsmParser::UnresolvedOperand> &b,
             SmallVectorImpl<Type> &bTypes,
             SmallVectorImpl<OpAsmParser::UnresolvedOperand> &sfb,
             SmallVectorImpl<Type> &sfbTypes) {
  while (succeeded(parser.parseOptionalKeyword("weight"))) {
    if (parser.parseLParen() || parser.parseOperand(b.emplace_back()) ||
        parser.parseComma() || parser.parseOperand(sfb.emplace_back()) ||
        parser.parseColon() || parser.parseType(bTypes.emplace_back()) ||
        parser.parseComma() || parser.parseType(sfbTypes.emplace_back()) ||
        parser.parseRParen())
      return failure();
  }
  return success();
}

static void printWeights(OpAsmPrinter &printer, Operation *, OperandRange b,
                         TypeRange bTypes, OperandRange sfb,
                         TypeRange sfbTypes) {
  for (size_t i = 0; i < std::min(b.size(), sfb.size()); ++i) {
    printer << "weight(" << b[i] << ", " << sfb[i] << " : " << bTypes[i]
            << ", " << sfbTypes[i] << ")";
    if (i + 1 < b.size())
      printer << " ";
  }
}

#define GET_OP_CLASSES
#include "nvfp4/Dialect/NVFP4/NVFP4Ops.cpp.inc"

//===----------------------------------------------------------------------===//
// Pipeline-level ops (nvfp4-software-pipeline)
//===----------------------------------------------------------------------===//

/// The MMA's N (rows of A) a wgmma accumulator vector stands for: two f32
/// per thread per column pair; wgmma takes N in [8, 256], steps of 8.
static LogicalResult verifyWgmmaAccumulator(Operation *op, VectorType acc) {
  if (acc.isScalable())
    return op->emitOpError() << "expects a fixed-length accumulator vector";
  int64_t n = 2 * acc.getNumElements();
  if (n < 8 || n > 256 || n % 8 != 0)
    return op->emitOpError()
           << "expects an accumulator of N / 2 floats per thread with N (the "
              "MMA's N) a multiple of 8 in [8, 256], got "
           << acc.getNumElements() << " floats";
  return success();
}

LogicalResult WgmmaMmaOp::verify() {
  if (failed(verifyWgmmaAccumulator(getOperation(), getAcc().getType())))
    return failure();
  int64_t n = 2 * getAcc().getType().getNumElements();
  int64_t tileBytes = n * WgmmaMainloopAttr::kTileK * 2;
  const int64_t offset = getAOffset();
  if (offset % 1024 != 0)
    return emitOpError() << "expects a_offset to be a multiple of 1024 (the "
                            "128B swizzle's alignment), but got "
                         << offset;
  if (getRing().getType().getSlotBytes() < offset + tileBytes)
    return emitOpError() << "expects ring slots of at least "
                         << offset + tileBytes << " bytes (N = " << n
                         << " rows of 64 decoded f16 values from byte "
                         << offset << "), got "
                         << getRing().getType().getSlotBytes();
  return success();
}

LogicalResult WgmmaSwapHalvesOp::verify() {
  if (failed(verifyWgmmaAccumulator(getOperation(), getAcc().getType())))
    return failure();
  const int64_t n = getAcc().getType().getNumElements();
  // Whole 8-column groups of 4 values each side.
  if (n % 8 != 0 || getResult().getType().getNumElements() != n / 2)
    return emitOpError() << "expects an accumulator of a multiple of 8 "
                            "floats and a result of half as many, but got "
                         << n << " and "
                         << getResult().getType().getNumElements();
  if (DenseI32ArrayAttr block = getKnownBlockSize(getOperation());
      block && !isRowShape(block, 256) && !isRowShape(block, 384)) {
    InFlightDiagnostic diag =
        emitOpError() << "expects its kernel's CTA to be the two consumer "
                         "warpgroups it swaps between (256 threads, plus "
                         "128 with a producer warpgroup), but the kernel's "
                         "known_block_size is ";
    llvm::interleave(block.asArrayRef(), diag, " x ");
    return diag;
  }
  const int64_t need = getScratchNeed();
  if (getRing().getType().getDataBytes() < need)
    return emitOpError() << "expects the ring to hold " << need
                         << " bytes of scratch (the halves handed over), but "
                            "it has "
                         << getRing().getType().getDataBytes();
  return success();
}

LogicalResult WgmmaReduceKGroupsOp::verify() {
  if (failed(verifyWgmmaAccumulator(getOperation(), getAcc().getType())))
    return failure();
  // The groups are the CTA's warpgroups: a CTA with more would have groups
  // write past the scratch checked below.
  const int64_t threads = getGroups() * getWarpgroups() * 128;
  if (DenseI32ArrayAttr block = getKnownBlockSize(getOperation());
      block && !isRowShape(block, threads) &&
      !isRowShape(block, threads + 128)) {
    InFlightDiagnostic diag =
        emitOpError() << "expects its kernel's CTA to be the " << getGroups()
                      << " K groups x " << getWarpgroups()
                      << " warpgroups it reduces (" << threads
                      << " threads, plus 128 with a producer "
                         "warpgroup), but the kernel's "
                         "known_block_size is ";
    llvm::interleave(block.asArrayRef(), diag, " x ");
    return diag;
  }
  int64_t need = getScratchNeed();
  if (getRing().getType().getDataBytes() < need)
    return emitOpError() << "expects the ring to hold " << need
                         << " bytes of scratch (the accumulators of "
                         << getGroups() - 1 << " K groups), but it has "
                         << getRing().getType().getDataBytes();
  return success();
}

/// A split exchange (`splits` CTAs of `floatsPerSplit` fp32 values each,
/// reduce_splits): its kernel's clusters, when known, are the splits of a
/// tile, and the ring holds the other splits' values at the top of its
/// data (or with `aTileBytes` in the A tiles of its last slots), above the
/// `below` bytes another reduction uses at its bottom. `releaseReads` and
/// `aTileBytes` exclude each other.
static LogicalResult verifySplitExchange(Operation *op, int64_t splits,
                                         RingType ring, int64_t floatsPerSplit,
                                         int64_t below, bool releaseReads,
                                         std::optional<int64_t> aTileBytes) {
  if (releaseReads && aTileBytes)
    return op->emitOpError()
           << "expects at most one of `release_reads` (the exchange over "
              "bytes the holders read with plain loads) and `a_tiles` (an "
              "exchange that skips them)";
  // The ranks are the splits: a cluster of another shape would have CTAs
  // write into peers that do not exist, or leave splits unsummed.
  // A kernel launched without clusters would have every CTA take rank 0
  // and store its own partial tile: the kernel must declare them.
  Operation *fn = op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  auto cluster = fn ? fn->getAttrOfType<DenseI32ArrayAttr>("known_cluster_size")
                    : DenseI32ArrayAttr();
  const bool inKernel = fn && fn->hasAttr("gpu.kernel");
  if ((cluster || inKernel) &&
      (!cluster || cluster.asArrayRef() !=
                       ArrayRef<int32_t>({1, 1, static_cast<int32_t>(splits)})))
    return op->emitOpError()
           << "expects its kernel's clusters to be the " << splits
           << " splits of a tile (known_cluster_size 1 x 1 x " << splits << ")";
  int64_t need = SplitKAttr::exchangeBytes(splits, floatsPerSplit);
  if (aTileBytes) {
    const int64_t start = ring.getSplitExchangeStart(need, *aTileBytes);
    if (start < below)
      return op->emitOpError()
             << "expects the exchange's " << need << " bytes (the accumulators "
             << "of " << splits - 1 << " other splits) to fit the first "
             << *aTileBytes
             << " bytes (a multiple of 16, at most a slot) of the ring's "
                "last slots, above "
             << below << " bytes of the K groups' sums";
    return success();
  }
  if (ring.getDataBytes() < need + below) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "expects the ring to hold " << need + below
                              << " bytes of scratch (the accumulators of "
                              << splits - 1 << " other splits";
    if (below)
      diag << ", above " << below << " bytes of the K groups' sums";
    return diag << "), but it has " << ring.getDataBytes();
  }
  return success();
}

/// The bytes of K groups' sums below a split exchange in `ring`: those of
/// the nvfp4.wgmma.reduce_k_groups that produced `acc` in the same ring (its
/// holders read them with plain loads just before the exchange, so the
/// exchange's area must lie above them), else 0. The reduction may not be
/// verified yet: it is read only as far as it is well formed.
static int64_t kGroupSumsBelow(Value acc, Value ring) {
  auto groups = acc.getDefiningOp<WgmmaReduceKGroupsOp>();
  if (groups && groups->getNumOperands() == 2 &&
      groups->getOperand(1) == ring &&
      isa<VectorType>(groups->getOperand(0).getType()) &&
      llvm::isa_and_present<IntegerAttr>(groups.getProperties().groups) &&
      llvm::isa_and_present<IntegerAttr>(groups.getProperties().warpgroups))
    return groups.getScratchNeed();
  return 0;
}

LogicalResult WgmmaReduceSplitsOp::verify() {
  if (failed(verifyWgmmaAccumulator(getOperation(), getAcc().getType())))
    return failure();
  return verifySplitExchange(
      getOperation(), getSplits(), getRing().getType(),
      getWarpgroups() * 128 * getAcc().getType().getNumElements(),
      kGroupSumsBelow(getAcc(), getRing()), getReleaseReads(), getATiles());
}

LogicalResult WgmmaReduceScatterSplitsOp::verify() {
  if (failed(verifyWgmmaAccumulator(getOperation(), getAcc().getType())))
    return failure();
  const int64_t accs = getAcc().getType().getNumElements();
  const int64_t splits = getSplits();
  if (accs % (4 * splits) ||
      getPart().getType().getNumElements() * splits != accs)
    return emitOpError() << "expects the " << accs
                         << " accumulators to split into " << splits
                         << " parts of whole groups of 4, each part "
                         << accs / splits << " values, but the result has "
                         << getPart().getType().getNumElements();
  return verifySplitExchange(getOperation(), splits, getRing().getType(),
                             getWarpgroups() * 128 * (accs / splits),
                             kGroupSumsBelow(getAcc(), getRing()),
                             getReleaseReads(), getATiles());
}

LogicalResult WgmmaStoreOp::verify() {
  if (failed(verifyWgmmaAccumulator(getOperation(), getAcc().getType())) ||
      failed(verifyDense(getOperation(), getC(), "c")) ||
      (getPartials() &&
       failed(verifyDense(getOperation(), getPartials(), "partials"))))
    return failure();
  MemRefType c = getC().getType();
  if (!c.hasStaticShape() || (c.getRank() != 2 && c.getRank() != 3))
    return emitOpError() << "expects C to be a static [L x] M x N memref";
  if (!getPartials() != !getSplit())
    return emitOpError() << "expects `partials` and `split` together";
  if (failed(verifyOutputFormat(getOperation(), c, getCScales(),
                                getCGlobalScale(), getCScalesLayout(),
                                getPartials(), getMEnd())))
    return failure();
  if (getPartials() &&
      getPartials().getType().getNumElements() % (c.getNumElements() * 4))
    return emitOpError() << "expects `partials` to hold whole fp32 copies "
                            "of C";
  if (!getStaging() != !getStagingOffset() || !getStaging() != !getWarpgroups())
    return emitOpError() << "expects the staging ring, its offset and its "
                            "warpgroups together";
  const int64_t accumulators = getAcc().getType().getNumElements();
  // The warpgroups' `bytes` each from the staging offset: 16-byte aligned
  // and within the ring's data.
  auto verifyArea = [&](StringRef what, int64_t bytes) -> LogicalResult {
    const int64_t end = *getStagingOffset() + *getWarpgroups() * bytes;
    if (*getStagingOffset() % 16 == 0 &&
        end <= getStaging().getType().getDataBytes())
      return success();
    return emitOpError() << what << " at byte " << *getStagingOffset()
                         << " up to " << end
                         << ", which must be 16-byte aligned and within the "
                            "ring's "
                         << getStaging().getType().getDataBytes()
                         << " bytes of data";
  };
  // An MXFP4 C's warps exchange their amaxes in the ring's memory.
  if (getCScales() && BlockFormat::of(getCScales().getType()).isMX()) {
    if (!getStaging())
      return emitOpError() << "expects an MXFP4 C's amax exchange in the "
                              "ring ('staged in ... at ... warpgroups ...')";
    return verifyArea("exchanges an MXFP4 C's amaxes",
                      getMXExchangeBytes(accumulators));
  }
  if (!getStaging())
    return success();
  if (getCScales())
    return emitOpError() << "stages a float C's tile only, not an NVFP4 C";
  if (getPartials())
    return emitOpError() << "stages C's tile only, not split-K's partials";
  if (!canStage(c))
    return emitOpError() << "can stage only an f16, bf16 or f32 C whose N is "
                            "a multiple of 64";
  return verifyArea(
      ("stages " + Twine(*getWarpgroups()) + " warpgroup tiles").str(),
      getStagedTileBytes(accumulators,
                         c.getElementType().getIntOrFloatBitWidth() / 8));
}

bool WgmmaStoreOp::canStage(MemRefType c) {
  Type e = c.getElementType();
  // N % 64 == 0 also makes C's rows 16-byte aligned.
  return (e.isF16() || e.isBF16() || e.isF32()) &&
         c.getShape().back() % 64 == 0;
}

LogicalResult RingAllocOp::verify() {
  Operation *func = (*this)->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (!func)
    return success();
  // Rings in mutually exclusive regions (the cases of a grouped_problems'
  // switch on the CTA's problem) are never live in the same CTA.
  int64_t rings = 0;
  func->walk([&](RingAllocOp other) {
    if (other != *this &&
        !insideMutuallyExclusiveRegions(getOperation(), other))
      ++rings;
  });
  if (rings > 0)
    return emitOpError() << "expects one ring per kernel, or rings in "
                            "mutually exclusive regions (every ring takes "
                            "the kernel's dynamic shared memory from its "
                            "start), but this function allocates "
                         << rings + 1 << " that one CTA can reach";
  return success();
}

/// A TMA copy's coordinates: one per dimension of its map.
static LogicalResult verifyMapCoordinates(Operation *op, TensorMapType map,
                                          ValueRange coordinates) {
  if (static_cast<int64_t>(coordinates.size()) != map.getRank())
    return op->emitOpError()
           << "expects " << map.getRank()
           << " coordinates (the map's rank), got " << coordinates.size();
  return success();
}

/// A copy into part of a slot: `bytes` at `offset` end within the slot.
static LogicalResult verifyWithinSlot(Operation *op, StringRef what,
                                      int64_t offset, int64_t bytes,
                                      RingType ring) {
  if (offset + bytes > ring.getSlotBytes())
    return op->emitOpError()
           << "expects the " << what << " (" << bytes << " bytes at " << offset
           << ") to end within the slot of " << ring.getSlotBytes() << " bytes";
  return success();
}

LogicalResult RingFillOp::verify() {
  TensorMapType map = getMap().getType();
  if (failed(verifyMapCoordinates(getOperation(), map, getCoordinates())))
    return failure();
  RingType ring = getRing().getType();
  if (map.getBoxBytes() != ring.getSlotBytes())
    return emitOpError() << "expects the map's box to fill one slot ("
                         << ring.getSlotBytes() << " bytes), but it has "
                         << map.getBoxBytes() << " bytes";
  return success();
}

LogicalResult RingCopyOp::verify() {
  TensorMapType map = getMap().getType();
  if (failed(verifyMapCoordinates(getOperation(), map, getCoordinates())))
    return failure();
  RingType ring = getRing().getType();
  if (getOffset() % 1024 != 0)
    return emitOpError() << "expects an offset that is a multiple of 1024 "
                            "(the swizzle pattern's period), got "
                         << getOffset();
  return verifyWithinSlot(getOperation(), "tile", getOffset(),
                          map.getBoxBytes(), ring);
}

LogicalResult RingExpectOp::verify() {
  std::optional<uint64_t> bytes = getBytes();
  if (!bytes)
    return success();
  RingType ring = getRing().getType();
  if (static_cast<int64_t>(*bytes) > ring.getSlotBytes())
    return emitOpError() << "expects at most the slot's " << ring.getSlotBytes()
                         << " bytes, but got " << *bytes;
  return success();
}

LogicalResult WgmmaReadBOp::verify() {
  RingType ring = getRing().getType();
  // 64 rows of 32 bytes of B and of 16 bytes of scale codes (the blocked
  // atom: 512 bytes) from the offsets, within every slot.
  const int64_t bOffset = getBOffset(), sfbOffset = getSfbOffset();
  const int64_t sfbBytes = getSfbLayout() == ScaleLayout::Blocked ? 512 : 1024;
  if (bOffset % 16 != 0 || sfbOffset % 16 != 0)
    return emitOpError() << "expects 16-byte aligned offsets, got " << bOffset
                         << " and " << sfbOffset;
  if (failed(verifyWithinSlot(getOperation(), "B's chunk", bOffset, 64 * 32,
                              ring)) ||
      failed(verifyWithinSlot(getOperation(), "B's scale codes", sfbOffset,
                              sfbBytes, ring)))
    return failure();
  return success();
}

LogicalResult RingCopyBytesOp::verify() {
  RingType ring = getRing().getType();
  if (getOffset() % 16 != 0 || getBytes() % 16 != 0)
    return emitOpError() << "expects the offset and the size to be multiples "
                            "of 16 (a bulk copy's granule), got "
                         << getOffset() << " and " << getBytes();
  return verifyWithinSlot(getOperation(), "bytes",
                          static_cast<int64_t>(getOffset()),
                          static_cast<int64_t>(getBytes()), ring);
}

/// The TMEM columns a per-slot range [column, column + width) reaches in
/// the ring's last slot must lie within the allocation.
static LogicalResult checkSlotColumns(Operation *op, StringRef what,
                                      int64_t column, int64_t step,
                                      int64_t width, RingType ring,
                                      TmemType tmem) {
  int64_t last = column + (ring.getStages() - 1) * step + width;
  if (last > tmem.getColumns())
    return op->emitOpError()
           << "expects " << what << " of every slot within the allocation's "
           << tmem.getColumns() << " columns, but slot " << ring.getStages() - 1
           << " reaches column " << last;
  return success();
}

/// A tcgen05 op's ring and allocation belong to the same CTA group.
static LogicalResult checkCtaGroup(Operation *op, RingType ring,
                                   TmemType tmem) {
  if (ring.getCtaGroup() != tmem.getCtaGroup())
    return op->emitOpError()
           << "expects the ring and the allocation of one CTA group, but "
              "the ring has cta_group = "
           << ring.getCtaGroup() << " and the allocation "
           << tmem.getCtaGroup();
  return success();
}

LogicalResult TmemAllocOp::verify() {
  if (getType().getCtaGroup() != 2)
    return success();
  // The pair is the kernel's cluster: without one, warp 0 would wait in
  // tcgen05.alloc.cta_group::2 for a peer that never comes.
  auto func = (*this)->getParentOfType<gpu::GPUFuncOp>();
  std::optional<ArrayRef<int32_t>> cluster =
      func ? func.getKnownClusterSize() : std::nullopt;
  if (!cluster || *cluster != ArrayRef<int32_t>{2, 1, 1})
    return emitOpError() << "allocates for a CTA pair (cta_group = 2), whose "
                            "kernel must be a gpu.func of known_cluster_size "
                            "2 x 1 x 1";
  return success();
}

LogicalResult RingForwardOp::verify() {
  if (getRing().getType().getCtaGroup() != 2)
    return emitOpError() << "expects the ring of a CTA pair (cta_group = 2): "
                            "it tells the pair's first CTA that a slot of "
                            "the second landed";
  return success();
}

LogicalResult RingWaitOp::verify() {
  if (getPeer() && getRing().getType().getCtaGroup() != 2)
    return emitOpError() << "waits for the peer's bytes of the slot, which "
                            "only the ring of a CTA pair (cta_group = 2) "
                            "has";
  return success();
}

LogicalResult Tcgen05CopyScalesOp::verify() {
  RingType ring = getRing().getType();
  if (failed(checkCtaGroup(getOperation(), ring, getTmem().getType())))
    return failure();
  const auto offset = static_cast<int64_t>(getOffset());
  if (offset % 16 != 0 || offset + 512 > ring.getSlotBytes())
    return emitOpError() << "expects a 16-byte aligned atom of 512 bytes "
                            "within the slot of "
                         << ring.getSlotBytes() << " bytes, got offset "
                         << getOffset();
  return checkSlotColumns(getOperation(), "the copy's 4 columns", getColumn(),
                          getColumnStep(), 4, ring, getTmem().getType());
}

LogicalResult Tcgen05MmaOp::verify() {
  using namespace tcgen05;
  RingType ring = getRing().getType();
  TmemType tmem = getTmem().getType();
  if (failed(checkCtaGroup(getOperation(), ring, tmem)))
    return failure();
  // A pair's MMA (cta_group::2) is M = 256: 128 rows of its A and half of
  // its N rows of B from each CTA's slot.
  const int64_t group = tmem.getCtaGroup();
  auto idesc = Mxf4InstrDescriptor::decode(static_cast<uint32_t>(getIdesc()));
  if (!idesc || idesc->m != 128 * group)
    return emitOpError() << "expects a kind::mxf4nvf4 instruction descriptor "
                            "of M = "
                         << 128 * group << " (cta_group::" << group
                         << ") whose scale ids fit its scale format (ue4m3: "
                            "0; ue8m0: 0 or 2), got "
                         << getIdesc();
  for (auto [name, bits] : {std::pair<StringRef, int64_t>{"a_desc", getADesc()},
                            {"b_desc", getBDesc()}}) {
    auto desc = SmemDescriptor::decode(static_cast<uint64_t>(bits));
    if (!desc || desc->swizzle != Swizzle::Swizzle128B)
      return emitOpError() << "expects " << name
                           << " to be a 128B-swizzled shared-memory "
                              "descriptor";
    // The start field holds the operand's offset in the slot: its rows
    // (M or N of them, 8-row groups stride_byte_offset apart) must lie in
    // the slot.
    int64_t rows = (name == "a_desc" ? idesc->m : idesc->n) / group;
    int64_t end = desc->startAddress + (rows / 8) * desc->strideByteOffset;
    if (end > ring.getSlotBytes() + 128)
      return emitOpError() << "expects " << name << "'s " << rows
                           << " rows within the slot of " << ring.getSlotBytes()
                           << " bytes";
  }
  if (static_cast<int64_t>(getDColumn() + idesc->n) > tmem.getColumns())
    return emitOpError() << "expects the accumulator's " << idesc->n
                         << " columns from " << getDColumn()
                         << " within the allocation's " << tmem.getColumns();
  if (failed(checkSlotColumns(getOperation(), "A's scale columns",
                              getSfaColumn(), getColumnStep(), 4, ring, tmem)))
    return failure();
  return checkSlotColumns(getOperation(), "B's scale columns", getSfbColumn(),
                          getColumnStep(), (idesc->n + 31) / 32, ring, tmem);
}

LogicalResult Tcgen05ReduceSplitsOp::verify() {
  if (getTmem().getType().getCtaGroup() != 1)
    return emitOpError() << "expects the allocation of one CTA (a pair's "
                            "cluster is the pair, not a tile's splits)";
  if (static_cast<int64_t>(getColumns()) > getTmem().getType().getColumns() ||
      getColumns() % 4 != 0)
    return emitOpError() << "expects a multiple of 4 columns, at most the "
                            "allocation's "
                         << getTmem().getType().getColumns() << ", got "
                         << getColumns();
  return verifySplitExchange(getOperation(), getSplits(), getRing().getType(),
                             Tcgen05MainloopAttr::kThreads * getColumns(),
                             /*below=*/0, /*releaseReads=*/false,
                             /*aTileBytes=*/std::nullopt);
}

LogicalResult Tcgen05StoreOp::verify() {
  const int64_t accumulators = getAccumulators();
  if (accumulators * static_cast<int64_t>(getColumns()) >
      getTmem().getType().getColumns())
    return emitOpError() << "expects " << accumulators
                         << " accumulator(s) of " << getColumns()
                         << " columns within the allocation's "
                         << getTmem().getType().getColumns();
  // The epilogue makes C's element: the partials of a global split-K are
  // raw sums a later kernel adds.
  if (!getEpilogue().empty() && getPartials())
    return emitOpError() << "expects no epilogue with `partials` (a global "
                            "split-K's raw sums, added by nvfp4.sum_splits)";
  if (static_cast<bool>(getPartials()) != static_cast<bool>(getSplit()))
    return emitOpError() << "expects `partials` and `split` together";
  return verifyOutputFormat(getOperation(), getC().getType(), getCScales(),
                            getCGlobalScale(), getCScalesLayout(),
                            getPartials(), getMEnd());
}

LogicalResult Tcgen05StoreOp::verifyRegions() {
  if (getEpilogue().empty())
    return success();
  Block &body = getEpilogue().front();
  if (body.getNumArguments() == 0 ||
      llvm::any_of(body.getArgumentTypes(), [](Type t) { return !t.isF32(); }))
    return emitOpError() << "expects an epilogue of f32 arguments, one per "
                            "accumulator";
  if (!body.mightHaveTerminator() || !isa<YieldOp>(body.getTerminator()))
    return emitOpError() << "expects its epilogue to end with nvfp4.yield";
  // The same elementwise ops as a gemm_tile's epilogue, on its own values.
  for (Operation &op : body.without_terminator()) {
    if (!isElementwiseEpilogueOp(op) ||
        llvm::any_of(op.getOperands(),
                     [&](Value v) { return v.getParentBlock() != &body; }))
      return op.emitOpError() << "is not an elementwise f32 arith op or "
                                 "math.exp2 on the epilogue's own values";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TensorMapOp
//===----------------------------------------------------------------------===//

LogicalResult TensorMapOp::verify() {
  if (failed(verifyDense(getOperation(), getSource(), "source")))
    return failure();
  auto source = cast<MemRefType>(getSource().getType());
  int64_t bits = source.getNumElements() *
                 static_cast<int64_t>(source.getElementTypeBitWidth());
  TensorMapType map = getMap().getType();
  if (bits != 8 * map.getTensorBytes())
    return emitOpError() << "expects 'source' to hold the map's "
                         << map.getTensorBytes() << " bytes, but it has "
                         << bits / 8 << (bits % 8 ? " and a half" : "");
  return success();
}

LogicalResult WgmmaLoadBOp::verify() {
  Operation *op = getOperation();
  MemRefType bType = getB().getType();
  if (failed(verifyFormat(op)) ||
      failed(verifyDenseOperands(op, {"b", "sfb"})) ||
      failed(verifyRank2or3(op, "b", bType, "N")))
    return failure();
  OperandShape b = getOperandShape(bType);
  if (b.k % WgmmaMainloopAttr::kTileK != 0)
    return emitOpError() << "expects K (" << b.k
                         << ") to be a multiple of 64, the K chunk it loads";
  return verifyScales(op, "sfb", getSfb().getType(), getSfbLayout(), b.rows,
                      "N", b.k, b.batched, b.batch);
}
