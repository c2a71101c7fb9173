//===- NVFP4Dialect.cpp - nvfp4 dialect and attributes --------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

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

int64_t GemvPlanAttr::getThreadsPerCta() const { return getWarpsPerCta() * 32; }
StringRef GemvPlanAttr::getKernelKind() const { return "gemv"; }

int64_t Tcgen05PlanAttr::getThreadsPerCta() const { return kThreads; }
StringRef Tcgen05PlanAttr::getKernelKind() const { return "gemm"; }

LogicalResult
Tcgen05PlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t tileM, int64_t stages, int64_t splitK,
                        bool splitCluster) {
  // tcgen05.mma with M = 128 takes N in [8, 256]; A's scales come in
  // 128-row blocks whose 32-row quarters are TMEM columns, so a tile starts
  // on a quarter: 32 and 64 rows (part of a block), 128 or 256 (whole
  // blocks).
  if (tileM != 32 && tileM != 64 && tileM != 128 && tileM != 256)
    return emitError() << "expects tile_m to be 32, 64, 128 or 256 (the "
                          "MMA's N, on 32-row quarters of the scales' "
                          "128-row blocks), but got "
                       << tileM;
  if (stages < 2 || stages > 16)
    return emitError() << "expects stages to be in [2, 16], but got " << stages;
  if (splitK < 1 || splitK > 8)
    return emitError() << "expects split_k to be in [1, 8] (CTAs splitting "
                          "K), but got "
                       << splitK;
  if (splitCluster && splitK == 1)
    return emitError() << "expects split_cluster with split_k > 1 (the "
                          "splits of a tile form the cluster)";
  // The accumulator and every slot's scale columns share TMEM's 512.
  const int64_t blocksA = (tileM + 127) / 128;
  const int64_t columns =
      tileM + stages * (kStageK / kMmaK) * (4 + 4 * blocksA);
  if (columns > 512)
    return emitError() << "expects the accumulator (" << tileM
                       << " columns) and the scales of " << stages << " slots ("
                       << (kStageK / kMmaK) * (4 + 4 * blocksA)
                       << " columns each) to fit TMEM's 512 columns, but "
                          "they need "
                       << columns << "; use fewer stages";
  return success();
}

int64_t GemmPlanAttr::getThreadsPerCta() const {
  return getConsumerThreads() + (getProducer() ? 128 : 0);
}
StringRef GemmPlanAttr::getKernelKind() const { return "gemm"; }

LogicalResult GemmPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t warpgroups, int64_t tileM,
                                   int64_t stages, int64_t kSplit,
                                   int64_t bPrefetch, int64_t splitK,
                                   bool producer, bool splitCluster,
                                   bool bTma) {
  if (warpgroups != 1 && warpgroups != 2)
    return emitError() << "expects warpgroups to be 1 or 2 (64 rows of B "
                          "each), but got "
                       << warpgroups;
  // wgmma's N is a multiple of 8 up to 256; two buffers of tile_m decoded
  // rows (128 bytes each per K chunk) must fit the 48 KiB of static shared
  // memory, and tile_m / 2 fp32 accumulators per thread the registers.
  if (tileM < 8 || tileM > 192 || tileM % 8 != 0)
    return emitError() << "expects tile_m to be a multiple of 8 in [8, 192] "
                          "(the MMA's N; two shared-memory buffers of "
                          "tile_m x 128 bytes), but got "
                       << tileM;
  if (stages != 0 && (stages < 2 || stages > 16))
    return emitError() << "expects stages to be 0 (A decoded in each CTA) or "
                          "in [2, 16] (a ring of TMA-copied tiles), but got "
                       << stages;
  if (kSplit < 1 || kSplit > 4)
    return emitError() << "expects k_split to be in [1, 4], but got " << kSplit;
  if (kSplit > 1 &&
      (stages == 0 || stages % kSplit != 0 || stages / kSplit < 2))
    return emitError() << "expects k_split = " << kSplit
                       << " with a ring of at least 2 rounds of k_split "
                          "slots (stages a multiple of k_split, >= "
                       << 2 * kSplit << "), but got stages = " << stages;
  if (splitK < 1 || splitK > 8)
    return emitError() << "expects split_k to be in [1, 8] (CTAs splitting "
                          "K), but got "
                       << splitK;
  if (splitK > 1 && stages == 0)
    return emitError() << "expects split_k = 1 with stages = 0 (split-K "
                          "needs the pre-pass's decoded tiles of A), but got "
                       << splitK;
  if (bPrefetch < 2 || bPrefetch > 8)
    return emitError() << "expects b_prefetch to be in [2, 8] (rounds of B "
                          "loaded ahead of their MMAs), but got "
                       << bPrefetch;
  if (bPrefetch != 2 && stages == 0)
    return emitError() << "expects b_prefetch = 2 with stages = 0 (the ring "
                          "loop alone loads B further ahead), but got "
                       << bPrefetch;
  if (splitCluster && splitK == 1)
    return emitError() << "expects split_cluster with split_k > 1 (the "
                          "splits of a tile form the cluster), but got "
                          "split_k = "
                       << splitK;
  if (producer && stages == 0)
    return emitError() << "expects producer with a ring (stages > 0): "
                          "without one there is nothing to produce";
  // B's chunks come with A's tiles: the producer copies them in the order
  // of its ring.
  if (bTma && (!producer || bPrefetch != 2))
    return emitError() << "expects b_tma with a producer warpgroup and "
                          "b_prefetch = 2 (B waits in the ring, not in "
                          "registers), but got producer = "
                       << producer << ", b_prefetch = " << bPrefetch;
  if (producer && 128 * warpgroups * kSplit > 384)
    return emitError() << "expects at most 3 consumer warpgroups (warpgroups "
                          "x k_split) with a producer warpgroup, but got "
                       << warpgroups * kSplit;
  // tile_m / 2 accumulators, 6 registers per round of B in flight, about
  // 58 more per thread, and 16 more when each K group's ring has only two
  // rounds of slots (a plan fuzz through ptxas: such plans spilled within
  // 12-18 registers of the budget, three-round ones within 2): the CTA's
  // threads must fit the 64K registers of an SM, which ptxas hands out 8
  // per thread at a time (384 threads: 168 each, not 170).
  const int64_t rounds = stages ? stages / kSplit : 0;
  // The estimate's terms, for the diagnostics (built only when one fires).
  auto formula = [&] {
    return std::string("(tile_m / 2 accumulators + 6 x b_prefetch + 58") +
           (rounds == 2 ? " + 16 for two ring rounds per K group)" : ")");
  };
  int64_t threads = 128 * warpgroups * kSplit;
  int64_t registers = estimateRegisters(tileM, bPrefetch, rounds);
  const int64_t perThread =
      std::min<int64_t>((65536 / threads) & ~int64_t(7), 255);
  if (registers > perThread)
    return emitError() << "expects the CTA's " << threads << " threads x about "
                       << registers << " registers " << formula()
                       << " to fit 65536 registers, " << perThread
                       << " per thread in ptxas's units of 8; use fewer "
                          "warpgroups, a smaller k_split, tile_m or "
                          "b_prefetch"
                       << (rounds == 2 ? ", or more stages" : "");
  // With a producer warpgroup the consumers get what it leaves them.
  if (producer) {
    int64_t budget = GemmPlanAttr::consumerRegisters(warpgroups * kSplit);
    if (registers > budget)
      return emitError() << "expects about " << registers
                         << " registers per consumer thread " << formula()
                         << " to fit the " << budget
                         << " a producer warpgroup leaves them; use a "
                            "smaller tile_m, k_split or b_prefetch"
                         << (rounds == 2 ? ", or more stages" : "");
  }
  // The ring lives in dynamic shared memory: at most 227 KiB per CTA. Its
  // memory is reused after the K loop for the K groups' sums and, side by
  // side with them, the other splits' tiles of a split_cluster.
  const int64_t ring = GemmPlanAttr::ringBytes(
      stages, GemmPlanAttr::slotBytes(tileM, warpgroups, bTma),
      GemmPlanAttr::scratchBytes(warpgroups, tileM, kSplit, splitK,
                                 splitCluster));
  if (stages != 0 && ring > 227 * 1024)
    return emitError() << "expects the ring (stages x (tile_m x 128 bytes, "
                          "+ 48 x 64 x warpgroups with b_tma), or "
                          "the K groups' and splits' sums reusing it, + "
                          "alignment) to fit 227 KiB of shared memory, but "
                          "it needs "
                       << ring << " bytes";
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
                           << "' to be a plan (#nvfp4.gemv_plan, "
                              "#nvfp4.gemm_plan or #nvfp4.tcgen05_plan), "
                              "but got "
                           << attr.getValue();
  return success();
}

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t columns) {
  if (columns < 32 || columns > 512 || (columns & (columns - 1)) != 0)
    return emitError() << "expects columns to be a power of two in [32, "
                          "512] (what tcgen05.alloc allocates), got "
                       << columns;
  return success();
}

LogicalResult RingType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages, int64_t slotBytes,
                               int64_t consumers, int64_t scratchBytes) {
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
