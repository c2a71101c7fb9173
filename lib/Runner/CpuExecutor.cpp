//===- CpuExecutor.cpp - run an entry function on the CPU reference --------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/CpuExecutor.h"
#include "nvfp4/Runner/GroupedInputs.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Reference/Layout.h"
#include "nvfp4/Reference/Ops.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>


using namespace mlir;
using namespace mlir::nvfp4;

::nvfp4::ref::ScaleLayout mlir::nvfp4::toRef(ScaleLayout layout) {
  return layout == ScaleLayout::Plain ? ::nvfp4::ref::ScaleLayout::Plain
                                      : ::nvfp4::ref::ScaleLayout::Blocked;
}

::nvfp4::ref::MXRounding
mlir::nvfp4::toRef(std::optional<ScaleRounding> rounding) {
  return rounding.value_or(ScaleRounding::Floor) == ScaleRounding::Rceil
             ? ::nvfp4::ref::MXRounding::Rceil
             : ::nvfp4::ref::MXRounding::Floor;
}

namespace {

::nvfp4::ref::ScaleFormat toRef(BlockFormat format) {
  return format.isMX() ? ::nvfp4::ref::ScaleFormat::MXFP4
                       : ::nvfp4::ref::ScaleFormat::NVFP4;
}

/// Resolves operands to the entry's buffers.
struct Operands {
  MutableArrayRef<HostBuffer> args;
  HostBuffer &operator()(Value v) const {
    return args[cast<BlockArgument>(v).getArgNumber()];
  }
};

/// One batch of a K-major fp4 operand with its scales.
::nvfp4::ref::ScaledMatrix matrixAt(const HostBuffer &data, const HostBuffer &scales,
                           ScaleLayout layout, int64_t batch) {
  OperandShape s = getOperandShape(data.type);
  int64_t dataStride = s.rows * s.k / 2;
  int64_t scaleStride = ::nvfp4::ref::scaleBytes(
      toRef(layout), s.rows, BlockFormat::of(scales.type).getScaleColumns(s.k));
  return ::nvfp4::ref::ScaledMatrix{data.bytes.data() + batch * dataStride,
                                    scales.bytes.data() + batch * scaleStride,
                                    s.rows,
                                    s.k,
                                    toRef(layout),
                                    toRef(BlockFormat::of(scales.type))};
}

/// Quantizes the L x R x K fp32 `values` as nvfp4.quantize does into the
/// packed values `q` and the scales `sf` (whose element type gives the
/// format) in `layout`: NVFP4 with the per-tensor scale `global`, MXFP4
/// with the scale `rounding`.
void quantizeBatches(ArrayRef<float> values, OperandShape x, HostBuffer &q,
                     HostBuffer &sf, ScaleLayout layout, float global,
                     std::optional<ScaleRounding> rounding) {
  const BlockFormat format = BlockFormat::of(sf.type);
  const ::nvfp4::ref::ScaleLayout refLayout = toRef(layout);
  const int64_t scaleStride =
      ::nvfp4::ref::scaleBytes(refLayout, x.rows, format.getScaleColumns(x.k));
  for (int64_t l = 0; l < x.batch; ++l) {
    const float *in = values.data() + l * x.rows * x.k;
    uint8_t *out = q.bytes.data() + l * x.rows * x.k / 2;
    uint8_t *scales = sf.bytes.data() + l * scaleStride;
    if (format.isMX())
      ::nvfp4::ref::quantizeMX(in, x.rows, x.k, refLayout, out, scales,
                               toRef(rounding));
    else
      ::nvfp4::ref::quantize(in, x.rows, x.k, refLayout, out, scales, global);
  }
}

/// Runs `perBatch(l, out)` for every batch of an L x M x N product of
/// `op` (a scaled_matmul or scaled_dual_matmul), then stores the fp32
/// results into its C: as floats, or where C's buffer is FP4 quantized
/// like nvfp4.quantize with the op's c_scales (NVFP4 or MXFP4),
/// c_global_scale, c_scales_layout and c_scale_rounding. (The buffer
/// decides: accumulationBounds runs the op on an f32 C.)
template <typename OpT, typename Fn>
LogicalResult runBatched(OpT op, const Operands &get, int64_t n,
                         Fn perBatch) {
  OperandShape a = getOperandShape(op.getA().getType());
  std::vector<float> out(static_cast<size_t>(a.batch * a.rows * n));
  for (int64_t l = 0; l < a.batch; ++l)
    perBatch(l, out.data() + l * a.rows * n);
  HostBuffer &c = get(op.getC());
  if (!isa<Float4E2M1FNType>(c.type.getElementType())) {
    c.fromFloats(out);
    return success();
  }
  const float global = op.getCGlobalScale()
                           ? get(op.getCGlobalScale()).toFloats().front()
                           : 1.0f;
  OperandShape cShape = a;
  cShape.k = n;
  quantizeBatches(out, cShape, c, get(op.getCScales()), op.getCScalesLayout(),
                  global, op.getCScaleRounding());
  return success();
}

LogicalResult run(ScaledMatmulOp op, const Operands &get) {
  return runBatched(
      op, get, getOperandShape(op.getB().getType()).rows,
      [&](int64_t l, float *out) {
        ::nvfp4::ref::scaledMatmul(
            matrixAt(get(op.getA()), get(op.getSfa()), op.getSfaLayout(), l),
            matrixAt(get(op.getB()), get(op.getSfb()), op.getSfbLayout(), l),
            out);
      });
}

LogicalResult run(ScaledDualMatmulOp op, const Operands &get) {
  return runBatched(
      op, get, getOperandShape(op.getB1().getType()).rows,
      [&](int64_t l, float *out) {
        ::nvfp4::ref::scaledDualMatmul(
            matrixAt(get(op.getA()), get(op.getSfa()), op.getSfaLayout(), l),
            matrixAt(get(op.getB1()), get(op.getSfb1()), op.getSfbLayout(),
                     l),
            matrixAt(get(op.getB2()), get(op.getSfb2()), op.getSfbLayout(),
                     l),
            out);
      });
}

LogicalResult run(GroupedMatmulOp op, const Operands &get) {
  MemRefType bType = op.getB().getType();
  const int64_t n = bType.getDimSize(1), k = bType.getDimSize(2);
  const int64_t rows = op.getA().getType().getDimSize(0);
  std::vector<int32_t> o = readOffsets(get(op.getOffsets()));
  auto groups = ::nvfp4::ref::groupRows(o.data(), op.getGroups(), rows);
  // The groups' rows are contiguous from the first group's first row;
  // C's other rows keep what they held.
  std::vector<int64_t> sizes;
  for (auto [begin, end] : groups)
    sizes.push_back(end - begin);
  const int64_t first = groups.front().first;
  HostBuffer &cBuffer = get(op.getC());
  std::vector<float> c = cBuffer.toFloats();
  const BlockFormat format = BlockFormat::of(op.getSfa().getType());
  const int64_t kb = format.getScaleColumns(k);
  ::nvfp4::ref::groupedScaledMatmul(
      sizes, n, k, get(op.getA()).bytes.data() + first * (k / 2),
      get(op.getSfa()).bytes.data() + first * kb, get(op.getB()).bytes.data(),
      get(op.getSfb()).bytes.data(), ::nvfp4::ref::ScaleLayout::Plain,
      toRef(op.getSfbLayout()), c.data() + first * n, toRef(format));
  cBuffer.fromFloats(c);
  return success();
}

LogicalResult run(GroupedProblemsOp op, const Operands &get) {
  for (int64_t g = 0; g < op.getProblems(); ++g) {
    Value b = op.getB()[g];
    HostBuffer &c = get(op.getC()[g]);
    const OperandShape a = getOperandShape(cast<MemRefType>(
        op.getA()[g].getType()));
    std::vector<float> out(static_cast<size_t>(
        a.rows * getOperandShape(cast<MemRefType>(b.getType())).rows));
    ::nvfp4::ref::scaledMatmul(
        matrixAt(get(op.getA()[g]), get(op.getSfa()[g]), op.getSfaLayout(), 0),
        matrixAt(get(b), get(op.getSfb()[g]), op.getSfbLayout(), 0),
        out.data());
    c.fromFloats(out);
  }
  return success();
}

LogicalResult run(QuantizeOp op, const Operands &get) {
  OperandShape x = getOperandShape(op.getX().getType());
  std::vector<float> values = get(op.getX()).toFloats();
  float global =
      op.getGlobalScale() ? get(op.getGlobalScale()).toFloats().front() : 1.0f;
  // A scale computed from the input: the largest finite |x| / (448 x 6).
  if (Value returned = op.getReturnedGlobalScale()) {
    float amax = 0.0f;
    for (float v : values)
      if (std::isfinite(v))
        amax = std::max(amax, std::fabs(v));
    global = amax / (448.0f * 6.0f);
    get(returned).fromFloats({global});
  }
  quantizeBatches(values, x, get(op.getQ()), get(op.getSf()), op.getSfLayout(),
                  global, op.getScaleRounding());
  return success();
}

LogicalResult run(BlockScalesOp op, const Operands &get) {
  BlockScalesShape shape =
      getBlockScalesShape(op.getSrc().getType(), op.getDst().getType());
  const bool plain = shape.plain;
  // A blocked source's padding rows are copied as they are.
  const int64_t rows = shape.rows, batch = shape.batch;
  const int64_t kb = shape.srcChunks * 4, kbOut = shape.chunks * 4;
  const HostBuffer &in = get(op.getSrc());
  HostBuffer &out = get(op.getDst());
  const int64_t inStride = plain ? rows * kb
                                 : ::nvfp4::ref::blockedScaleBytes(rows, kb);
  const int64_t outStride = ::nvfp4::ref::blockedScaleBytes(rows, kbOut);
  for (int64_t l = 0; l < batch; ++l)
    ::nvfp4::ref::toBlockedPadded(
        in.bytes.data() + l * inStride,
        plain ? ::nvfp4::ref::ScaleLayout::Plain
              : ::nvfp4::ref::ScaleLayout::Blocked,
        rows, kb, kbOut, out.bytes.data() + l * outStride);
  return success();
}

} // namespace

FailureOr<EntrySignature> mlir::nvfp4::analyzeEntry(func::FuncOp entry) {
  if (entry.isExternal())
    return entry.emitError() << "entry function @" << entry.getSymName()
                             << " has no body to run";
  if (entry.getNumResults() != 0)
    return entry.emitError()
           << "entry function @" << entry.getSymName()
           << " must return nothing (outputs are memref arguments)";
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape())
      return entry.emitError()
             << "entry argument #" << i << " has type " << type
             << "; nvfp4-run needs statically shaped memrefs";
    // Host buffers exist for the element types of nvfp4's operands only
    // (an argument no op uses would otherwise get a buffer of the wrong
    // size).
    Type e = memref.getElementType();
    if (!isa<Float4E2M1FNType, Float8E4M3FNType, Float8E8M0FNUType>(e) &&
        !e.isF16() && !e.isBF16() && !e.isF32() && !e.isInteger(32))
      return entry.emitError()
             << "entry argument #" << i << " has element type " << e
             << "; nvfp4-run handles f4E2M1FN, f8E4M3FN, f8E8M0FNU, f16, "
                "bf16, f32 and i32 (a grouped GEMM's offsets)";
  }
  EntrySignature sig;
  llvm::SmallDenseSet<unsigned> written;
  // Per argument, the op that wrote it (for the op-by-op check of an
  // entry of several ops: nothing written twice or after it was read).
  llvm::SmallDenseMap<unsigned, Operation *> writer, lastReader;
  unsigned numKernels = 0;
  for (Operation &op : entry.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      continue;
    if (!isa<NVFP4Dialect>(op.getDialect()))
      return op.emitError()
             << "nvfp4-run executes entry functions made of nvfp4 ops on the "
                "entry's arguments; '"
             << op.getName() << "' is not supported here";
    ++numKernels;
    for (Value v : op.getOperands()) {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner()->getParentOp() != entry)
        return op.emitError() << "operands of nvfp4 ops run by nvfp4-run "
                                 "must be arguments of the entry function";
    }
    auto effects = cast<MemoryEffectOpInterface>(op);
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    // (The op's own reads count: an output that is also its input races
    // on the GPU.)
    for (auto &inst : instances)
      if (auto arg = dyn_cast_or_null<BlockArgument>(inst.getValue()))
        if (isa<MemoryEffects::Read>(inst.getEffect()))
          lastReader[arg.getArgNumber()] = &op;
    for (auto &inst : instances) {
      auto arg = dyn_cast_or_null<BlockArgument>(inst.getValue());
      if (!arg || !isa<MemoryEffects::Write>(inst.getEffect()))
        continue;
      const unsigned number = arg.getArgNumber();
      written.insert(number);
      Operation *earlier = writer.lookup(number);
      if (!earlier)
        earlier = lastReader.lookup(number);
      if (earlier == &op)
        return op.emitError()
               << "writes entry argument #" << number
               << ", which it also reads; nvfp4-run needs an op's outputs "
                  "apart from its inputs";
      if (earlier)
        return op.emitError()
               << "writes entry argument #" << number
               << ", which an earlier '" << earlier->getName()
               << "' already uses; nvfp4-run checks an entry of "
                  "several ops op by op, on the inputs the GPU gave each, so "
                  "each argument may be written once, before any op reads it";
      writer[number] = &op;
    }
  }
  if (numKernels == 0)
    return entry.emitError() << "entry function @" << entry.getSymName()
                             << " contains no nvfp4 op to run";
  for (unsigned i = 0; i < entry.getNumArguments(); ++i)
    (written.contains(i) ? sig.outputs : sig.inputs).push_back(i);
  return sig;
}

LogicalResult mlir::nvfp4::executeOpOnCpu(Operation *op,
                                          MutableArrayRef<HostBuffer> args) {
  Operands get{args};
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<ScaledMatmulOp, ScaledDualMatmulOp, GroupedMatmulOp,
            GroupedProblemsOp, QuantizeOp, BlockScalesOp>(
          [&](auto concrete) { return run(concrete, get); })
      .Case<func::ReturnOp>([](auto) { return success(); })
      .Default([](Operation *other) {
        return other->emitError() << "the CPU reference cannot execute '"
                                  << other->getName() << "'";
      });
}

LogicalResult mlir::nvfp4::executeOnCpu(func::FuncOp entry,
                                        MutableArrayRef<HostBuffer> args) {
  for (Operation &op : entry.getBody().front())
    if (failed(executeOpOnCpu(&op, args)))
      return failure();
  return success();
}

SmallVector<Operation *> mlir::nvfp4::getEntryOps(func::FuncOp entry) {
  SmallVector<Operation *> ops;
  for (Operation &op : entry.getBody().front())
    if (!isa<func::ReturnOp>(op))
      ops.push_back(&op);
  return ops;
}

/// The gated dual GEMM's bound: with e_i = factor x P_i the bound on each
/// product x_i's accumulation-order difference (P_i = |A| |B_i|, from
/// `absArgs`), silu(x1) x2 moves by at most |silu'(x1)| |x2| e1 +
/// |silu(x1)| e2 <= 1.1 P2 e1 + P1 e2 = 2.1 factor P1 P2 (|silu'| < 1.1,
/// |silu(x)| <= |x|).
static FailureOr<SmallVector<std::vector<float>>>
dualBounds(ScaledDualMatmulOp op, MutableArrayRef<HostBuffer> absArgs,
           ArrayRef<unsigned> outputs, double factor) {
  Operands get{absArgs};
  OperandShape a = getOperandShape(op.getA().getType());
  const int64_t n = getOperandShape(op.getB1().getType()).rows;
  const size_t size = static_cast<size_t>(a.batch * a.rows * n);
  std::vector<float> p1(size), p2(size);
  for (int64_t l = 0; l < a.batch; ++l) {
    auto aAt = matrixAt(get(op.getA()), get(op.getSfa()), op.getSfaLayout(), l);
    ::nvfp4::ref::scaledMatmul(
        aAt, matrixAt(get(op.getB1()), get(op.getSfb1()), op.getSfbLayout(), l),
        p1.data() + l * a.rows * n);
    ::nvfp4::ref::scaledMatmul(
        aAt, matrixAt(get(op.getB2()), get(op.getSfb2()), op.getSfbLayout(), l),
        p2.data() + l * a.rows * n);
  }
  SmallVector<std::vector<float>> bounds(outputs.size());
  auto c = cast<BlockArgument>(op.getC());
  for (auto [i, argIndex] : llvm::enumerate(outputs)) {
    if (argIndex != c.getArgNumber())
      continue;
    bounds[i].resize(size);
    for (size_t e = 0; e < size; ++e)
      bounds[i][e] = static_cast<float>(2.1 * factor * p1[e] * p2[e]);
  }
  return bounds;
}

FailureOr<SmallVector<std::vector<float>>>
mlir::nvfp4::accumulationBounds(func::FuncOp entry, ArrayRef<HostBuffer> args,
                                const EntrySignature &signature) {
  SmallVector<Operation *> ops = getEntryOps(entry);
  if (ops.size() != 1)
    return SmallVector<std::vector<float>>(signature.outputs.size());
  return accumulationBounds(ops.front(), args, signature.outputs);
}

FailureOr<SmallVector<std::vector<float>>>
mlir::nvfp4::accumulationBounds(Operation *op, ArrayRef<HostBuffer> args,
                                ArrayRef<unsigned> outputs) {
  SmallVector<std::vector<float>> bounds(outputs.size());
  if (!isa<ScaledMatmulOp, ScaledDualMatmulOp, GroupedMatmulOp,
           GroupedProblemsOp>(op))
    return bounds;
  // Each problem's K (one for the other ops).
  auto problems = dyn_cast<GroupedProblemsOp>(op);
  auto kOf = [&](int64_t g) {
    return getOperandShape(cast<MemRefType>(
                               (problems ? problems.getA()[g]
                                         : op->getOperand(0))
                                   .getType()))
        .k;
  };
  const int64_t k = kOf(0);
  // |A| and |B|: clear the sign bits of every e2m1 nibble and e4m3 scale
  // (e8m0 scales have none); outputs in f32, which NVFP4's magnitudes
  // cannot overflow. MXFP4's can: where |A||B| overflows the bound is
  // infinite, so those outputs are compared only where non-finite (the
  // GPU tests of the whole e8m0 range therefore also run scale ranges
  // whose |A||B| stays finite). An NVFP4 C's bound is that of its fp32
  // values (the op runs with an f32 C).
  SmallVector<HostBuffer> absArgs;
  for (const HostBuffer &buffer : args) {
    Type e = buffer.type.getElementType();
    if (llvm::is_contained(outputs, absArgs.size())) {
      absArgs.emplace_back(MemRefType::get(buffer.type.getShape(),
                                           Float32Type::get(e.getContext())));
      continue;
    }
    absArgs.push_back(buffer);
    // A grouped GEMM's offsets stay as they are.
    if (!isa<Float4E2M1FNType, Float8E4M3FNType>(e))
      continue;
    uint8_t mask = isa<Float4E2M1FNType>(e) ? 0x77 : 0x7F;
    for (uint8_t &byte : absArgs.back().bytes)
      byte &= mask;
  }
  auto factorOf = [](int64_t kValues) {
    return 2.0 * static_cast<double>(kValues / 16) * 0x1p-24;
  };
  const double factor = factorOf(k);
  if (auto dual = dyn_cast<ScaledDualMatmulOp>(op))
    return dualBounds(dual, absArgs, outputs, factor);
  if (failed(executeOpOnCpu(op, absArgs)))
    return failure();
  // Each C with the factor of its product's K.
  SmallVector<std::pair<Value, double>> cs;
  if (problems)
    for (int64_t g = 0; g < problems.getProblems(); ++g)
      cs.push_back({problems.getC()[g], factorOf(kOf(g))});
  else
    cs.push_back({isa<ScaledMatmulOp>(op) ? cast<ScaledMatmulOp>(op).getC()
                                          : cast<GroupedMatmulOp>(op).getC(),
                  factor});
  for (auto [cValue, cFactor] : cs) {
    auto c = cast<BlockArgument>(cValue);
    for (auto [i, argIndex] : llvm::enumerate(outputs)) {
      if (argIndex != c.getArgNumber())
        continue;
      bounds[i] = absArgs[argIndex].toFloats();
      for (float &v : bounds[i])
        v = static_cast<float>(cFactor * v);
    }
  }
  return bounds;
}
