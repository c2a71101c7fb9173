//===- WgmmaFragments.cpp - sm_90a wgmma fragments and decoded tiles ------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//

#include "WgmmaFragments.h"
#include "Fp4Decode.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;
using namespace mlir::nvfp4::sm90;

SmallVector<Value> sm90::wgmmaRegisterA(KernelBuilder &k, ArrayRef<Value> acc,
                                        ArrayRef<Value> a, Value descB,
                                        int64_t n, bool bf16) {
  ImplicitLocOpBuilder &b = k.b;
  MLIRContext *ctx = b.getContext();
  const int64_t count = n / 2;
  std::string asmString = "wgmma.mma_async.sync.aligned.m64n" +
                          std::to_string(n) + "k16.f32" +
                          (bf16 ? ".bf16.bf16 {" : ".f16.f16 {");
  std::string constraints;
  for (int64_t i = 0; i < count; ++i) {
    asmString += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=f,";
  }
  // scale-d is a predicate operand: true (D += A * B), set from the
  // immediate operand after the descriptor.
  asmString = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(count + 5) +
              ", 0;\n" + asmString;
  asmString += "}, {$" + std::to_string(count) + ", $" +
               std::to_string(count + 1) + ", $" + std::to_string(count + 2) +
               ", $" + std::to_string(count + 3) + "}, $" +
               std::to_string(count + 4) + ", p, 1, 1, 0;\n}";
  constraints += "r,r,r,r,l,n";
  for (int64_t i = 0; i < count; ++i)
    constraints += "," + std::to_string(i);
  SmallVector<Value> operands(a.begin(), a.end());
  operands.push_back(descB);
  operands.push_back(LLVM::ConstantOp::create(b, k.i32, 1));
  llvm::append_range(operands, acc);
  SmallVector<Type> fields(count, k.f32);
  auto result = LLVM::InlineAsmOp::create(
      b, LLVM::LLVMStructType::getLiteral(ctx, fields), operands,
      b.getStringAttr(asmString), b.getStringAttr(constraints),
      /*has_side_effects=*/b.getUnitAttr(), /*is_align_stack=*/UnitAttr(),
      LLVM::TailCallKindAttr::get(ctx, LLVM::TailCallKind::None),
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT), ArrayAttr());
  SmallVector<Value> out;
  for (int64_t i = 0; i < count; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, result.getResult(0), i));
  return out;
}

Value sm90::sharedDescriptorLow(KernelBuilder &k, Value smemAddress32) {
  ImplicitLocOpBuilder &b = k.b;
  Value start = arith::ShRUIOp::create(
      b, arith::AndIOp::create(b, smemAddress32, k.c32(0x3FFFF)), k.c32(4));
  return arith::OrIOp::create(b, start, k.c32(1 << 16));
}

Value sm90::sharedDescriptor(KernelBuilder &k, Value low, int64_t step) {
  ImplicitLocOpBuilder &b = k.b;
  if (step)
    low = arith::AddIOp::create(b, low, k.c32(step >> 4));
  constexpr uint64_t kHigh = (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(b, arith::ExtUIOp::create(b, k.i64, low),
                              k.c64(static_cast<int64_t>(kHigh)));
}

ATileDecoder::RowChunk ATileDecoder::rowChunk(Value i, Value chunk64) {
  // Rows past M (or the group) read its last: the GEMM masks them.
  Value last = k.c32(m - 1);
  if (lastRow)
    last = arith::MinUIOp::create(b, lastRow, last);
  Value row =
      arith::MinUIOp::create(b, arith::AddIOp::create(b, mBase, i), last);
  Value global =
      arith::AddIOp::create(b, arith::MulIOp::create(b, batch, k.c64(m)),
                            arith::ExtUIOp::create(b, k.i64, row));
  Value values =
      k.offset(aBase, arith::AddIOp::create(
                          b, arith::MulIOp::create(b, global, k.c64(rowBytes)),
                          arith::MulIOp::create(b, chunk64, k.c64(32))));
  return {row, values};
}

Value ATileDecoder::chunkScales(Value row, Value chunk64) {
  return k.offset(sfaBase,
                  arith::AddIOp::create(b, scales.rowOffset(k, batch, row),
                                        scales.chunkOffset(k, chunk64)));
}

AChunk ATileDecoder::load(Value chunk) {
  assert(!format.isMX() && "the CTA's own decode of A is NVFP4 only");
  AChunk c;
  Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
  for (int64_t r = 0; r < rowsPerThread; ++r) {
    Value i = arith::AddIOp::create(b, tid, k.c32(r * threads));
    RowChunk at =
        rowChunk(arith::MinUIOp::create(b, i, k.c32(tileM - 1)), chunk64);
    for (int h = 0; h < 2; ++h) {
      Value v = k.load(k.v4i32, k.offset(at.values, k.c64(16 * h)), 16);
      for (int e = 0; e < 4; ++e)
        c.words.push_back(k.extract(v, e));
    }
    c.scales.push_back(k.load(k.i32, chunkScales(at.row, chunk64), 4));
  }
  return c;
}

void ATileDecoder::decodeBlock(Value chunk,
                               function_ref<void(Value, Value)> store) {
  // `parts` threads per row (8 or 4), each `words` words (8 values each)
  // of the row's 8: part j holds words j * words ...
  const int64_t parts = threads / tileM, words = 8 / parts;
  assert(threads == parts * tileM && (parts == 4 || parts == 8) &&
         "WgmmaMainloopAttr::getDecodeThreads: 8 or 4 threads per tile row");
  Value i = arith::DivUIOp::create(b, tid, k.c32(parts));
  Value j = arith::RemUIOp::create(b, tid, k.c32(parts));
  Value firstWord = arith::MulIOp::create(b, j, k.c32(words));
  Value q = arith::ShRUIOp::create(b, firstWord, k.c32(1));
  Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
  RowChunk at = rowChunk(i, chunk64);
  // One word as an i32 (a 1-element vector would lose ld.global.nc).
  Type valuesType = words == 1 ? k.i32 : Type(VectorType::get({words}, k.i32));
  Value values = k.load(
      valuesType,
      k.offset(at.values,
               arith::ExtUIOp::create(
                   b, k.i64, arith::MulIOp::create(b, firstWord, k.c32(4)))),
      4 * words);
  // The scale of words 2q and 2q + 1 (NVFP4's block q, MXFP4's q / 2).
  Value code = arith::ExtUIOp::create(
      b, k.i32,
      k.load(k.i8,
             k.offset(chunkScales(at.row, chunk64),
                      arith::ExtUIOp::create(b, k.i64, scales.blockOf(k, q))),
             1));
  Value scale = format.isMX() ? scaleSplatMX(k, code) : scaleSplat(k, code);
  // Word v = 2q + h gives pairs 4h .. 4h + 3 of block q, element q of
  // 16-byte slots 4h .. 4h + 3 (decode()'s slot p, element qq).
  Value base = arith::AddIOp::create(
      b, arith::MulIOp::create(b, i, k.c32(128)),
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, q, k.c32(4)),
          arith::MulIOp::create(
              b, arith::AndIOp::create(b, firstWord, k.c32(1)), k.c32(64))));
  for (int64_t w = 0; w < words; ++w) {
    Value word = words == 1 ? values : k.extract(values, w);
    SmallVector<Value, 4> pairs = format.isMX()
                                      ? decodeWordPairsMX(k, word, scale)
                                      : decodeWordPairs(k, word, scale);
    for (int64_t p = 0; p < 4; ++p)
      store(pairs[p], arith::AddIOp::create(b, base, k.c32(64 * w + 16 * p)));
  }
}

void ATileDecoder::decode(const AChunk &chunk,
                          function_ref<void(Value, Value)> store) {
  for (int64_t r = 0; r < rowsPerThread; ++r) {
    Value i = arith::AddIOp::create(b, tid, k.c32(r * threads));
    auto emitRow = [&] {
      SmallVector<Value> scales;
      for (int64_t qq = 0; qq < 4; ++qq)
        scales.push_back(scaleSplat(k, byteOf(k, chunk.scales[r], qq)));
      ArrayRef<Value> words = ArrayRef<Value>(chunk.words).slice(8 * r, 8);
      // Word v holds bytes 4v .. 4v + 3, all of scale block v / 2.
      SmallVector<Value> pairs;
      for (int64_t v = 0; v < 8; ++v)
        llvm::append_range(pairs, decodeWordPairs(k, words[v], scales[v / 2]));
      Value rowOffset = arith::MulIOp::create(b, i, k.c32(128));
      Value rowSwizzle = arith::AndIOp::create(b, i, k.c32(7));
      for (int64_t p = 0; p < 8; ++p) {
        // Slot p holds MMA step s = p / 2, K slots 8 (p % 2) .. + 7: pair
        // 2s + p % 2 of scale blocks q = 0..3 (pairs 8q .. 8q + 7).
        int64_t s = p / 2, o = p % 2;
        Value vec = LLVM::PoisonOp::create(b, k.v4i32);
        for (int64_t qq = 0; qq < 4; ++qq) {
          vec = LLVM::InsertElementOp::create(b, vec, pairs[8 * qq + 2 * s + o],
                                              k.c32(qq));
        }
        Value slot = arith::XOrIOp::create(b, k.c32(p), rowSwizzle);
        store(vec,
              arith::AddIOp::create(b, rowOffset,
                                    arith::MulIOp::create(b, slot, k.c32(16))));
      }
    };
    if ((r + 1) * threads <= tileM) {
      emitRow();
      continue;
    }
    Value inTile =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, i, k.c32(tileM));
    auto ifOp = scf::IfOp::create(b, inTile, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emitRow();
  }
}

void sm90::storeShared(KernelBuilder &k, Value vec, Value address) {
  LLVM::StoreOp::create(
      k.b, vec, LLVM::IntToPtrOp::create(k.b, k.sharedPtr, address), 16);
}

void sm90::fenceAsyncShared(KernelBuilder &k) {
  NVVM::FenceProxyOp::create(
      k.b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(k.b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

SmallVector<Value> sm90::decodeFragments(KernelBuilder &k, const Value bytes[2],
                                         const Value scales[2],
                                         ScaleFormat format) {
  ImplicitLocOpBuilder &b = k.b;
  const bool mx = format == ScaleFormat::MXFP4;
  Value codes[2];
  for (int r = 0; r < 2; ++r)
    codes[r] = arith::ExtUIOp::create(b, k.i32, scales[r]);
  auto decode = [&](bool scaleRestores) {
    SmallVector<Value> decoded[2];
    for (int r = 0; r < 2; ++r) {
      Value scale = !mx             ? scaleSplat(k, codes[r])
                    : scaleRestores ? scaleSplatMXRestoring(k, codes[r])
                                    : scaleSplatMX(k, codes[r]);
      Value lo = arith::TruncIOp::create(b, k.i32, bytes[r]);
      Value hi = arith::TruncIOp::create(
          b, k.i32, arith::ShRUIOp::create(b, bytes[r], k.c64(32)));
      for (Value word : {lo, hi})
        llvm::append_range(decoded[r],
                           mx ? decodeWordPairsMX(k, word, scale, scaleRestores)
                              : decodeWordPairs(k, word, scale));
    }
    // decoded[r][t]: pair t of row r's scale block.
    SmallVector<Value> frags;
    for (int64_t s = 0; s < 4; ++s) {
      frags.push_back(decoded[0][2 * s]);     // row g,     K slots 2q, 2q+1
      frags.push_back(decoded[1][2 * s]);     // row g + 8, K slots 2q, 2q+1
      frags.push_back(decoded[0][2 * s + 1]); // row g,     K slots 2q+8, 2q+9
      frags.push_back(decoded[1][2 * s + 1]); // row g + 8, K slots 2q+8, 2q+9
    }
    return frags;
  };
  if (!mx)
    return decode(/*scaleRestores=*/false);
  // MXFP4: one multiply a pair instead of two where both rows' codes allow
  // it (kMXRestoringCodeMax: scales up to 8; weights' are far below), decided
  // for the whole warp so that it never diverges (performance.md, MXFP4
  // v4).
  Value fits[2];
  for (int r = 0; r < 2; ++r)
    fits[r] = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, codes[r],
                                    k.c32(kMXRestoringCodeMax));
  Value allFit = NVVM::VoteSyncOp::create(
      b, b.getI1Type(), k.c32(-1), arith::AndIOp::create(b, fits[0], fits[1]),
      NVVM::VoteSyncKind::all);
  SmallVector<Type> types(16, k.i32);
  auto ifOp = scf::IfOp::create(b, types, allFit, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, decode(/*scaleRestores=*/true));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, decode(/*scaleRestores=*/false));
  }
  return SmallVector<Value>(ifOp.getResults());
}

SmallVector<Value> sm90::mmaChunk(KernelBuilder &k, SmallVector<Value> acc,
                                  ArrayRef<Value> frags, Value tileAddress,
                                  int64_t n, ScaleFormat format) {
  ImplicitLocOpBuilder &b = k.b;
  NVVM::WgmmaFenceAlignedOp::create(b);
  Value low = sharedDescriptorLow(k, tileAddress);
  for (int64_t s = 0; s < 4; ++s) {
    // Step s: K halves 16s .. 16s + 15 of every row, 32 bytes into the
    // swizzle atom (the hardware swizzles the absolute address).
    Value desc = sharedDescriptor(k, low, 32 * s);
    acc = wgmmaRegisterA(k, acc, frags.slice(4 * s, 4), desc, n,
                         format == ScaleFormat::MXFP4);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  return acc;
}

void sm90::storeAccumulators(KernelBuilder &k, ArrayRef<Value> acc,
                             const AccumulatorStore &out, Value mBase,
                             Value row, const FragmentThread &ft) {
  ImplicitLocOpBuilder &b = k.b;
  Value row0 = arith::AddIOp::create(
      b, row,
      arith::AddIOp::create(b, arith::MulIOp::create(b, ft.w, k.c32(16)),
                            ft.g));
  Value col0 =
      arith::AddIOp::create(b, mBase, arith::MulIOp::create(b, ft.q, k.c32(2)));
  for (auto [i, value] : llvm::enumerate(acc)) {
    int64_t idx = static_cast<int64_t>(i);
    Value nIdx = arith::AddIOp::create(b, row0, k.c32(8 * ((idx >> 1) & 1)));
    Value mIdx =
        arith::AddIOp::create(b, col0, k.c32(8 * (idx >> 2) + (idx & 1)));
    storeElement(k, out, value, mIdx, nIdx);
  }
}
