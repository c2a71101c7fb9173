//===- Check.cpp - compare a kernel's outputs with the CPU reference -------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "nvfp4/Runner/Check.h"

#include "nvfp4/Reference/Compare.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"
#include "nvfp4/Reference/Formats.h"
#include "nvfp4/Reference/Layout.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nvfp4;

static bool isFloatOutput(Type e) { return e.isF16() || e.isBF16() || e.isF32(); }

std::string mlir::nvfp4::formatIndex(MemRefType type, int64_t flat) {
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(index, os);
  os << "]";
  return s;
}

void mlir::nvfp4::countNonFinite(const HostBuffer &output, OutputCheck &check) {
  if (!isFloatOutput(output.type.getElementType()))
    return;
  std::vector<float> values = output.toFloats();
  for (auto [i, v] : llvm::enumerate(values)) {
    if (std::isfinite(v))
      continue;
    if (check.nonFinite++ == 0) {
      check.firstNonFinite = static_cast<int64_t>(i);
      check.firstNonFiniteValue = v;
    }
  }
}

namespace {

/// The ordinal of an e2m1 code on the number line (-6 .. 6; both zeros 0).
int e2m1Ordinal(uint8_t code) {
  const int magnitude = code & 0x7;
  return (code & 0x8) ? -magnitude : magnitude;
}

/// The smallest and largest |x| over [lo, hi].
std::pair<double, double> magnitudeRange(double lo, double hi) {
  if (lo <= 0 && hi >= 0)
    return {0.0, std::max(-lo, hi)};
  return {std::min(std::fabs(lo), std::fabs(hi)),
          std::max(std::fabs(lo), std::fabs(hi))};
}

/// Checks an FP4 C (codes in `q`, scales in `sf`: e4m3 for NVFP4 with the
/// per-tensor scale `global`, e8m0 for MXFP4 rounded by `rounding`)
/// quantized from fp32 values that may differ from the reference's `ref`
/// by `tol` each (accumulation order, the GPU's approximate exp): a block's
/// scale code must be one that some block of values within the tolerance
/// gets, and each value's code one that some value within the tolerance
/// gets with that scale (nvfp4.quantize's formulas are monotone in amax and
/// x). A non-finite reference value constrains neither. Fills the checks
/// of C and of its scales.
void checkQuantized(ArrayRef<float> ref, ArrayRef<double> tol,
                    const HostBuffer &q, const HostBuffer &sf,
                    const HostBuffer *wantQ, const HostBuffer *wantSf,
                    BlockFormat format, ::nvfp4::ref::MXRounding rounding,
                    ::nvfp4::ref::ScaleLayout layout, float global,
                    int64_t batches, int64_t rows, int64_t n,
                    OutputCheck &qCheck, OutputCheck &sfCheck) {
  namespace nref = ::nvfp4::ref;
  const int64_t bs = format.blockSize;
  const int64_t kb = format.getScaleColumns(n);
  qCheck.isFloat = sfCheck.isFloat = false;
  qCheck.format = sfCheck.format = format.getName().str();
  qCheck.values = batches * rows * n;
  sfCheck.values = batches * rows * kb;
  const int64_t sfStride = nref::scaleBytes(layout, rows, kb);
  // A global scale that is not a positive finite number: the formulas'
  // corner cases (zero data, NaN scales), compared with the reference's
  // quantization bit for bit.
  if (!(global > 0) || !std::isfinite(global)) {
    for (auto [check, got, want] :
         {std::make_tuple(&qCheck, &q, wantQ), std::make_tuple(&sfCheck, &sf,
                                                               wantSf)})
      for (size_t i = 0; i < got->bytes.size(); ++i)
        if (got->bytes[i] != want->bytes[i] && check->mismatches++ == 0) {
          check->firstBad = static_cast<int64_t>(i);
          check->got = got->bytes[i];
          check->want = want->bytes[i];
        }
    return;
  }
  // The blocked layout's padding (rows past M, scale columns past N / bs
  // in the atoms) must be zero.
  if (layout == nref::ScaleLayout::Blocked) {
    std::vector<bool> used(sf.bytes.size());
    for (int64_t l = 0; l < batches; ++l)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < kb; ++j)
          used[l * sfStride + nref::scaleOffset(layout, r, j, rows, kb)] = true;
    for (size_t i = 0; i < used.size(); ++i)
      if (!used[i] && sf.bytes[i] != 0 && sfCheck.mismatches++ == 0) {
        sfCheck.firstBad = static_cast<int64_t>(i);
        sfCheck.got = sf.bytes[i];
        sfCheck.detail = llvm::formatv("padding byte {0} of the blocked "
                                       "scales is 0x{1:x-2}, not zero",
                                       i, static_cast<unsigned>(sf.bytes[i]));
      }
  }
  // Positive e4m3 and e8m0 codes order like their values.
  auto scaleCode = [&](double amax) -> uint8_t {
    if (format.isMX())
      return nref::encodeE8M0Scale(static_cast<float>(amax), rounding);
    if (amax == 0)
      return 0;
    return nref::encodeE4M3((static_cast<float>(amax) / 6.0f) / global);
  };
  auto scaleOf = [&](uint8_t code) -> float {
    return format.isMX() ? nref::decodeE8M0(code)
                         : nref::decodeE4M3(code) * global;
  };
  for (int64_t l = 0; l < batches; ++l)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < kb; ++j) {
        const int64_t first = (l * rows + r) * n + bs * j;
        double amaxLo = 0, amaxHi = 0;
        for (int64_t i = first; i < first + bs; ++i) {
          if (!std::isfinite(ref[i])) {
            amaxHi = INFINITY;
            continue;
          }
          auto [lo, hi] = magnitudeRange(ref[i] - tol[i], ref[i] + tol[i]);
          amaxLo = std::max(amaxLo, lo);
          amaxHi = std::max(amaxHi, hi);
        }
        const int64_t sfAt =
            l * sfStride + nref::scaleOffset(layout, r, j, rows, kb);
        const uint8_t code = sf.bytes[sfAt];
        const uint8_t codeLo = scaleCode(amaxLo), codeHi = scaleCode(amaxHi);
        if (code < codeLo || code > codeHi) {
          if (sfCheck.mismatches++ == 0) {
            sfCheck.firstBad = sfAt;
            sfCheck.got = code;
            sfCheck.want = codeLo;
            sfCheck.detail = llvm::formatv(
                "scale of row {0}, values {1}..{2} of batch {3} is 0x{4:x-2}, "
                "but values within the tolerance give 0x{5:x-2} to "
                "0x{6:x-2}",
                r, bs * j, bs * j + bs - 1, l, static_cast<unsigned>(code),
                static_cast<unsigned>(codeLo), static_cast<unsigned>(codeHi));
          }
          continue;
        }
        const float s = scaleOf(code);
        for (int64_t i = first; i < first + bs; ++i) {
          const uint8_t byte = q.bytes[i / 2];
          const uint8_t got = (i % 2) ? byte >> 4 : byte & 0xF;
          int lo, hi;
          if (s == 0) {
            lo = hi = 0;
          } else if (!std::isfinite(ref[i])) {
            continue;
          } else {
            lo = e2m1Ordinal(nref::encodeE2M1(
                static_cast<float>(ref[i] - tol[i]) / s));
            hi = e2m1Ordinal(nref::encodeE2M1(
                static_cast<float>(ref[i] + tol[i]) / s));
          }
          const int ordinal = e2m1Ordinal(got);
          if (ordinal >= lo && ordinal <= hi)
            continue;
          if (qCheck.mismatches++ == 0) {
            qCheck.firstBad = i / 2;
            qCheck.got = got;
            qCheck.want = static_cast<float>(lo);
            qCheck.detail = llvm::formatv(
                "value [{0}, {1}, {2}] has e2m1 code 0x{3:x-} ({4}), but the "
                "reference {5} +- {6} with the scale 0x{7:x-2} ({8}) gives "
                "{9} to {10}",
                l, r, i - (l * rows + r) * n, static_cast<unsigned>(got),
                nref::decodeE2M1(got), ref[i], tol[i],
                static_cast<unsigned>(code), s, lo * 1.0, hi * 1.0);
          }
        }
      }
}

/// The checks of `op`'s outputs among `outputs` (entry argument numbers):
/// `got` against `want` (the CPU reference of the op run on the inputs
/// `got` holds), with the op's accumulation bounds.
/// Whether `op`'s kernel forms each product of scaled values in fp32: the
/// tensor-core kernels (every GEMM but the GEMV, N = 1) with MXFP4
/// operands, whose products span more than fp32's range (NVFP4's cannot
/// overflow it; the GEMV scales each block's exact sum, as the reference
/// does).
static bool formsProductsInFp32(Operation *op) {
  // Every problem of a grouped_problems runs on the GEMM's tensor cores.
  if (auto problems = dyn_cast<GroupedProblemsOp>(op))
    return BlockFormat::of(problems.getSfa().front().getType()).isMX();
  if (!isa<ScaledMatmulOp, ScaledDualMatmulOp, GroupedMatmulOp>(op))
    return false;
  // Operand 0 is A, 1 its scales, 2 the (first) weight.
  if (!BlockFormat::of(op->getOperand(1).getType()).isMX())
    return false;
  auto weight = cast<MemRefType>(op->getOperand(2).getType());
  return !isa<ScaledMatmulOp>(op) || getOperandShape(weight).rows > 1;
}

LogicalResult checkOp(Operation *op, ArrayRef<HostBuffer> got,
                      ArrayRef<HostBuffer> want, ArrayRef<unsigned> outputs,
                      SmallVectorImpl<OutputCheck> &checks) {
  FailureOr<SmallVector<std::vector<float>>> bounds =
      accumulationBounds(op, want, outputs);
  if (failed(bounds))
    return failure();
  // An FP4 C and its scales: against the op's fp32 values (the op run
  // on the CPU with an f32 C).
  Value c, cScales, cGlobal;
  ScaleLayout cLayout = ScaleLayout::Plain;
  std::optional<ScaleRounding> cRounding;
  llvm::TypeSwitch<Operation *>(op)
      .Case<ScaledMatmulOp, ScaledDualMatmulOp>([&](auto matmul) {
        c = matmul.getC();
        cScales = matmul.getCScales();
        cGlobal = matmul.getCGlobalScale();
        cLayout = matmul.getCScalesLayout();
        cRounding = matmul.getCScaleRounding();
      });
  std::optional<std::pair<OutputCheck, OutputCheck>> quantized;
  if (cScales) {
    const unsigned cArg = cast<BlockArgument>(c).getArgNumber();
    const unsigned sfArg = cast<BlockArgument>(cScales).getArgNumber();
    SmallVector<HostBuffer> unquantized(want);
    auto cType = cast<MemRefType>(c.getType());
    unquantized[cArg] = HostBuffer(MemRefType::get(
        cType.getShape(), Float32Type::get(cType.getContext())));
    if (failed(executeOpOnCpu(op, unquantized)))
      return failure();
    std::vector<float> values = unquantized[cArg].toFloats();
    std::vector<double> tol(values.size());
    const std::vector<float> *bound = nullptr;
    for (auto [i, argIndex] : llvm::enumerate(outputs))
      if (argIndex == cArg && !(*bounds)[i].empty())
        bound = &(*bounds)[i];
    for (size_t i = 0; i < values.size(); ++i)
      tol[i] = 1e-3 + 1e-3 * std::fabs(values[i]) + (bound ? (*bound)[i] : 0);
    OperandShape shape = getOperandShape(cType);
    const float global =
        cGlobal ? want[cast<BlockArgument>(cGlobal).getArgNumber()]
                      .toFloats()
                      .front()
                : 1.0f;
    quantized.emplace();
    quantized->first.argIndex = cArg;
    quantized->second.argIndex = sfArg;
    checkQuantized(values, tol, got[cArg], got[sfArg], &want[cArg],
                   &want[sfArg], BlockFormat::of(cScales.getType()),
                   toRef(cRounding), toRef(cLayout), global, shape.batch,
                   shape.rows, shape.k, quantized->first, quantized->second);
  }
  for (auto [oi, o] : llvm::enumerate(outputs)) {
    if (quantized && o == quantized->first.argIndex) {
      checks.push_back(quantized->first);
      continue;
    }
    if (quantized && o == quantized->second.argIndex) {
      checks.push_back(quantized->second);
      continue;
    }
    OutputCheck check;
    check.argIndex = o;
    Type e = got[o].type.getElementType();
    check.isFloat = isFloatOutput(e);
    if (!check.isFloat) {
      // Packed fp4, e4m3 scales: bit for bit.
      const std::vector<uint8_t> &g = got[o].bytes, &w = want[o].bytes;
      check.values = static_cast<int64_t>(g.size());
      for (size_t i = 0; i < g.size(); ++i) {
        if (g[i] == w[i])
          continue;
        if (check.mismatches++ == 0) {
          check.firstBad = static_cast<int64_t>(i);
          check.got = g[i];
          check.want = w[i];
        }
      }
      checks.push_back(check);
      continue;
    }
    std::vector<float> g = got[o].toFloats(), w = want[o].toFloats();
    // The contest's rule, plus the fp32 accumulation-order bound (it only
    // matters when large partial sums cancel), plus one bf16 ulp (2^-7
    // relative, more than the rule's 1e-3).
    std::vector<float> extra = (*bounds)[oi];
    extra.resize(g.size(), 0.0f);
    if (e.isBF16())
      for (size_t i = 0; i < extra.size(); ++i)
        extra[i] += std::fabs(w[i]) * 0x1p-7f;
    // f16 and bf16 outputs overflow where round-to-nearest gives infinity:
    // 65520, and 2^128 (1 - 2^-9).
    const double overflowAt = e.isF16()    ? 65520.0
                              : e.isBF16() ? 0x1.ffp127
                                           : 0.0;
    ::nvfp4::ref::CompareResult cmp = ::nvfp4::ref::compareOutputs(
        g.data(), w.data(), static_cast<int64_t>(g.size()), 1e-3, 1e-3,
        extra.data(), overflowAt, formsProductsInFp32(op));
    check.values = static_cast<int64_t>(g.size());
    check.mismatches = cmp.mismatches;
    check.firstBad = cmp.firstBad;
    check.got = cmp.firstGot;
    check.want = cmp.firstWant;
    check.allowed = cmp.firstAllowed;
    check.maxAbsErr = cmp.maxAbsErr;
    check.maxRelErr = cmp.maxRelErr;
    check.widened = cmp.widened;
    check.overflowed = cmp.overflowed;
    countNonFinite(got[o], check);
    checks.push_back(check);
  }
  return success();
}

/// The entry arguments `op` writes.
SmallVector<unsigned> writtenArgs(Operation *op) {
  SmallVector<unsigned> written;
  SmallVector<MemoryEffects::EffectInstance> effects;
  cast<MemoryEffectOpInterface>(op).getEffects(effects);
  for (auto &effect : effects)
    if (isa<MemoryEffects::Write>(effect.getEffect()))
      if (auto arg = dyn_cast_or_null<BlockArgument>(effect.getValue()))
        if (!llvm::is_contained(written, arg.getArgNumber()))
          written.push_back(arg.getArgNumber());
  return written;
}

} // namespace

FailureOr<SmallVector<OutputCheck>>
mlir::nvfp4::checkOutputs(func::FuncOp entry, ArrayRef<HostBuffer> got,
                          ArrayRef<HostBuffer> want,
                          const EntrySignature &signature) {
  SmallVector<Operation *> ops = getEntryOps(entry);
  SmallVector<OutputCheck> checks;
  if (ops.size() == 1) {
    if (failed(checkOp(ops.front(), got, want, signature.outputs, checks)))
      return failure();
    return checks;
  }
  // Several ops: each is checked against the CPU reference run on the
  // inputs the GPU gave it (the GPU's own results of the ops before it),
  // so that a rounding boundary an earlier NVFP4 result crossed the other
  // way does not propagate (analyzeEntry made sure no argument is written
  // twice or written after an op read it). Outputs start from the
  // reference's own (a grouped GEMM's untouched rows).
  for (Operation *op : ops) {
    SmallVector<unsigned> outputs = writtenArgs(op);
    SmallVector<HostBuffer> reference(got.begin(), got.end());
    for (unsigned o : outputs)
      reference[o] = want[o];
    if (failed(executeOpOnCpu(op, reference)) ||
        failed(checkOp(op, got, reference, outputs, checks)))
      return failure();
  }
  // In the signature's order.
  llvm::sort(checks, [&](const OutputCheck &x, const OutputCheck &y) {
    return llvm::find(signature.outputs, x.argIndex) <
           llvm::find(signature.outputs, y.argIndex);
  });
  return checks;
}

std::string mlir::nvfp4::describeMismatch(const HostBuffer &output,
                                          const OutputCheck &check) {
  if (!check.detail.empty())
    return llvm::formatv("argument #{0} ({1} C) differs from the CPU "
                         "reference in {2} of {3} values; first: {4}",
                         check.argIndex, check.format, check.mismatches,
                         check.values, check.detail)
        .str();
  if (!check.isFloat)
    return llvm::formatv("argument #{0} differs from the CPU reference in {1} "
                         "of {2} bytes; first at byte {3}: got 0x{4:x-2}, "
                         "want 0x{5:x-2}",
                         check.argIndex, check.mismatches, check.values,
                         check.firstBad, static_cast<unsigned>(check.got),
                         static_cast<unsigned>(check.want))
        .str();
  Type e = output.type.getElementType();
  return llvm::formatv(
             "argument #{0} differs from the CPU reference in {1} of {2} "
             "values; first at {3} (flat index {4}): got {5}, want {6}, "
             "allowed difference {7} (1e-3 + 1e-3 |ref| + fp32 accumulation "
             "bound{8})",
             check.argIndex, check.mismatches, check.values,
             formatIndex(output.type, check.firstBad), check.firstBad,
             check.got, check.want, check.allowed,
             e.isBF16() ? " + 1 bf16 ulp" : "")
      .str();
}

std::string mlir::nvfp4::describeNonFinite(const HostBuffer &output,
                                           const OutputCheck &check) {
  if (!check.nonFinite)
    return "";
  return llvm::formatv("argument #{0} holds {1} non-finite values of {2} "
                       "({3:f1}%); the first at {4} is {5}",
                       check.argIndex, check.nonFinite, check.values,
                       100.0 * check.nonFinite / std::max<int64_t>(1, check.values),
                       formatIndex(output.type, check.firstNonFinite),
                       check.firstNonFiniteValue)
      .str();
}
