//===- WgmmaOps.cpp - the sm_90a pipeline's wgmma consumer ops ------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The per-thread wgmma ops nvfp4-software-pipeline writes for a
// #nvfp4.wgmma_mainloop ring (lib/Transforms/Gemm): nvfp4.wgmma.load_b (a
// thread's raw chunk of B from global memory) or read_b (the same from a
// ring slot, b_tma), decode_b (its register A fragments), mma (a chunk's 4
// MMAs on a ring slot), reduce_k_groups (the K groups' sums through the
// ring, behind the shared-memory plan's named barrier) and store (the D
// fragment to C, staged through the ring where the plan has room). The
// fragment layouts are GemmSm90.cpp's (file comment).
//
//===----------------------------------------------------------------------===//

#include "Fp4Encode.h"
#include "Lowerings.h"
#include "WgmmaFragments.h"

#include "nvfp4/Dialect/NVFP4/SmemPlan.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::sm90;

namespace {

struct WgmmaLoadBLowering : OpConversionPattern<WgmmaLoadBOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaLoadBOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    FragmentThread ft = FragmentThread::get(k, k.threadIdX());
    BRows rows(k, op.getB(), op.getSfb(), op.getSfbLayout(),
               arith::IndexCastUIOp::create(b, k.i64, op.getBatch()),
               op.getRow(), ft);
    Value bytes[2], scales[2];
    rows.load(k, op.getChunk(), bytes, scales);
    rewriter.replaceOp(op, {bytes[0], bytes[1], scales[0], scales[1]});
    return success();
  }
};

struct WgmmaReadBLowering : OpConversionPattern<WgmmaReadBOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaReadBOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    FragmentThread ft = FragmentThread::get(k, k.threadIdX());
    Value slot = ringSlotAddress(k, op.getRing().getType(), adaptor.getRing(),
                                 adaptor.getSlot());
    Value bBase = arith::AddIOp::create(b, slot, k.c32(op.getBOffset()));
    Value sfbBase = arith::AddIOp::create(b, slot, k.c32(op.getSfbOffset()));
    Value first = ft.firstRow(k, adaptor.getRow());
    auto sharedAt = [&](Value address) {
      return LLVM::IntToPtrOp::create(b, k.sharedPtr, address);
    };
    Value bytes[2], scales[2];
    for (int r = 0; r < 2; ++r) {
      Value row = arith::AddIOp::create(b, first, k.c32(8 * r));
      // Row r's 32 bytes, this thread's 8 of them (conflict-free: a warp
      // reads 8 consecutive rows, 256 contiguous bytes).
      Value byteAddress = arith::AddIOp::create(
          b, bBase,
          arith::AddIOp::create(b, arith::MulIOp::create(b, row, k.c32(32)),
                                arith::MulIOp::create(b, ft.q, k.c32(8))));
      bytes[r] = k.load(k.i64, sharedAt(byteAddress), 8, /*invariant=*/false);
      // The chunk's scale codes: from byte sfb_chunk x (codes a chunk) of 16
      // bytes a row (plain), or of row i of the 128 x 4 atom at (i % 32) x
      // 16 + (i / 32) x 4 (blocked).
      Value scaleOffset;
      if (op.getSfbLayout() == ScaleLayout::Blocked) {
        Value atomRow = arith::AddIOp::create(b, row, adaptor.getAtomRow());
        scaleOffset = arith::AddIOp::create(
            b,
            arith::MulIOp::create(
                b, arith::AndIOp::create(b, atomRow, k.c32(31)), k.c32(16)),
            arith::MulIOp::create(
                b, arith::ShRUIOp::create(b, atomRow, k.c32(5)), k.c32(4)));
      } else {
        scaleOffset = arith::MulIOp::create(b, row, k.c32(16));
      }
      const bool mx = op.getFormat() == ScaleFormat::MXFP4;
      scaleOffset = b.createOrFold<arith::AddIOp>(
          scaleOffset, b.createOrFold<arith::MulIOp>(adaptor.getSfbChunk(),
                                                     k.c32(mx ? 2 : 4)));
      // This thread's block: NVFP4's code q, MXFP4's q / 2.
      Value block = mx ? arith::ShRUIOp::create(b, ft.q, k.c32(1)) : ft.q;
      Value scaleAddress = arith::AddIOp::create(
          b, sfbBase, arith::AddIOp::create(b, scaleOffset, block));
      scales[r] = k.load(k.i8, sharedAt(scaleAddress), 1, /*invariant=*/false);
    }
    rewriter.replaceOp(op, {bytes[0], bytes[1], scales[0], scales[1]});
    return success();
  }
};

struct WgmmaDecodeBLowering : OpConversionPattern<WgmmaDecodeBOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaDecodeBOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Value bytes[2] = {adaptor.getBytes0(), adaptor.getBytes1()};
    Value scales[2] = {adaptor.getScale0(), adaptor.getScale1()};
    rewriter.replaceOp(
        op, k.pack(op.getFragments().getType(),
                   decodeFragments(k, bytes, scales, op.getFormat())));
    return success();
  }
};

struct WgmmaMmaLowering : OpConversionPattern<WgmmaMmaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Value tile = ringSlotAddress(k, op.getRing().getType(), adaptor.getRing(),
                                 adaptor.getSlot());
    if (op.getAOffset())
      tile = arith::AddIOp::create(b, tile, k.c32(op.getAOffset()));
    VectorType accType = op.getAcc().getType();
    SmallVector<Value> acc = mmaChunk(
        k, k.unpack(adaptor.getAcc()), k.unpack(adaptor.getFragments()), tile,
        2 * accType.getNumElements(), op.getFormat());
    rewriter.replaceOp(op, k.pack(accType, acc));
    return success();
  }
};

/// The shared-memory address of float i of thread t of exchange group g,
/// in an exchange of `count` floats a thread over `threads` threads a group
/// at `base`: ((g x count + i) x threads + t) floats, so a warp's stores
/// and loads are contiguous.
static Value exchangeSlot(KernelBuilder &k, Value base, Value group,
                          int64_t count, int64_t i, int64_t threads, Value t) {
  ImplicitLocOpBuilder &b = k.b;
  Value index = arith::AddIOp::create(
      b,
      arith::MulIOp::create(
          b,
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, group, k.c32(count)), k.c32(i)),
          k.c32(threads)),
      t);
  Value address =
      arith::AddIOp::create(b, base, arith::MulIOp::create(b, index, k.c32(4)));
  return LLVM::IntToPtrOp::create(b, k.sharedPtr, address);
}

struct WgmmaReduceKGroupsLowering : OpConversionPattern<WgmmaReduceKGroupsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaReduceKGroupsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    const int64_t groupThreads = op.getWarpgroups() * 128;
    SmallVector<Value> acc = k.unpack(adaptor.getAcc());
    const int64_t accCount = acc.size();
    Value tid = k.threadIdX();
    Value kGroup = arith::DivUIOp::create(b, tid, k.c32(groupThreads));
    Value t = arith::RemUIOp::create(b, tid, k.c32(groupThreads));
    // Groups 1.. hand their sums to group 0 through the ring's memory
    // (every copy has landed and every MMA that read it is complete once
    // all threads pass this barrier), group g in exchange group g - 1 of
    // exchangeSlot. The barrier counts the K groups' threads only (named
    // barrier 1): a producer warpgroup, if the CTA has one, does not take
    // part.
    auto groupsBarrier = [&] {
      NVVM::BarrierOp::create(b, Type(), k.c32(WgmmaSmemPlan::kKGroupsBarrier),
                              k.c32(op.getGroups() * groupThreads),
                              NVVM::BarrierReductionAttr(), Value());
    };
    groupsBarrier();
    auto partial = [&](Value group, int64_t i) {
      return exchangeSlot(k, adaptor.getRing(), group, accCount, i,
                          groupThreads, t);
    };
    Value isLater =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ne, kGroup, k.c32(0));
    {
      auto ifOp = scf::IfOp::create(b, isLater, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value group = arith::SubIOp::create(b, kGroup, k.c32(1));
      for (int64_t i = 0; i < accCount; ++i)
        LLVM::StoreOp::create(b, acc[i], partial(group, i), 4);
    }
    groupsBarrier();
    for (int64_t gi = 1; gi < static_cast<int64_t>(op.getGroups()); ++gi)
      for (int64_t i = 0; i < accCount; ++i)
        acc[i] = arith::AddFOp::create(
            b, acc[i],
            LLVM::LoadOp::create(b, k.f32, partial(k.c32(gi - 1), i), 4));
    rewriter.replaceOp(op, k.pack(op.getAcc().getType(), acc));
    return success();
  }
};

struct WgmmaSwapHalvesLowering : OpConversionPattern<WgmmaSwapHalvesOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaSwapHalvesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    SmallVector<Value> acc = k.unpack(adaptor.getAcc());
    const int64_t half = acc.size() / 2;
    Value tid = k.threadIdX();
    Value warpgroup = arith::ShRUIOp::create(b, tid, k.c32(7));
    Value t = arith::AndIOp::create(b, tid, k.c32(127));
    Value first =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, warpgroup, k.c32(0));
    // Warpgroup g hands its half over in exchange group g. Named
    // barrier 1 (the K groups') over the two warpgroups: every thread is
    // past its K loop before any writes, and every half is written before
    // any reads.
    auto barrier = [&] {
      NVVM::BarrierOp::create(b, Type(), k.c32(WgmmaSmemPlan::kKGroupsBarrier),
                              k.c32(256), NVVM::BarrierReductionAttr(),
                              Value());
    };
    auto element = [&](Value group, int64_t i) {
      return exchangeSlot(k, adaptor.getRing(), group, half, i, 128, t);
    };
    barrier();
    // Warpgroup 0 hands over its second half, warpgroup 1 its first.
    for (int64_t i = 0; i < half; ++i) {
      // The address first, then the value (an order the tests rely on,
      // not left to the compiler's order of argument evaluation).
      Value address = element(warpgroup, i);
      Value handed = arith::SelectOp::create(b, first, acc[half + i], acc[i]);
      LLVM::StoreOp::create(b, handed, address, 4);
    }
    barrier();
    Value other = arith::XOrIOp::create(b, warpgroup, k.c32(1));
    SmallVector<Value> theirs;
    for (int64_t i = 0; i < half; ++i)
      theirs.push_back(LLVM::LoadOp::create(b, k.f32, element(other, i), 4));
    rewriter.replaceOp(op, k.pack(op.getResult().getType(), theirs));
    return success();
  }
};

struct WgmmaStoreLowering : OpConversionPattern<WgmmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WgmmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    AccumulatorStore out = accumulatorStore(
        k, op.getC(), op.getPartials(), op.getBatch(), op.getSplit(),
        adaptor.getCScales(), adaptor.getCGlobalScale(), op.getCScalesLayout(),
        op.getCScaleRoundingAttr());
    // The tile's columns start at a multiple of its N (m is), so only a
    // ragged M needs masks; rows are masked unless N is a multiple of 64
    // (the op requires row < N: its warpgroup's rows then all exist).
    const int64_t tileM = 2 * op.getAcc().getType().getNumElements();
    out.maskM = out.m % tileM != 0;
    out.maskN = out.n % 64 != 0;
    out.mEnd = adaptor.getMEnd();
    SmallVector<Value> acc = k.unpack(adaptor.getAcc());
    FragmentThread ft = FragmentThread::get(k, k.threadIdX());
    if (out.scales) {
      storeQuantized(k, op, adaptor.getStaging(), acc, out, ft);
      rewriter.eraseOp(op);
      return success();
    }
    if (!op.getStaging()) {
      storeAccumulators(k, acc, out, op.getM(), op.getRow(), ft);
      rewriter.eraseOp(op);
      return success();
    }
    // Staged (the verifier checked the shape): 16-byte stores need C's base
    // plus the tile's first column 16-byte aligned, which C's type and the
    // op's `row` do not promise; otherwise the fragment's own stores.
    Value address = arith::AddIOp::create(
        b, LLVM::PtrToIntOp::create(b, k.i64, out.base),
        arith::ExtUIOp::create(
            b, k.i64, arith::MulIOp::create(b, op.getRow(), k.c32(out.bytes))));
    Value aligned = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, address, k.c64(15)), k.c64(0));
    auto ifOp = scf::IfOp::create(b, aligned, /*withElseRegion=*/true);
    b.setInsertionPointToStart(ifOp.thenBlock());
    storeStaged(k, op, adaptor.getStaging(), acc, out, ft);
    b.setInsertionPointToStart(ifOp.elseBlock());
    storeAccumulators(k, acc, out, op.getM(), op.getRow(), ft);
    rewriter.eraseOp(op);
    return success();
  }

  /// This thread's warpgroup (the storing threads are the CTA's first 128
  /// x `warpgroups`; the remainder keeps any other thread inside the
  /// verified area) and the shared address of its `bytes` in the ring from
  /// the op's staging offset.
  static std::pair<Value, Value> warpgroupArea(KernelBuilder &k,
                                               WgmmaStoreOp op, Value ringBase,
                                               int64_t bytes) {
    ImplicitLocOpBuilder &b = k.b;
    Value warpgroup = b.createOrFold<arith::RemUIOp>(
        arith::ShRUIOp::create(b, k.threadIdX(), k.c32(7)),
        k.c32(*op.getWarpgroups()));
    Value area = arith::AddIOp::create(
        b, ringBase,
        arith::AddIOp::create(
            b, k.c32(*op.getStagingOffset()),
            arith::MulIOp::create(b, warpgroup, k.c32(bytes))));
    return {warpgroup, area};
  }

  /// The warpgroup's named barrier (2 + warpgroup) over its 128 threads.
  static void warpgroupBarrier(KernelBuilder &k, Value warpgroup) {
    NVVM::BarrierOp::create(
        k.b, Type(),
        arith::AddIOp::create(k.b, warpgroup,
                              k.c32(WgmmaSmemPlan::getStagedStoreBarrier(0))),
        k.c32(128), NVVM::BarrierReductionAttr(), Value());
  }

  /// An FP4 C: accumulator i is C[m + 8 (i / 4) + 2q + i % 2][row + 16w
  /// + g + 8 ((i / 2) % 2)] (storeAccumulators), so a row's 16-column
  /// block is the warp's 16 columns: 2 values (i and i + 2) in each of the
  /// 8 lanes g of quad column q (lane bits 2-4), the next column's in lane
  /// ^ 4. An MXFP4 block is warps w and w ^ 1's (w even) 16 columns: each
  /// warp's lanes g = 0 write its 16-column amaxes into the ring's memory
  /// at (warp x blocks + block) x 4 + q floats of the warpgroup's area,
  /// and after the warpgroup's barrier each lane takes the other warp's
  /// too; the even warp stores the scales.
  static void storeQuantized(KernelBuilder &k, WgmmaStoreOp op, Value ringBase,
                             ArrayRef<Value> acc, const AccumulatorStore &out,
                             const FragmentThread &ft) {
    ImplicitLocOpBuilder &b = k.b;
    Value m = op.getM();
    Value column = ft.firstRow(k, op.getRow());
    Value column8 = arith::AddIOp::create(b, column, k.c32(8));
    Value mFirst =
        arith::AddIOp::create(b, m, arith::MulIOp::create(b, ft.q, k.c32(2)));
    SmallVector<QuantizedBlock> blocks;
    for (int64_t i = 0; i < static_cast<int64_t>(acc.size()); ++i) {
      if ((i >> 1) & 1)
        continue;
      Value mIdx =
          arith::AddIOp::create(b, mFirst, k.c32(8 * (i >> 2) + (i & 1)));
      blocks.push_back({{acc[i], acc[i + 2]}, {column, column8}, mIdx});
    }
    if (!out.format.isMX()) {
      storeQuantizedBlocks(k, out, blocks, {4, 8, 16}, 4, /*hardware=*/false);
      return;
    }
    const int64_t warpgroups = *op.getWarpgroups();
    const int64_t count = blocks.size();
    auto [warpgroup, area] = warpgroupArea(
        k, op, ringBase, WgmmaStoreOp::getMXExchangeBytes(acc.size()));
    // Float (warp x count + block) x 4 + q: a warp's blocks 16 bytes apart.
    auto warpBase = [&](Value warp) -> Value {
      return arith::AddIOp::create(
          b, area,
          arith::MulIOp::create(
              b,
              arith::AddIOp::create(
                  b, arith::MulIOp::create(b, warp, k.c32(4 * count)), ft.q),
              k.c32(4)));
    };
    auto slot = [&](Value base, int64_t block) -> Value {
      return LLVM::IntToPtrOp::create(
          b, k.sharedPtr,
          arith::AddIOp::create(b, base, k.c32(16 * block)).getResult());
    };
    auto exchange = [&](MutableArrayRef<Value> amax) {
      // Neither warpgroup writes into the ring while the other may still
      // read it.
      if (warpgroups > 1)
        NVVM::BarrierOp::create(
            b, Type(), k.c32(WgmmaSmemPlan::kLoopsOverBarrier),
            k.c32(128 * warpgroups), NVVM::BarrierReductionAttr(), Value());
      {
        auto ifOp = scf::IfOp::create(
            b,
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, ft.g, k.c32(0)),
            /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        Value mine = warpBase(ft.w);
        for (int64_t j = 0; j < count; ++j)
          LLVM::StoreOp::create(b, amax[j], slot(mine, j), 4);
      }
      warpgroupBarrier(k, warpgroup);
      Value partner = warpBase(arith::XOrIOp::create(b, ft.w, k.c32(1)));
      for (int64_t j = 0; j < count; ++j)
        amax[j] = maxF32(k, amax[j],
                         k.load(k.f32, slot(partner, j), 4,
                                /*invariant=*/false));
    };
    Value evenWarp = arith::CmpIOp::create(
        b, arith::CmpIPredicate::eq, arith::AndIOp::create(b, ft.w, k.c32(1)),
        k.c32(0));
    storeQuantizedBlocks(k, out, blocks, {4, 8, 16}, 4, /*hardware=*/false,
                         exchange, evenWarp);
  }

  /// wgmma.store `staged`: the warpgroup's fragments into its tile in the
  /// ring (row i of C's tile at i x stride, stride = 64 x bytes + 16: the
  /// four rows 2q + e a warp's store touches fall 8 banks apart), its named
  /// barrier, then each thread 16 bytes of a row, 8 (f16, bf16) or 16 (f32)
  /// threads a row: every warp instruction writes whole 128-byte lines.
  static void storeStaged(KernelBuilder &k, WgmmaStoreOp op, Value ringBase,
                          ArrayRef<Value> acc, const AccumulatorStore &out,
                          const FragmentThread &ft) {
    ImplicitLocOpBuilder &b = k.b;
    const int64_t tileM = 2 * static_cast<int64_t>(acc.size());
    const int64_t bytes = out.bytes;
    const int64_t stride = 64 * bytes + 16;
    Value tid = k.threadIdX();
    auto [warpgroup, tile] = warpgroupArea(
        k, op, ringBase, WgmmaStoreOp::getStagedTileBytes(acc.size(), bytes));
    auto sharedAt = [&](Value a) {
      return LLVM::IntToPtrOp::create(b, k.sharedPtr, a);
    };
    // Accumulator i is C[8 (i / 4) + 2q + i % 2][16w + g + 8 ((i / 2) % 2)]
    // of the warpgroup's tile (storeAccumulators).
    Value column0 = arith::AddIOp::create(
        b, arith::MulIOp::create(b, ft.w, k.c32(16)), ft.g);
    Value row0 = arith::MulIOp::create(b, ft.q, k.c32(2));
    for (auto [i, value] : llvm::enumerate(acc)) {
      int64_t idx = static_cast<int64_t>(i);
      Value row =
          arith::AddIOp::create(b, row0, k.c32(8 * (idx >> 2) + (idx & 1)));
      Value column =
          arith::AddIOp::create(b, column0, k.c32(8 * ((idx >> 1) & 1)));
      Value at = arith::AddIOp::create(
          b, tile,
          arith::AddIOp::create(
              b, arith::MulIOp::create(b, row, k.c32(stride)),
              arith::MulIOp::create(b, column, k.c32(bytes))));
      Value converted = out.type.isF32()
                            ? value
                            : arith::TruncFOp::create(b, out.type, value);
      LLVM::StoreOp::create(b, converted, sharedAt(at), bytes);
    }
    warpgroupBarrier(k, warpgroup);
    const int64_t perRow = 64 * bytes / 16;
    const int64_t rowsPerPass = 128 / perRow;
    Value t = arith::AndIOp::create(b, tid, k.c32(127));
    Value piece = arith::RemUIOp::create(b, t, k.c32(perRow));
    Value firstRow = arith::DivUIOp::create(b, t, k.c32(perRow));
    Value rowBase64 = arith::AddIOp::create(
        b, arith::MulIOp::create(b, out.batch64, k.c64(out.m)),
        arith::ExtUIOp::create(b, k.i64, op.getM()));
    Value column64 = arith::ExtUIOp::create(
        b, k.i64,
        arith::AddIOp::create(
            b, arith::MulIOp::create(b, op.getRow(), k.c32(bytes)),
            arith::MulIOp::create(b, piece, k.c32(16))));
    // A tile of fewer rows than a whole number of passes (8 mod 16 rows in
    // f16 or bf16): its last pass stores only the rows that exist. A tile
    // that reaches past M, or ends at a run-time row (`to`, clamped to M),
    // stores the rows before that: one compare a 16-byte store.
    Value rowsLeft;
    if (out.maskM || out.mEnd) {
      Value end = out.mEnd ? arith::MinUIOp::create(b, out.mEnd, k.c32(out.m))
                           : k.c32(out.m);
      rowsLeft = arith::SubIOp::create(
          b, arith::MaxUIOp::create(b, end, op.getM()), op.getM());
    }
    const int64_t passes = llvm::divideCeil(tileM, rowsPerPass);
    for (int64_t p = 0; p < passes; ++p) {
      Value row = arith::AddIOp::create(b, firstRow, k.c32(p * rowsPerPass));
      std::optional<OpBuilder::InsertionGuard> partial;
      Value exists;
      if ((p + 1) * rowsPerPass > tileM)
        exists = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row,
                                       k.c32(tileM));
      if (rowsLeft) {
        Value before =
            arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row, rowsLeft);
        exists = exists ? arith::AndIOp::create(b, exists, before) : before;
      }
      if (exists) {
        partial.emplace(b);
        auto ifOp = scf::IfOp::create(b, exists, /*withElseRegion=*/false);
        b.setInsertionPointToStart(ifOp.thenBlock());
      }
      Value vec =
          k.load(k.v4i32,
                 sharedAt(arith::AddIOp::create(
                     b, tile,
                     arith::AddIOp::create(
                         b, arith::MulIOp::create(b, row, k.c32(stride)),
                         arith::MulIOp::create(b, piece, k.c32(16))))),
                 16, /*invariant=*/false);
      Value global = arith::AddIOp::create(
          b,
          arith::MulIOp::create(
              b,
              arith::AddIOp::create(b, rowBase64,
                                    arith::ExtUIOp::create(b, k.i64, row)),
              k.c64(out.n * bytes)),
          column64);
      LLVM::StoreOp::create(b, vec, k.offset(out.base, global), 16);
    }
  }
};

} // namespace

void mlir::nvfp4::populateWgmmaPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<WgmmaLoadBLowering, WgmmaReadBLowering, WgmmaDecodeBLowering,
               WgmmaMmaLowering, WgmmaReduceKGroupsLowering,
               WgmmaSwapHalvesLowering, WgmmaStoreLowering>(
      converter, patterns.getContext());
}
