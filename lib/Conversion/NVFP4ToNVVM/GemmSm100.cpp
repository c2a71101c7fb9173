//===- GemmSm100.cpp - the sm_100a GEMM's tcgen05 ops -----------------------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Lowers the sm_100a consumer ops nvfp4-software-pipeline writes for a
// #nvfp4.tcgen05_mainloop (nvfp4.tmem.*, nvfp4.tcgen05.*) to upstream NVVM
// ops:
//
// - a !nvfp4.tmem is the i32 TMEM address of its first column; its control
//   block, a static shared buffer of the kernel (`<kernel>_tmem`: an 8-byte
//   mbarrier completed when the MMAs are done, then the 4-byte address
//   tcgen05.alloc writes), is found by name from every op of the kernel;
// - descriptors: the pass wrote each MMA's shared-memory descriptors with
//   the operand's offset in the slot in their start-address field, built
//   by include/nvfp4/Target/Tcgen05Descriptors.h (which the host model
//   decodes); the lowering adds the slot's address >> 4 to that field
//   (slots and offsets keep the sum below 2^18, so it cannot carry out);
// - the epilogue: warp w reads its lane quadrant of the accumulator with
//   tcgen05.ld.32x32b.x32 (32 columns = 32 rows of A per load), then
//   converts and stores each column to C.
//
// Every NVVM tcgen05 op is created by the helpers in `Tcgen05Ops` below and
// nowhere else: upstream renames their attributes after LLVM 22
// (#nvvm.block_scale_kind becomes #nvvm.tcgen05_mma_kind), and this is the
// one place to follow.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "KernelBuilder.h"
#include "Lowerings.h"
#include "SplitExchange.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Target/Tcgen05Descriptors.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// Suspend-time hint of the accumulator wait, in ns (as the ring's).
constexpr int64_t kWaitHintNs = 10000000;
/// NVVM's tensor-memory address space.
constexpr unsigned kTensorSpace = 6;
/// Columns one tcgen05.ld.32x32b.x32 reads per thread.
constexpr int64_t kLoadColumns = 32;
/// Columns the split exchange moves per tcgen05.ld (x16): with x32 the
/// first CTA's sums and the other splits' 16-byte loads of them exceed
/// ptxas's 64 registers for tile_m 128 and spill.
constexpr int64_t kExchangeColumns = 16;

/// The NVVM tcgen05 ops the lowering uses, each built in one place, for
/// one CTA (`group` 1) or a CTA pair (2: every tcgen05 instruction of the
/// kernel is then cta_group::2, and commits arrive on both CTAs' barriers).
struct Tcgen05Ops {
  KernelBuilder &k;
  int64_t group = 1;

  MLIRContext *ctx() { return k.b.getContext(); }
  NVVM::CTAGroupKindAttr ctaGroup() {
    return NVVM::CTAGroupKindAttr::get(ctx(), group == 2
                                                  ? NVVM::CTAGroupKind::CTA_2
                                                  : NVVM::CTAGroupKind::CTA_1);
  }
  /// An i32 TMEM address as the !llvm.ptr<6> the ops take.
  Value tmemPointer(Value address) {
    return LLVM::IntToPtrOp::create(
        k.b, LLVM::LLVMPointerType::get(ctx(), kTensorSpace), address);
  }
  void alloc(Value addressSlot, int64_t columns) {
    NVVM::Tcgen05AllocOp::create(k.b, addressSlot, k.c32(columns), ctaGroup());
    NVVM::Tcgen05RelinquishAllocPermitOp::create(k.b, ctaGroup());
  }
  void dealloc(Value address, int64_t columns) {
    NVVM::Tcgen05DeallocOp::create(k.b, tmemPointer(address), k.c32(columns),
                                   ctaGroup());
  }
  void fence(NVVM::Tcgen05FenceKind kind) {
    NVVM::Tcgen05FenceOp::create(k.b, kind);
  }
  /// tcgen05.cp.cta_group::1.32x128b.warpx4; with cta_group::2 each CTA
  /// of the pair copies from its own shared memory at the descriptor's
  /// address to its own TMEM.
  void copyScales(Value address, Value descriptor) {
    NVVM::Tcgen05CpOp::create(k.b,
                              NVVM::Tcgen05CpShapeAttr::get(
                                  ctx(), NVVM::Tcgen05CpShape::SHAPE_32x128b),
                              ctaGroup(),
                              NVVM::Tcgen05CpMulticastAttr::get(
                                  ctx(), NVVM::Tcgen05CpMulticast::WARPX4),
                              /*srcFormat=*/NVVM::Tcgen05CpSrcFormatAttr(),
                              tmemPointer(address), descriptor);
  }
  /// tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16, or
  /// .block32 (MXFP4: ue8m0 scales, two a row per instruction); a pair's
  /// (cta_group::2, M = 256) reads A, B's half and the scales of each CTA
  /// from that CTA and accumulates into each CTA's TMEM.
  void mmaMxf4Nvf4(Value d, Value aDesc, Value bDesc, Value idesc,
                   Value accumulate, Value scaleA, Value scaleB,
                   bool block32) {
    NVVM::Tcgen05MMABlockScaleOp::create(
        k.b,
        NVVM::MMABlockScaleKindAttr::get(ctx(),
                                         NVVM::MMABlockScaleKind::MXF4NVF4),
        ctaGroup(),
        NVVM::Tcgen05MMABlockScaleAttr::get(
            ctx(), block32 ? NVVM::Tcgen05MMABlockScale::BLOCK32
                           : NVVM::Tcgen05MMABlockScale::BLOCK16),
        /*collectorOp=*/NVVM::Tcgen05MMACollectorOpAttr(), tmemPointer(d),
        aDesc, bDesc, idesc, accumulate, tmemPointer(scaleA),
        tmemPointer(scaleB));
  }
  /// tcgen05.commit: `barrier` gets one arrival once the thread's earlier
  /// tcgen05 operations completed; a pair's, the barrier at the same
  /// address in both CTAs (.multicast::cluster, ranks 0 and 1: the cluster
  /// is the pair).
  void commit(Value barrier) {
    Value mask;
    if (group == 2)
      mask = arith::ConstantIntOp::create(k.b, k.i16, 0b11);
    NVVM::Tcgen05CommitOp::create(k.b, barrier, mask, ctaGroup());
  }
  /// Both CTAs of a pair meet (barrier.cluster arrive with release, wait
  /// with acquire: every thread of each CTA).
  void pairSync() {
    NVVM::ClusterArriveOp::create(k.b, UnitAttr());
    NVVM::ClusterWaitOp::create(k.b, UnitAttr());
  }
  /// tcgen05.ld.sync.aligned.32x32b.x<n> and its wait: n columns of the
  /// warp's lanes.
  Value load32x32b(Value address, int64_t columns) {
    Value loaded = NVVM::Tcgen05LdOp::create(
        k.b, VectorType::get({columns}, k.i32), /*pack=*/UnitAttr(),
        NVVM::Tcgen05LdStShapeAttr::get(ctx(),
                                        NVVM::Tcgen05LdStShape::SHAPE_32X32B),
        tmemPointer(address), /*offset=*/Value());
    NVVM::Tcgen05WaitOp::create(
        k.b, NVVM::Tcgen05WaitKindAttr::get(ctx(), NVVM::Tcgen05WaitKind::LOAD));
    return loaded;
  }
  /// tcgen05.st.sync.aligned.32x32b.x<n> of `values` (vector<n x i32>) and
  /// its wait: n columns of the warp's lanes.
  void store32x32b(Value address, Value values) {
    NVVM::Tcgen05StOp::create(k.b, /*unpack=*/UnitAttr(),
                              NVVM::Tcgen05LdStShapeAttr::get(
                                  ctx(), NVVM::Tcgen05LdStShape::SHAPE_32X32B),
                              tmemPointer(address), values, /*offset=*/Value());
    NVVM::Tcgen05WaitOp::create(k.b, NVVM::Tcgen05WaitKindAttr::get(
                                         ctx(), NVVM::Tcgen05WaitKind::STORE));
  }
};

/// The kernel's TMEM control block: the accumulator's mbarrier (bytes 0-7)
/// and the allocated address (bytes 8-11).
struct TmemControl {
  Value barrier, addressSlot;
};

TmemControl tmemControl(KernelBuilder &k, RewriterBase &rewriter,
                        Operation *op) {
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  Value base =
      k.namedShared(rewriter, op, (kernel.getName() + "_tmem").str(), 16,
                    LLVM::Linkage::Internal);
  return {base, k.smemOffset(base, k.c32(8))};
}

/// An op of one kernel: the control block needs the enclosing gpu.func.
LogicalResult checkInKernel(Operation *op) {
  if (!op->getParentOfType<gpu::GPUFuncOp>() ||
      !op->getParentOfType<gpu::GPUModuleOp>())
    return op->emitOpError() << "must be inside a gpu.func of a gpu.module "
                                "(its TMEM control block is the kernel's)";
  return success();
}

Value warpIndex(KernelBuilder &k) {
  return arith::DivUIOp::create(k.b, k.threadIdX(), k.c32(32));
}

/// A TMEM address `column` columns (i32) after `base`.
Value column(KernelBuilder &k, Value base, Value column) {
  return arith::AddIOp::create(k.b, base, column);
}

/// The TMEM address of column `first` (after `tmem`) of the calling warp's
/// lanes: warp w reads and writes lanes 32w .. 32w + 31 (the lane in bits
/// 16 and up), so thread t's lane is t.
Value warpLanesColumn(KernelBuilder &k, Value tmem, int64_t first) {
  Value laneBase = arith::ShLIOp::create(
      k.b, arith::MulIOp::create(k.b, warpIndex(k), k.c32(32)), k.c32(16));
  return column(k, tmem, arith::AddIOp::create(k.b, laneBase, k.c32(first)));
}

/// `column + slot x step` (i32) for the per-slot scale columns.
Value slotColumn(KernelBuilder &k, Value slot, int64_t column, int64_t step) {
  return arith::AddIOp::create(
      k.b, k.c32(column), arith::MulIOp::create(k.b, slot, k.c32(step)));
}

struct TmemAllocLowering : OpConversionPattern<TmemAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TmemAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkInKernel(op)))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    const int64_t group = op.getType().getCtaGroup();
    Tcgen05Ops tc{k, group};
    TmemControl control = tmemControl(k, rewriter, op);
    Value tid = k.threadIdX();
    {
      // tcgen05.alloc is warp-wide (.sync.aligned): the whole of warp 0.
      auto ifOp = scf::IfOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, tid,
                                   k.c32(32)),
          /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      tc.alloc(control.addressSlot, op.getType().getColumns());
    }
    {
      auto ifOp = scf::IfOp::create(
          b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, tid, k.c32(0)),
          /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      NVVM::MBarrierInitOp::create(b, control.barrier, k.c32(1), Value());
      NVVM::FenceMbarrierInitOp::create(b);
    }
    // The allocation's address reaches every thread through shared memory.
    // A pair's CTAs meet instead: each one's mbarriers (the ring's, this
    // one's) are initialized before the other arrives on them.
    tc.fence(NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    if (group == 2)
      tc.pairSync();
    else
      gpu::BarrierOp::create(b);
    tc.fence(NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    rewriter.replaceOp(op, k.load(k.i32, control.addressSlot, 4,
                                  /*invariant=*/false));
    return success();
  }
};

struct TmemDeallocLowering : OpConversionPattern<TmemDeallocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TmemDeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    const int64_t group = op.getTmem().getType().getCtaGroup();
    Tcgen05Ops tc{k, group};
    // A pair frees its columns together, once both CTAs are done with
    // them.
    tc.fence(NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    if (group == 2)
      tc.pairSync();
    else
      gpu::BarrierOp::create(b);
    tc.fence(NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    auto ifOp = scf::IfOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, warpIndex(k),
                                 k.c32(0)),
        /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    tc.dealloc(adaptor.getTmem(), op.getTmem().getType().getColumns());
    rewriter.eraseOp(op);
    return success();
  }
};

/// A descriptor the pass wrote with an offset in the slot, moved to the
/// slot at shared address `slotAddress` (i32).
Value placeDescriptor(KernelBuilder &k, uint64_t bits, Value slotAddress) {
  Value start = arith::ShRUIOp::create(
      k.b, arith::ExtUIOp::create(k.b, k.i64, slotAddress), k.c64(4));
  return arith::AddIOp::create(k.b, k.c64(static_cast<int64_t>(bits)), start);
}

struct Tcgen05CopyScalesLowering : OpConversionPattern<Tcgen05CopyScalesOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Tcgen05CopyScalesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Tcgen05Ops tc{k, op.getTmem().getType().getCtaGroup()};
    // The atom's descriptor with its offset in the slot as start address
    // (the host model's tests build the same one).
    tcgen05::SmemDescriptor source =
        tcgen05::scaleAtomDescriptor(static_cast<uint32_t>(op.getOffset()));
    Value slotAddress = ringSlotAddress(k, op.getRing().getType(),
                                        adaptor.getRing(), adaptor.getSlot());
    tc.copyScales(
        column(k, adaptor.getTmem(),
               slotColumn(k, adaptor.getSlot(), op.getColumn(),
                          op.getColumnStep())),
        placeDescriptor(k, source.encode(), slotAddress));
    rewriter.eraseOp(op);
    return success();
  }
};

struct Tcgen05MmaLowering : OpConversionPattern<Tcgen05MmaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Tcgen05MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Tcgen05Ops tc{k, op.getTmem().getType().getCtaGroup()};
    Value tmem = adaptor.getTmem(), slot = adaptor.getSlot();
    Value slotAddress =
        ringSlotAddress(k, op.getRing().getType(), adaptor.getRing(), slot);
    Value sfb = column(
        k, tmem,
        arith::AddIOp::create(b,
                              slotColumn(k, slot, op.getSfbColumn(),
                                         op.getColumnStep()),
                              adaptor.getSfbShift()));
    tc.mmaMxf4Nvf4(
        column(k, tmem, k.c32(op.getDColumn())),
        placeDescriptor(k, static_cast<uint64_t>(op.getADesc()), slotAddress),
        placeDescriptor(k, static_cast<uint64_t>(op.getBDesc()), slotAddress),
        k.c32(static_cast<uint32_t>(op.getIdesc())), adaptor.getAccumulate(),
        column(k, tmem,
               slotColumn(k, slot, op.getSfaColumn(), op.getColumnStep())),
        sfb,
        tcgen05::Mxf4InstrDescriptor::decode(
            static_cast<uint32_t>(op.getIdesc()))
            ->isBlock32());
    rewriter.eraseOp(op);
    return success();
  }
};

struct Tcgen05ReleaseLowering : OpConversionPattern<Tcgen05ReleaseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Tcgen05ReleaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Tcgen05Ops{k, op.getRing().getType().getCtaGroup()}.commit(ringEmptyBarrier(
        k, op.getRing().getType(), adaptor.getRing(), adaptor.getSlot()));
    rewriter.eraseOp(op);
    return success();
  }
};

struct Tcgen05CommitLowering : OpConversionPattern<Tcgen05CommitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Tcgen05CommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkInKernel(op)))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Tcgen05Ops{k, op.getTmem().getType().getCtaGroup()}.commit(
        tmemControl(k, rewriter, op).barrier);
    rewriter.eraseOp(op);
    return success();
  }
};

struct Tcgen05WaitLowering : OpConversionPattern<Tcgen05WaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Tcgen05WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkInKernel(op)))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    NVVM::MBarrierTryWaitParityOp::create(
        b, tmemControl(k, rewriter, op).barrier, k.c32(0), k.c32(kWaitHintNs));
    Tcgen05Ops{k}.fence(NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The split exchange of an on-chip split-K (SplitExchange.h) on TMEM: thread
/// t's lane t, `columns` columns kExchangeColumns at a time; the first CTA adds
/// the others' columns in rank order and writes the sums back to TMEM.
struct Tcgen05ReduceSplitsLowering
    : OpConversionPattern<Tcgen05ReduceSplitsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Tcgen05ReduceSplitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Tcgen05Ops tc{k};
    const int64_t columns = op.getColumns();
    SplitExchange exchange(k, adaptor.getRing(), op.getRing().getType(),
                           op.getSplits(), Tcgen05MainloopAttr::kThreads,
                           columns);
    auto address = [&](int64_t first) {
      return warpLanesColumn(k, adaptor.getTmem(), first);
    };
    auto v4f32 = VectorType::get({4}, k.f32);
    // The .sync.aligned TMEM accesses need the whole warp.
    NVVM::SyncWarpOp::create(b, k.c32(-1));
    Value rank = exchange.begin();
    Value isFirst =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, rank, k.c32(0));
    auto ifOp = scf::IfOp::create(b, isFirst, /*withElseRegion=*/true);
    {
      // The first CTA: its columns plus the others', back into TMEM.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      exchange.waitPuts();
      for (int64_t first = 0; first < columns; first += kExchangeColumns) {
        const int64_t width = std::min(kExchangeColumns, columns - first);
        SmallVector<Value> sum;
        for (Value word : k.unpack(tc.load32x32b(address(first), width)))
          sum.push_back(arith::BitcastOp::create(b, k.f32, word));
        for (int64_t r = 1; r < static_cast<int64_t>(op.getSplits()); ++r)
          for (int64_t j = 0; j < width / 4; ++j) {
            Value part = exchange.get(r, (first / 4) + j);
            for (int64_t e = 0; e < 4; ++e)
              sum[4 * j + e] =
                  arith::AddFOp::create(b, sum[4 * j + e], k.extract(part, e));
          }
        SmallVector<Value> words;
        for (Value value : sum)
          words.push_back(arith::BitcastOp::create(b, k.i32, value));
        tc.store32x32b(address(first),
                       k.pack(VectorType::get({width}, k.i32), words));
      }
    }
    {
      // The others: their columns into the first CTA's ring.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.elseBlock());
      for (int64_t first = 0; first < columns; first += kExchangeColumns) {
        const int64_t width = std::min(kExchangeColumns, columns - first);
        SmallVector<Value> words =
            k.unpack(tc.load32x32b(address(first), width));
        for (int64_t j = 0; j < width / 4; ++j) {
          SmallVector<Value> part;
          for (int64_t e = 0; e < 4; ++e)
            part.push_back(
                arith::BitcastOp::create(b, k.f32, words[4 * j + e]));
          exchange.put(rank, (first / 4) + j, k.pack(v4f32, part));
        }
      }
      exchange.endPuts();
    }
    rewriter.replaceOp(op, isFirst);
    return success();
  }
};

/// The epilogue region's ops on one element of each accumulator (cloned;
/// its math ops are legalized with them).
Value applyEpilogue(ImplicitLocOpBuilder &b, Block &epilogue,
                    ValueRange elements) {
  IRMapping map;
  map.map(epilogue.getArguments(), elements);
  for (Operation &op : epilogue.without_terminator())
    b.clone(op, map);
  return map.lookup(cast<YieldOp>(epilogue.getTerminator()).getValue());
}

struct Tcgen05StoreLowering : OpConversionPattern<Tcgen05StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Tcgen05StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    KernelBuilder k(b);
    Tcgen05Ops tc{k};
    AccumulatorStore out = accumulatorStore(
        k, op.getC(), op.getPartials(), op.getBatch(), op.getSplit(),
        adaptor.getCScales(), adaptor.getCGlobalScale(), op.getCScalesLayout(),
        op.getCScaleRoundingAttr());
    const int64_t columns = op.getColumns();
    out.maskM = out.m % columns != 0;
    out.maskN = out.n % 128 != 0;
    // A grouped GEMM's tile ends with its group.
    out.mEnd = adaptor.getMEnd();
    Value tid = k.threadIdX();
    Value nIdx = arith::AddIOp::create(b, adaptor.getRow(), tid);
    // The .sync.aligned loads need the whole warp converged: the elected
    // lane of the producer or MMA warp may arrive from its loop after its
    // siblings.
    NVVM::SyncWarpOp::create(b, k.c32(-1));
    // Accumulator w from column w x columns; with an epilogue, C's element
    // is the region applied to the accumulators' elements.
    const int64_t accumulators = op.getAccumulators();
    Block *epilogue =
        op.getEpilogue().empty() ? nullptr : &op.getEpilogue().front();
    for (int64_t first = 0; first < columns; first += kLoadColumns) {
      int64_t width = std::min(kLoadColumns, columns - first);
      SmallVector<Value> loaded;
      for (int64_t w = 0; w < accumulators; ++w)
        loaded.push_back(tc.load32x32b(
            warpLanesColumn(k, adaptor.getTmem(), w * columns + first),
            width));
      SmallVector<QuantizedBlock> blocks;
      for (int64_t j = 0; j < width; ++j) {
        SmallVector<Value> elements;
        for (Value l : loaded)
          elements.push_back(
              arith::BitcastOp::create(b, k.f32, k.extract(l, j)));
        Value value = epilogue ? applyEpilogue(b, *epilogue, elements)
                               : elements.front();
        Value mIdx = arith::AddIOp::create(b, adaptor.getM(), k.c32(first + j));
        // An FP4 C: a row's 16-column block is 16 adjacent lanes (rows
        // of B; MXFP4's 32 the warp's), the next column's value in lane ^
        // 1; the loaded columns' blocks are quantized together.
        if (out.scales)
          blocks.push_back({{value}, {nIdx}, mIdx});
        else
          storeElement(k, out, value, mIdx, nIdx);
      }
      if (!blocks.empty())
        storeQuantizedBlocks(k, out, blocks,
                             out.format.isMX()
                                 ? ArrayRef<int64_t>{1, 2, 4, 8, 16}
                                 : ArrayRef<int64_t>{1, 2, 4, 8},
                             1, /*hardware=*/true);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateGemmSm100Patterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns
      .add<TmemAllocLowering, TmemDeallocLowering, Tcgen05CopyScalesLowering,
           Tcgen05MmaLowering, Tcgen05ReleaseLowering, Tcgen05CommitLowering,
           Tcgen05WaitLowering, Tcgen05ReduceSplitsLowering,
           Tcgen05StoreLowering>(converter, patterns.getContext());
}

void mlir::nvfp4::addTmemTypeConversion(TypeConverter &converter) {
  converter.addConversion([](TmemType tmem) -> Type {
    return IntegerType::get(tmem.getContext(), 32);
  });
}
