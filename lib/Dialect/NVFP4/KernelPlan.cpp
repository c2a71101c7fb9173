//===- KernelPlan.cpp - a tensor-core kernel's plan and its parts ---------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// `#nvfp4.kernel` and its parts. Each part's verifier checks its own
// fields; `verifyWith` checks it against the other parts, naming both in
// its errors; the plan's verifier asks every part and then checks what
// they need together (the ring with every part's post-loop area in it).
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Dialect/NVFP4/TmemOccupancy.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::nvfp4;

/// Dynamic shared memory a CTA may have on the targets with a ring.
static constexpr int64_t kMaxRingBytes = 227 * 1024;

//===----------------------------------------------------------------------===//
// #nvfp4.wgmma_mainloop
//===----------------------------------------------------------------------===//

int64_t WgmmaMainloopAttr::getTileN() const { return 64 * getWarpgroups(); }
int64_t WgmmaMainloopAttr::getThreadsPerCta() const {
  return getConsumerThreads() + (getProducer() ? 128 : 0);
}
int64_t WgmmaMainloopAttr::getKStep() const { return kTileK; }

/// stages = 0: static shared memory, two decoded buffers; stages > 0: the
/// ring (ringBytes).
int64_t WgmmaMainloopAttr::getSharedBytes(int64_t scratch) const {
  if (getStages() == 0)
    return 2 * getATileBytes();
  return ringBytes(getStages(), getSlotBytes(), scratch);
}

/// A thread's accumulators: tile_m / 2 floats (wgmma's D fragment of N =
/// tile_m) for each weight it multiplies.
int64_t WgmmaMainloopAttr::getKGroupSumsBytes() const {
  const int64_t floats = getTileM() / 2;
  if (getSplitWeights())
    return WgmmaSwapHalvesOp::getScratchNeed(floats / 2);
  return WgmmaReduceKGroupsOp::getScratchNeed(getKGroups(), getWarpgroups(),
                                              getWeights() * floats);
}

int64_t WgmmaMainloopAttr::getScratchBytes(const KernelParts &) const {
  return getKGroupSumsBytes();
}

LogicalResult WgmmaMainloopAttr::verifyWith(function_ref<InFlightDiagnostic()>,
                                            const KernelParts &) const {
  // Every reduction works on its accumulators (the reduction checks what
  // it needs of the mainloop).
  return success();
}

LogicalResult
WgmmaMainloopAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t warpgroups, int64_t tileM, int64_t stages,
                          int64_t kGroups, int64_t bPrefetch, bool producer,
                          bool bTma, int64_t weights, int64_t slotChunks,
                          bool splitWeights) {
  if (warpgroups != 1 && warpgroups != 2)
    return emitError() << "expects warpgroups to be 1 or 2 (64 rows of B "
                          "each), but got "
                       << warpgroups;
  // wgmma's N is a multiple of 8 up to 256; two buffers of tile_m decoded
  // rows (128 bytes each per K chunk) must fit the 48 KiB of static shared
  // memory, and tile_m / 2 fp32 accumulators per thread the registers.
  if (tileM < 8 || tileM > 256 || tileM % 8 != 0 ||
      (stages == 0 && tileM > 192))
    return emitError() << "expects tile_m to be a multiple of 8 in [8, 256] "
                          "(the MMA's N), at most 192 with stages = 0 (two "
                          "static shared-memory buffers of tile_m x 128 "
                          "bytes), but got "
                       << tileM;
  if (stages != 0 && (stages < 2 || stages > 16))
    return emitError() << "expects stages to be 0 (A decoded in each CTA) or "
                          "in [2, 16] (a ring of TMA-copied tiles), but got "
                       << stages;
  if (kGroups < 1 || kGroups > 4)
    return emitError() << "expects k_groups to be in [1, 4], but got "
                       << kGroups;
  if (kGroups > 1 &&
      (stages == 0 || stages % kGroups != 0 || stages / kGroups < 2))
    return emitError() << "expects k_groups = " << kGroups
                       << " with a ring of at least 2 rounds of k_groups "
                          "slots (stages a multiple of k_groups, >= "
                       << 2 * kGroups << "), but got stages = " << stages;
  if (bPrefetch < 2 || bPrefetch > 8)
    return emitError() << "expects b_prefetch to be in [2, 8] (rounds of B "
                          "loaded ahead of their MMAs), but got "
                       << bPrefetch;
  if (bPrefetch != 2 && stages == 0)
    return emitError() << "expects b_prefetch = 2 with stages = 0 (the ring "
                          "loop alone loads B further ahead), but got "
                       << bPrefetch;
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
  // A second weight's fragments are decoded by the ring's consumers; the
  // CTA that decodes A itself has room for one.
  if (weights != 1 && weights != 2)
    return emitError() << "expects weights to be 1 or 2 (accumulators of the "
                          "same A tile), but got "
                       << weights;
  // The K groups' reduction adds the weights' accumulators as one
  // vector: at most 128 floats (wgmma's N of 256).
  if (weights > 1 && kGroups > 1 && weights * tileM / 2 > 128)
    return emitError() << "expects weights x tile_m / 2 <= 128 with k_groups "
                          "> 1 (the K groups add the accumulators of every "
                          "weight as one fragment of at most 128 floats), "
                          "but got "
                       << weights << " x " << tileM << " / 2";
  if (weights > 1 && stages == 0)
    return emitError() << "expects weights = " << weights
                       << " with a ring (stages > 0): the CTA that decodes A "
                          "itself (stages = 0) multiplies one weight";
  // A round waits for, multiplies and releases a whole slot; its chunks
  // come by TMA under one barrier, in the same K group.
  if (slotChunks != 1 && slotChunks != 2 && slotChunks != 4)
    return emitError() << "expects slot_chunks to be 1, 2 or 4 (K chunks of "
                          "64 per ring slot), but got "
                       << slotChunks;
  if (slotChunks > 1 && (!bTma || kGroups != 1))
    return emitError() << "expects slot_chunks = " << slotChunks
                       << " with b_tma and k_groups = 1 (the producer fills "
                          "a slot's chunks under one barrier for one K "
                          "group), but got b_tma = "
                       << bTma << ", k_groups = " << kGroups;
  // One weight per warpgroup: the second weight's warpgroup reads the
  // slot as the second warpgroup of a one-weight CTA would; after the K
  // loop the two swap halves of their tiles (swap_halves).
  if (splitWeights && (weights != 2 || warpgroups != 1 || kGroups != 1 ||
                       !bTma))
    return emitError() << "expects split_weights with weights = 2, "
                          "warpgroups = 1, k_groups = 1 and b_tma (a "
                          "warpgroup for each weight's 64 rows of B), but "
                          "got weights = "
                       << weights << ", warpgroups = " << warpgroups
                       << ", k_groups = " << kGroups << ", b_tma = " << bTma;
  // The warpgroups swap halves of their tiles in whole 8-column groups.
  if (splitWeights && tileM % 16 != 0)
    return emitError() << "expects tile_m to be a multiple of 16 with "
                          "split_weights (the weights' warpgroups swap "
                          "halves of the tile's rows of A, whole groups of "
                          "8), but got "
                       << tileM;
  const int64_t consumerWarpgroups =
      warpgroups * kGroups * (splitWeights ? weights : 1);
  const int64_t mmaWeights = splitWeights ? 1 : weights;
  if (producer && consumerWarpgroups > 3)
    return emitError() << "expects at most 3 consumer warpgroups (warpgroups "
                          "x k_groups, x 2 with split_weights) with a "
                          "producer warpgroup, but got "
                       << consumerWarpgroups;
  // tile_m / 2 accumulators, 6 registers per round of B in flight, about
  // 58 more per thread, and 16 more when each K group's ring has only two
  // rounds of slots (a plan fuzz through ptxas: such plans spilled within
  // 12-18 registers of the budget, three-round ones within 2): the CTA's
  // threads must fit the 64K registers of an SM, which ptxas hands out 8
  // per thread at a time (384 threads: 168 each, not 170).
  const int64_t rounds = stages ? stages / kGroups : 0;
  // The estimate's terms, for the diagnostics (built only when one fires).
  auto formula = [&] {
    std::string perWeight = "tile_m / 2 accumulators + 6 x b_prefetch";
    return (mmaWeights > 1 ? "(" + std::to_string(mmaWeights) + " weights x (" +
                              perWeight + ") + 58 + " + (bTma ? "16" : "64") +
                              " for the second weight's fragments" +
                              (bTma ? "" : " and loads")
                        : "(" + perWeight + " + 58") +
           (slotChunks > 1 ? std::string(" + 16 x weights for the slot's "
                                         "second chunk's fragments")
                           : std::string()) +
           (rounds == 2 ? " + 16 for two ring rounds per K group)" : ")");
  };
  int64_t threads = 128 * consumerWarpgroups;
  int64_t registers = estimateRegisters(tileM, bPrefetch, rounds, mmaWeights,
                                        bTma, slotChunks);
  const int64_t perThread =
      std::min<int64_t>((65536 / threads) & ~int64_t(7), 255);
  if (registers > perThread)
    return emitError() << "expects the CTA's " << threads << " threads x about "
                       << registers << " registers " << formula()
                       << " to fit 65536 registers, " << perThread
                       << " per thread in ptxas's units of 8; use fewer "
                          "warpgroups, a smaller k_groups, tile_m or "
                          "b_prefetch"
                       << (rounds == 2 ? ", or more stages" : "");
  // With a producer warpgroup the consumers get what it leaves them.
  if (producer) {
    int64_t budget = consumerRegisters(consumerWarpgroups);
    if (registers > budget)
      return emitError() << "expects about " << registers
                         << " registers per consumer thread " << formula()
                         << " to fit the " << budget
                         << " a producer warpgroup leaves them; use a "
                            "smaller tile_m, k_groups or b_prefetch"
                         << (rounds == 2 ? ", or more stages" : "");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// #nvfp4.tcgen05_mainloop
//===----------------------------------------------------------------------===//

int64_t Tcgen05MainloopAttr::getTileN() const { return kTileN; }
int64_t Tcgen05MainloopAttr::getThreadsPerCta() const { return kThreads; }
int64_t Tcgen05MainloopAttr::getKStep() const { return kStageK; }

/// The ring (slots, or the scratch that reuses them if larger, 1024 bytes
/// of alignment slack, a full and an empty mbarrier per slot), padded so
/// that no more CTAs share an SM than its TMEM columns hold
/// (TmemOccupancy.h).
int64_t Tcgen05MainloopAttr::getSharedBytes(int64_t scratch) const {
  // (A pair's ring has a third mbarrier per slot, peer_full.)
  const int64_t ring = RingType::get(getContext(), getStages(), getSlotBytes(),
                                     /*consumers=*/1, scratch, getCtaGroup())
                           .getSharedBytes();
  const int64_t columns = getTmemColumns();
  return columns ? std::max(ring, tmem::minSharedBytesFor(columns)) : ring;
}

int64_t Tcgen05MainloopAttr::getScratchBytes(const KernelParts &) const {
  return 0;
}

LogicalResult
Tcgen05MainloopAttr::verifyWith(function_ref<InFlightDiagnostic()>,
                                const KernelParts &) const {
  return success();
}

LogicalResult
Tcgen05MainloopAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            int64_t tileM, int64_t stages, int64_t weights,
                            ScaleFormat format, int64_t ctaGroup) {
  if (weights != 1 && weights != 2)
    return emitError() << "expects weights to be 1 or 2 (TMEM accumulators "
                          "of the same A tile), but got "
                       << weights;
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
  if (ctaGroup != 1 && ctaGroup != 2)
    return emitError() << "expects cta_group to be 1 or 2 (CTAs per tcgen05 "
                          "MMA), but got "
                       << ctaGroup;
  // A pair's MMA (M = 256) takes N in [16, 256] in steps of 16, half of it
  // from each CTA's slot: whole 32-row quarters of the scales' blocks in
  // each.
  if (ctaGroup == 2 && tileM == 32)
    return emitError() << "expects tile_m to be 64, 128 or 256 with "
                          "cta_group = 2 (at least 32 rows of A in each "
                          "CTA of the pair), but got 32";
  // The accumulator and every slot's scale columns share TMEM's 512.
  const int64_t blocksA = BlockFormat::getRowAtoms(tileM);
  const int64_t columns = tmemColumnsUsed(tileM, stages, weights, format);
  const int64_t atoms = getScaleAtomsPerSlot(format);
  if (columns > 512)
    return emitError() << "expects the accumulator"
                       << (weights > 1 ? "s (" + std::to_string(weights) + " x "
                                       : std::string(" ("))
                       << tileM << " columns) and the scales of " << stages
                       << " slots ("
                       << atoms * (4 * weights + 4 * blocksA)
                       << " columns each) to fit TMEM's 512 columns, but "
                          "they need "
                       << columns << "; use fewer stages";
  return success();
}

//===----------------------------------------------------------------------===//
// #nvfp4.split_k
//===----------------------------------------------------------------------===//

LogicalResult SplitKAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t splits, SplitKMode) {
  if (splits < 2 || splits > 8)
    return emitError() << "expects splits to be in [2, 8] (CTAs splitting "
                          "K; a kernel that does not split K has no "
                          "reduction), but got "
                       << splits;
  return success();
}

/// An on-chip reduction's exchange: the other splits' whole tiles in the
/// first CTA's ring (cluster), or their parts of this split's part of the
/// tile in every CTA's (scatter).
int64_t SplitKAttr::getScratchBytes(const KernelParts &parts) const {
  if (!isOnChip())
    return 0;
  const int64_t tile = parts.mainloop.getWeights() *
                       parts.mainloop.getTileN() * parts.mainloop.getTileM();
  return exchangeBytes(getSplits(), getMode() == SplitKMode::Scatter
                                        ? tile / getSplits()
                                        : tile);
}

LogicalResult
SplitKAttr::verifyWith(function_ref<InFlightDiagnostic()> emitError,
                       const KernelParts &parts) const {
  auto wgmma = dyn_cast<WgmmaMainloopAttr>(parts.mainloop);
  // A CTA pair is a cluster of its own: its splits cannot be one too.
  if (auto tcgen05 = dyn_cast<Tcgen05MainloopAttr>(parts.mainloop);
      tcgen05 && tcgen05.getCtaGroup() == 2 && isOnChip())
    return emitError() << *this << " adds its splits in a cluster, but "
                       << tcgen05
                       << " makes each cluster a CTA pair (cta_group = 2); "
                          "split K globally or use cta_group = 1";
  // Each split's CTA reads the pre-pass's tiles of A at its own K offset.
  if (wgmma && wgmma.getStages() == 0)
    return emitError() << *this
                       << " needs the pre-pass's decoded tiles of A, but "
                       << wgmma << " decodes A in each CTA (stages = 0)";
  // The weights' warpgroups meet in the CTA, not across splits (never
  // timed together).
  if (wgmma && wgmma.getSplitWeights())
    return emitError() << *this << " splits K, but " << wgmma
                       << " gives each weight its own warpgroup "
                          "(split_weights), which has no split-K";
  // On chip the splits add every weight's accumulators as one fragment.
  if (wgmma && isOnChip() &&
      wgmma.getWeights() * wgmma.getTileM() / 2 > 128)
    return emitError() << *this << " adds the accumulators of every weight "
                       << "as one fragment of at most 128 floats, but "
                       << wgmma << " has " << wgmma.getWeights()
                       << " x tile_m / 2 = "
                       << wgmma.getWeights() * wgmma.getTileM() / 2;
  if (getMode() != SplitKMode::Scatter)
    return success();
  if (!wgmma)
    return emitError() << *this << " needs a wgmma mainloop (its splits "
                       << "store parts of a register tile), but the plan's "
                          "mainloop is "
                       << parts.mainloop;
  // Each split stores tile_m / splits rows of A: whole 8-column groups of
  // the accumulator fragment.
  if (wgmma.getTileM() % (8 * getSplits()) != 0)
    return emitError() << *this << " gives each split tile_m / " << getSplits()
                       << " rows of A, a multiple of 8, but " << wgmma
                       << " has tile_m = " << wgmma.getTileM();
  return success();
}

//===----------------------------------------------------------------------===//
// #nvfp4.kernel
//===----------------------------------------------------------------------===//

KernelParts KernelPlanAttr::getParts() const {
  return {getMainloop(), getReduction()};
}

int64_t KernelPlanAttr::getScratchBytes() const {
  KernelParts parts = getParts();
  int64_t bytes = 0;
  for (KernelPartAttrInterface part : parts.all())
    bytes += part.getScratchBytes(parts);
  return bytes;
}

Attribute KernelPlanAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  MainloopAttrInterface mainloop;
  SplitKAttr reduction;
  if (parser.parseLess() || parser.parseKeyword("mainloop") ||
      parser.parseEqual() || parser.parseAttribute(mainloop))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key != "reduction" || reduction) {
      parser.emitError(keyLoc)
          << "expects the parts after the mainloop to be a `reduction` "
             "(at most one), but got `"
          << key << "`";
      return {};
    }
    if (parser.parseAttribute(reduction))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    mainloop, reduction);
}

void KernelPlanAttr::print(AsmPrinter &printer) const {
  printer << "<mainloop = " << getMainloop();
  if (getReduction())
    printer << ", reduction = " << getReduction();
  printer << ">";
}

int64_t KernelPlanAttr::getThreadsPerCta() const {
  return getMainloop().getThreadsPerCta();
}
StringRef KernelPlanAttr::getKernelKind() const { return "gemm"; }

LogicalResult
KernelPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       MainloopAttrInterface mainloop, SplitKAttr reduction) {
  if (!mainloop)
    return emitError() << "expects a mainloop";
  KernelParts parts{mainloop, reduction};
  int64_t scratch = 0;
  for (KernelPartAttrInterface part : parts.all()) {
    if (failed(part.verifyWith(emitError, parts)))
      return failure();
    scratch += part.getScratchBytes(parts);
  }
  // The ring lives in dynamic shared memory: at most 227 KiB per CTA. Its
  // memory is reused after the K loop for the parts' areas, side by side.
  if (mainloop.getStages() != 0 &&
      mainloop.getSharedBytes(scratch) > kMaxRingBytes)
    return emitError() << "expects the ring of " << mainloop
                       << " (or the areas the parts reuse it for after the "
                          "K loop: "
                       << scratch << " bytes), with alignment, to fit 227 KiB "
                       << "of shared memory, but it needs "
                       << mainloop.getSharedBytes(scratch) << " bytes";
  return success();
}
