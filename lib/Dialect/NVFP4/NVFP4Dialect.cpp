//===- NVFP4Dialect.cpp - nvfp4 dialect and attributes --------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Dialect/NVFP4/TmemOccupancy.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nvfp4;

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.cpp.inc"
#include "nvfp4/Dialect/NVFP4/NVFP4Enums.cpp.inc"

#include "nvfp4/Dialect/NVFP4/NVFP4AttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "nvfp4/Dialect/NVFP4/NVFP4Attrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "nvfp4/Dialect/NVFP4/NVFP4Types.cpp.inc"

void NVFP4Dialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "nvfp4/Dialect/NVFP4/NVFP4Attrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "nvfp4/Dialect/NVFP4/NVFP4Types.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "nvfp4/Dialect/NVFP4/NVFP4Ops.cpp.inc"
      >();
}

FailureOr<bool> mlir::nvfp4::parseBoolParameter(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword, {"true", "false"})))
    return keyword == "true";
  return parser.emitError(loc, "expected true or false");
}

/// See GemvPlanAttr::verify.
static constexpr int64_t kMaxGemvBytesInFlight = 1024;

LogicalResult GemvPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t warpsPerCta, int64_t rowsPerWarp,
                                   int64_t bytesPerThread, int64_t unroll,
                                   bool stageB, bool prefetch, int64_t kSplit,
                                   int64_t rowGroups, int64_t stages,
                                   int64_t prefetchDistance) {
  if (warpsPerCta < 1 || warpsPerCta > 32)
    return emitError() << "expects warps_per_cta in [1, 32], but got "
                       << warpsPerCta;
  if (rowsPerWarp < 1 || rowsPerWarp > 8)
    return emitError() << "expects rows_per_warp in [1, 8], but got "
                       << rowsPerWarp;
  if (bytesPerThread != 16 && bytesPerThread != 32)
    return emitError() << "expects bytes_per_thread to be 16 or 32 (whole "
                          "16-byte vector loads of whole 16-value blocks), "
                          "but got "
                       << bytesPerThread;
  if (unroll < 1 || unroll > 16)
    return emitError() << "expects unroll in [1, 16], but got " << unroll;
  if (rowGroups < 1)
    return emitError() << "expects row_groups >= 1, but got " << rowGroups;
  if (kSplit < 1 || warpsPerCta % kSplit != 0)
    return emitError() << "expects k_split to divide warps_per_cta ("
                       << warpsPerCta << "), but got " << kSplit;
  if (prefetchDistance < 1 || prefetchDistance > 4)
    return emitError() << "expects prefetch_distance in [1, 4], but got "
                       << prefetchDistance;
  if (stages != 0 && (stages < 2 || stages > 8))
    return emitError() << "expects stages to be 0 (register pipeline) or in "
                          "[2, 8] (shared-memory ring), but got "
                       << stages;
  if (stages != 0 && !stageB)
    return emitError() << "expects stage_b = true with stages = " << stages
                       << " (the ring streams A only)";
  if (stages != 0 && kSplit != 1)
    return emitError() << "expects k_split = 1 with stages = " << stages
                       << ", but got " << kSplit;
  if (prefetchDistance != 1 && (!prefetch || stages != 0))
    return emitError() << "expects prefetch_distance = 1 (unused) with "
                       << (stages ? "the shared-memory ring (stages = " +
                                        std::to_string(stages) + ")"
                                  : std::string("prefetch = false"))
                       << ", but got " << prefetchDistance;
  // The A bytes a thread holds in registers: the iteration being computed
  // and the prefetch_distance iterations in flight. Beyond 1024 bytes (256
  // registers, the whole register file) a plan can only spill, and its
  // unrolled code takes seconds to compile.
  int64_t inFlight = rowsPerWarp * unroll * bytesPerThread *
                     (prefetch && stages == 0 ? prefetchDistance + 1 : 1);
  if (inFlight > kMaxGemvBytesInFlight)
    return emitError() << "expects rows_per_warp x unroll x bytes_per_thread "
                          "x (prefetch_distance + 1), the A bytes a thread "
                          "holds in registers, to be at most "
                       << kMaxGemvBytesInFlight << " (a thread's whole "
                       << "register file), but got " << inFlight;
  if (!prefetch && stages != 0)
    return emitError() << "expects prefetch = true with stages = " << stages
                       << " (the ring is a software pipeline)";
  return success();
}

LogicalResult
QuantizePlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t warpsPerCta, int64_t blocksPerThread) {
  if (warpsPerCta < 1 || warpsPerCta > 32)
    return emitError() << "expects warps_per_cta to be in [1, 32], but got "
                       << warpsPerCta;
  if (blocksPerThread != 1 && blocksPerThread != 2 && blocksPerThread != 4)
    return emitError() << "expects blocks_per_thread to be 1, 2 or 4, but got "
                       << blocksPerThread;
  return success();
}

int64_t QuantizePlanAttr::getThreadsPerCta() const {
  return getWarpsPerCta() * 32;
}
StringRef QuantizePlanAttr::getKernelKind() const { return "quantize"; }

int64_t GemvPlanAttr::getThreadsPerCta() const { return getWarpsPerCta() * 32; }
StringRef GemvPlanAttr::getKernelKind() const { return "gemv"; }

/// A launch of a tcgen05 kernel (one with dynamic shared memory; its
/// pre-passes carry the same plan without) gives it at least its plan's
/// shared memory, and so much that no more of its CTAs share an SM than
/// TMEM's 512 columns hold (TmemOccupancy.h).
static LogicalResult verifyTcgen05Launch(Operation *op, Attribute plan) {
  auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
  auto kernel = dyn_cast<KernelPlanAttr>(plan);
  if (!launch || !kernel || !kernel.getTcgen05() ||
      !launch.getDynamicSharedMemorySize())
    return success();
  const int64_t columns = kernel.getTcgen05().getTmemColumns();
  IntegerAttr bytes;
  if (!matchPattern(launch.getDynamicSharedMemorySize(), m_Constant(&bytes)))
    return op->emitError() << "launches a tcgen05 kernel with dynamic shared "
                              "memory that is not a constant; it must be "
                              "known to keep CTAs of "
                           << columns << " TMEM columns within TMEM";
  const int64_t shared = bytes.getInt();
  if (columns && tmem::ctasPerSmByShared(shared) * columns > tmem::kColumns)
    return op->emitError()
           << "launches CTAs that allocate " << columns
           << " TMEM columns each with " << shared
           << " bytes of dynamic shared memory, which lets "
           << tmem::ctasPerSmByShared(shared)
           << " share an SM's 512 columns (a CTA would wait in "
              "tcgen05.alloc; in a cluster it can deadlock); launch with at "
              "least "
           << tmem::minSharedBytesFor(columns) << " bytes";
  if (shared < kernel.getSharedBytes())
    return op->emitError() << "launches a kernel whose plan needs "
                           << kernel.getSharedBytes()
                           << " bytes of dynamic shared memory with " << shared;
  return success();
}

LogicalResult NVFP4Dialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  if (attr.getName() == kDependentLaunchAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        op->getName().getStringRef() != "gpu.launch_func")
      return op->emitError() << "expects '" << kDependentLaunchAttrName
                             << "' to be a unit attribute on a "
                                "gpu.launch_func";
    return success();
  }
  if (attr.getName() == kTensorMapParamsAttrName) {
    auto indices = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!indices || !function)
      return op->emitError() << "expects '" << kTensorMapParamsAttrName
                             << "' to be an array<i64> on a function";
    // The parameter count, then the maps' indices.
    ArrayRef<int64_t> record = indices.asArrayRef();
    if (record.size() < 2)
      return op->emitError() << "expects '" << kTensorMapParamsAttrName
                             << "' to hold the parameter count and at least "
                                "one index";
    for (int64_t i : record.drop_front())
      if (i < 0 || i >= static_cast<int64_t>(function.getNumArguments()))
        return op->emitError()
               << "'" << kTensorMapParamsAttrName << "' names parameter " << i
               << ", but the function has " << function.getNumArguments();
    return success();
  }
  if (attr.getName() != kPlanAttrName)
    return op->emitError() << "unknown nvfp4 attribute '" << attr.getName()
                           << "'";
  if (!isa<PlanAttrInterface>(attr.getValue()))
    return op->emitError() << "expects '" << kPlanAttrName
                           << "' to be a plan (#nvfp4.gemv_plan or "
                              "#nvfp4.kernel), but got "
                           << attr.getValue();
  return verifyTcgen05Launch(op, attr.getValue());
}

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t columns, int64_t ctaGroup) {
  if (columns < 32 || columns > 512 || (columns & (columns - 1)) != 0)
    return emitError() << "expects columns to be a power of two in [32, "
                          "512] (what tcgen05.alloc allocates), got "
                       << columns;
  if (ctaGroup != 1 && ctaGroup != 2)
    return emitError() << "expects cta_group to be 1 or 2, got " << ctaGroup;
  return success();
}

LogicalResult RingType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages, int64_t slotBytes,
                               int64_t consumers, int64_t scratchBytes,
                               int64_t ctaGroup) {
  if (stages < 1)
    return emitError() << "expects a ring of at least one stage, got "
                       << stages;
  // Slots follow each other from a 1024-byte aligned base: each must keep
  // the next aligned for the 128B swizzle.
  if (slotBytes <= 0 || slotBytes % 1024 != 0)
    return emitError() << "expects slot_bytes to be a positive multiple of "
                          "1024 (the 128B swizzle's alignment), got "
                       << slotBytes;
  if (consumers < 1)
    return emitError() << "expects at least one consumer, got " << consumers;
  // The mbarriers follow the data: keep them 8-byte aligned.
  if (scratchBytes < 0 || scratchBytes % 16 != 0)
    return emitError() << "expects scratch_bytes to be a non-negative "
                          "multiple of 16 (the ring's mbarriers follow it), "
                          "got "
                       << scratchBytes;
  if (ctaGroup != 1 && ctaGroup != 2)
    return emitError() << "expects cta_group to be 1 or 2, got " << ctaGroup;
  return success();
}

//===----------------------------------------------------------------------===//
// TensorMapType
//===----------------------------------------------------------------------===//

// Syntax: `<` dims `x` element-type `,` `box` `=` `[` dims `]` `,`
// `swizzle` `=` keyword `>`.
Type TensorMapType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, box;
  Type elementType;
  std::string swizzleName;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseKeyword("box") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       return parser.parseInteger(
                                           box.emplace_back());
                                     }) ||
      parser.parseComma() || parser.parseKeyword("swizzle") ||
      parser.parseEqual() || parser.parseKeywordOrString(&swizzleName) ||
      parser.parseGreater())
    return Type();
  std::optional<TensorMapSwizzle> swizzle =
      symbolizeTensorMapSwizzle(swizzleName);
  if (!swizzle) {
    parser.emitError(parser.getCurrentLocation())
        << "expected swizzle none, swizzle_32b, swizzle_64b or swizzle_128b, "
           "got '"
        << swizzleName << "'";
    return Type();
  }
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), shape, elementType, box, *swizzle);
}

void TensorMapType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", box = [";
  llvm::interleaveComma(getBox(), printer);
  printer << "], swizzle = " << stringifyTensorMapSwizzle(getSwizzle()) << ">";
}

int64_t TensorMapType::getElementBytes() const {
  return getElementType().getIntOrFloatBitWidth() / 8;
}

int64_t TensorMapType::getTensorBytes() const {
  int64_t bytes = getElementBytes();
  for (int64_t d : getShape())
    bytes *= d;
  return bytes;
}

int64_t TensorMapType::getBoxBytes() const {
  int64_t bytes = getElementBytes();
  for (int64_t d : getBox())
    bytes *= d;
  return bytes;
}

LogicalResult
TensorMapType::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, Type elementType,
                      ArrayRef<int64_t> box, TensorMapSwizzle swizzle) {
  // The limits of cuTensorMapEncodeTiled (tiled mode, no interleave), so
  // that a map this type accepts is one the driver encodes.
  if (!elementType.isInteger(8) && !elementType.isInteger(16) &&
      !elementType.isInteger(32) && !elementType.isF16() &&
      !elementType.isBF16() && !elementType.isF32())
    return emitError() << "expects an element type i8, i16, i32, f16, bf16 "
                          "or f32 (a TMA data type), got "
                       << elementType;
  if (shape.empty() || shape.size() > 5)
    return emitError() << "expects a rank from 1 to 5, got " << shape.size();
  if (box.size() != shape.size())
    return emitError() << "expects a box of rank " << shape.size()
                       << " (the tensor's), got " << box.size();
  const int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  int64_t stride = elementBytes;
  for (int64_t i = shape.size() - 1; i >= 0; --i) {
    if (shape[i] < 1 || shape[i] > (int64_t(1) << 32))
      return emitError() << "expects every dimension in [1, 2^32], got "
                         << shape[i];
    if (box[i] < 1 || box[i] > 256)
      return emitError() << "expects every box dimension in [1, 256], got "
                         << box[i];
    if (i + 1 < static_cast<int64_t>(shape.size()) &&
        (stride % 16 != 0 || stride >= (int64_t(1) << 40)))
      return emitError() << "expects the byte stride of every dimension but "
                            "the innermost to be a multiple of 16 below "
                            "2^40, got "
                         << stride;
    stride *= shape[i];
  }
  const int64_t innerBoxBytes = box.back() * elementBytes;
  if (innerBoxBytes % 16 != 0)
    return emitError() << "expects the box's innermost extent to be a "
                          "multiple of 16 bytes, got "
                       << innerBoxBytes;
  const int64_t span[] = {0, 32, 64, 128};
  int64_t spanBytes = span[static_cast<int>(swizzle)];
  if (spanBytes && innerBoxBytes > spanBytes)
    return emitError() << "expects the box's innermost extent ("
                       << innerBoxBytes << " bytes) to fit the " << spanBytes
                       << "-byte swizzle span";
  return success();
}
