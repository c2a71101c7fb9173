//===- SplitExchange.h - split-K's tiles exchanged in a cluster -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The on-chip end of split-K (`#nvfp4.split_k` in mode cluster or
// scatter) for every target's accumulators (wgmma's registers, tcgen05's
// TMEM): the split_k CTAs of a tile are a thread-block cluster, and the
// threads that hold each CTA's sum hand it to the first CTA
// (reduce_splits), or each part of it to the CTA that owns that part
// (reduce_scatter_splits), through distributed shared memory, ordered by
// two phases of the cluster barrier (ReduceSplits.cpp).
// Private to lib/Conversion/NVFP4ToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_SPLITEXCHANGE_H
#define NVFP4_CONVERSION_NVFP4TONVVM_SPLITEXCHANGE_H

#include "KernelBuilder.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

namespace mlir::nvfp4 {

/// One CTA's side of the exchange among `splits` CTAs. `threads` holders
/// (CTA threads 0 .. threads - 1, every one of them executing the
/// exchange) of `floats` fp32 values each (a multiple of 4) to hand over;
/// sender slot s's (0 .. splits - 2: split s + 1 for reduce_splits, the
/// sender's rank less one if above the owner's for reduce_scatter_splits)
/// values 4j .. 4j + 3 of thread t sit at float (s x floats + 4j) x
/// threads + 4t of the exchange area, so a warp's 16-byte accesses for one
/// j are contiguous. The area is the top
/// SplitKAttr::exchangeBytes(splits, floats x threads) bytes of the
/// first CTA's ring data (`ring`: its i32 shared address; `type`: its
/// layout), or with `aTileBytes` > 0 the A tiles (the first aTileBytes) of
/// the ring's last slots, area byte o at slot byte (o / aTileBytes) x
/// slot_bytes + o % aTileBytes of them (RingType::getSplitExchangeStart);
/// either way above the K groups' sums that nvfp4.wgmma.reduce_k_groups
/// reads from its bottom just before (the op verifiers check that the two
/// fit side by side).
class SplitExchange {
public:
  SplitExchange(KernelBuilder &k, Value ring, RingType type, int64_t splits,
                int64_t threads, int64_t floats, int64_t aTileBytes = 0);

  /// Phase 1 (every holder arrives, relaxed unless `releaseReads`: its
  /// plain loads of the ring may still be in flight, and waits): every CTA of
  /// the cluster runs, and every other thread of each CTA has exited
  /// (barrier.cluster counts the cluster's non-exited threads only), so no
  /// CTA uses its ring any more. Returns this CTA's cluster rank (i32), its
  /// split.
  Value begin(bool releaseReads = false);
  /// A later split: stores its values 4j .. 4j + 3 (`part`, vector<4xf32>)
  /// into the first CTA's ring.
  void put(Value rank, int64_t j, Value part);
  /// The symmetric exchange (reduce_scatter_splits): stores values 4j ..
  /// 4j + 3 into the area of cluster rank `to` as its sender `slot` (i32s).
  void putTo(Value to, Value slot, int64_t j, Value part);
  /// A later split, after its puts: arrives at phase 2 (release: the puts
  /// are visible to the first CTA's acquire) and does not wait.
  void endPuts();
  /// The first CTA: arrives at phase 2 and waits (acquire) for every later
  /// split's puts.
  void waitPuts();
  /// The first CTA, after waitPuts: split r's values 4j .. 4j + 3
  /// (vector<4xf32>).
  Value get(int64_t r, int64_t j);
  /// The symmetric exchange, after its puts: arrives at phase 2 (release:
  /// this CTA's puts) and waits (acquire: the peers' puts into its area).
  void exchangePuts();
  /// The symmetric exchange, after exchangePuts: the values 4j .. 4j + 3
  /// of sender `slot` (i32) in this CTA's area.
  Value getFrom(Value slot, int64_t j);

private:
  /// Byte offset of sender slot `rankMinus1`'s values 4j .. of this thread.
  Value offset(Value rankMinus1, int64_t j);

  KernelBuilder &k;
  /// The exchange area's i32 shared address in this CTA.
  Value area;
  int64_t threads, floats;
  /// The A tiles' bytes a slot when the area skips the rest of each slot
  /// (0: contiguous), and the slot's bytes.
  int64_t aTileBytes, slotBytes;
  /// The first CTA's exchange area as a shared::cluster pointer (mapa),
  /// made by the first put.
  Value first;
};

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_SPLITEXCHANGE_H
