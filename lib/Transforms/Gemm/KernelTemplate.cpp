//===- KernelTemplate.cpp - an sm_90a GEMM CTA from its plan's parts ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The kernel template of a gemm_tile with a #nvfp4.wgmma_mainloop ring:
// it checks the kernel around the tile against the plan, allocates the
// ring (nvfp4.ring.alloc: `stages` shared-memory slots with full and empty
// mbarriers) with its shared-memory plan, computes the thread roles once,
// and composes the parts: the producer warpgroup (if the plan has one,
// which hands its registers to the consumers with setmaxnreg) runs the
// mainloop's producer; the consumer warpgroups run the mainloop's K loop,
// then the reductions, then the epilogue. A new kernel (the dual GEMM's
// second weight, the grouped GEMM's scheduler) changes a part, not this
// order.
//
//===----------------------------------------------------------------------===//

#include "WgmmaCta.h"

#include "nvfp4/Dialect/NVFP4/ATileWorkspace.h"
#include "nvfp4/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::gemm;

WgmmaCta::WgmmaCta(GemmTileOp op, ImplicitLocOpBuilder &b)
    : FoldingBuilder(b), op(op), kernel(op.getPlan()),
      plan(op.getWgmmaMainloop()),
      format(BlockFormat::of(op.getWeightScales().getType())) {
  OperandShape a = getOperandShape(op.getA().getType());
  // A grouped GEMM's pre-pass gathers each group's rows into tiles of
  // their own: as many as the groups can need.
  mTiles = getATileCount(
      a.rows, op.getGroup() ? op.getWeight().getType().getDimSize(0) : 0,
      plan.getTileM());
  totalChunks = a.k / WgmmaMainloopAttr::kTileK;
  chunks = totalChunks / kernel.getSplitK();
  kGroups = plan.getKGroups();
  stages = plan.getStages();
  weights = plan.getWeights();
  mmaWeights = plan.getMmaWeights();
  storeWarpgroups = plan.getStoreWarpgroups();
  slotChunks = plan.getSlotChunks();
}

namespace {

/// The consumer warpgroups: the mainloop's K loop, the reductions and the
/// epilogue. `fillFirst`: thread 0 also fills every slot once (no
/// producer warpgroup).
LogicalResult consume(WgmmaCta &cta, WgmmaMainloop &mainloop, bool fillFirst) {
  SmallVector<Value> accs = mainloop.consume(fillFirst);
  // The operands hold their values times a power of two
  // (ATileWorkspace.h): the sums are restored exactly (an overflow there
  // is one of the true sum too).
  for (Value &acc : accs) {
    auto type = cast<VectorType>(acc.getType());
    acc = arith::MulFOp::create(
        cta.b, acc,
        arith::ConstantOp::create(
            cta.b, DenseElementsAttr::get(
                       type, cta.b.getF32FloatAttr(
                                 getWgmmaAccumulatorScale(cta.format)))));
  }
  // With split-K in mode global a third kernel adds the partials: it may
  // be scheduled now (it waits for this grid's completion before reading
  // them).
  if (cta.kernel.needsSumKernel())
    NVVM::GriddepcontrolOp::create(cta.b,
                                   NVVM::GridDepActionKind::launch_dependents);
  WgmmaEpilogue epilogue(cta);
  if (cta.plan.getSplitWeights())
    return swapHalvesAndStore(cta, accs.front(), epilogue);
  return reduceAndStore(cta, accs, epilogue);
}

} // namespace

LogicalResult mlir::nvfp4::buildWgmmaPipeline(GemmTileOp op,
                                              ImplicitLocOpBuilder &b) {
  WgmmaCta cta(op, b);
  KernelPlanAttr kernel = cta.kernel;
  WgmmaMainloopAttr plan = cta.plan;
  MLIRContext *ctx = b.getContext();
  auto c32 = [&](int64_t v) { return cta.c32(v); };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return cta.cmp(p, x, y);
  };
  const int64_t warpgroups = plan.getWarpgroups();
  // A slot's consumers: each warpgroup of its K group (every weight's with
  // split_weights), or with b_tma each of their warps.
  const int64_t releasers = plan.getBTma() ? 4 : 1;
  const int64_t slotWarpgroups =
      plan.getConsumerWarpgroups() / plan.getKGroups();
  auto ringType =
      RingType::get(ctx, cta.stages, plan.getSlotBytes(),
                    slotWarpgroups * releasers, kernel.getScratchBytes(),
                    /*ctaGroup=*/1);
  // The roles assume the CTA and cluster shapes nvfp4-tile launches the
  // plan with: a kernel that says otherwise would hang (no producer) or
  // exchange sums with CTAs that do not exist.
  if (auto func = op->getParentOfType<gpu::GPUFuncOp>()) {
    DenseI32ArrayAttr block = func.getKnownBlockSizeAttr();
    if (block && !isRowShape(block, plan.getThreadsPerCta()))
      return op.emitOpError()
             << "has a plan for CTAs of " << plan.getThreadsPerCta()
             << " threads, but its kernel's known_block_size says otherwise";
  }
  if (failed(checkClusterShape(op, kernel.getClusterShape())))
    return failure();
  // A slot's chunks are multiplied in one round: the CTA's share of K must
  // fill whole slots.
  if (cta.chunks % cta.slotChunks != 0)
    return op.emitOpError()
           << "has a plan of " << cta.slotChunks
           << " K chunks a ring slot, but its CTAs' share of K has "
           << cta.chunks << " chunks of 64";
  // nvfp4-tile launched the kernel with the plan's dynamic shared memory;
  // the ring must fit it exactly as planned.
  if (ringType.getSharedBytes() != kernel.getSharedBytes())
    return op.emitOpError()
           << "needs a ring of " << ringType.getSharedBytes()
           << " bytes of dynamic shared memory, but its plan launches the "
              "kernel with "
           << kernel.getSharedBytes();
  cta.ring = RingAllocOp::create(b, ringType);
  cta.smem.emplace(kernel, ringType);

  // Thread roles: warpgroup index = K group x warpgroups + warpgroup; each
  // warpgroup owns 64 rows of B from rowBase. With split_weights the
  // index is the weight's: both own the CTA's 64 rows, and each reads its
  // weight's in the slot as a one-weight CTA's warpgroup of that index
  // would.
  Value tid = arith::IndexCastUIOp::create(
      b, cta.i32, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  cta.tid = tid;
  Value wgIndex = arith::ShRUIOp::create(b, tid, c32(7));
  const bool splitWeights = plan.getSplitWeights();
  Value warpgroup = wgIndex;
  if (splitWeights) {
    cta.kGroup = c32(0);
    cta.weightWarpgroup = wgIndex;
  } else {
    warpgroup = b.createOrFold<arith::RemUIOp>(wgIndex, c32(warpgroups));
    cta.kGroup = b.createOrFold<arith::DivUIOp>(wgIndex, c32(warpgroups));
  }
  cta.mBase = arith::IndexCastUIOp::create(b, cta.i32, op.getMBase());
  cta.warpgroupRow = cta.mul(warpgroup, c32(64));
  cta.nBase32 = arith::IndexCastUIOp::create(b, cta.i32, op.getNBase());
  cta.rowBase =
      splitWeights ? cta.nBase32 : cta.add(cta.nBase32, cta.warpgroupRow);
  cta.batch = op.getBatch();
  cta.weightBatch = op.getGroup() ? op.getGroup() : op.getBatch();
  cta.batch32 = b.createOrFold<arith::IndexCastUIOp>(cta.i32, cta.weightBatch);
  if (op.getGroup()) {
    cta.cRowBegin = arith::IndexCastUIOp::create(b, cta.i32, op.getRowBegin());
    cta.cRowEnd = arith::IndexCastUIOp::create(b, cta.i32, op.getRowEnd());
  }
  cta.atomRow = b.createOrFold<arith::RemUIOp>(cta.nBase32, c32(128));
  if (kernel.getSplitK() > 1)
    cta.chunkBase =
        cta.mul(arith::IndexCastUIOp::create(b, cta.i32, op.getSplit()),
                c32(cta.chunks));
  // The releasing thread of each consumer: lane 0 of every warp with
  // b_tma (its lanes read the slot too), else thread 0 of each warpgroup.
  cta.isLeader =
      cmp(arith::CmpIPredicate::eq,
          arith::AndIOp::create(b, tid, c32(128 / releasers - 1)), c32(0));
  cta.isFirstOfGroup = cmp(arith::CmpIPredicate::eq, warpgroup, c32(0));

  WgmmaMainloop mainloop(cta);
  if (!plan.getProducer()) {
    return consume(cta, mainloop, /*fillFirst=*/true);
  }
  // The producer warpgroup (after the consumer warpgroups) gives its
  // registers to the consumers.
  auto roles = scf::IfOp::create(
      b, cmp(arith::CmpIPredicate::uge, tid, c32(plan.getConsumerThreads())),
      /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(roles.thenBlock());
  NVVM::SetMaxRegisterOp::create(
      b, b.getI32IntegerAttr(WgmmaMainloopAttr::kProducerRegisters),
      NVVM::SetMaxRegisterActionAttr::get(
          ctx, NVVM::SetMaxRegisterAction::decrease));
  Value isProducer =
      cmp(arith::CmpIPredicate::eq, tid, c32(plan.getConsumerThreads()));
  mainloop.produce(isProducer);
  b.setInsertionPointToStart(roles.elseBlock());
  NVVM::SetMaxRegisterOp::create(
      b, b.getI32IntegerAttr(plan.getConsumerRegisters()),
      NVVM::SetMaxRegisterActionAttr::get(
          ctx, NVVM::SetMaxRegisterAction::increase));
  return consume(cta, mainloop, /*fillFirst=*/false);
}
