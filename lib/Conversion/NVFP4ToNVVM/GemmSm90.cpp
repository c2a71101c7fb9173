//===- GemmSm90.cpp - nvfp4.gemm_tile on Hopper tensor cores (wgmma) -------===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The sm_90a GEMM CTA. A and B are swapped for the MMA: 64 rows of B (the
// weights) per warpgroup are wgmma's M, `tile_m` rows of A (the
// activations) are its N. Every product e2m1 x e4m3 is exact in f16, so an
// f16 wgmma with fp32 accumulators computes each product exactly.
//
// - B is decoded in registers straight into wgmma's A fragment (the
//   register form of wgmma: no shared memory for the weights). Thread t of
//   a warpgroup (w = t / 32, g = t % 32 / 4, q = t % 4) holds rows 16w + g
//   and 16w + g + 8 of the fragment; at MMA step s its four registers hold
//   the K slots {2q, 2q + 1} and {2q + 8, 2q + 9} of those rows. The K order
//   inside each 64-wide chunk is permuted so that these slots are the real
//   K = 16q + 4s + {0, 1} and 16q + 4s + {2, 3}: over the 4 steps of a
//   chunk, thread q reads the 8 contiguous bytes 8q .. 8q + 7 of each of its
//   rows, exactly the 16 values of scale block q.
// - A is decoded by the whole CTA into one of two 128B-swizzled shared-
//   memory buffers (wgmma's descriptor operand, K-major) in the same
//   permuted K order: position 16s + k of a row holds real K
//   16 (k % 8 / 2) + 4s + (k % 2) + 2 (k / 8). Row i's 16-byte chunk P sits
//   at byte i * 128 + (P ^ (i % 8)) * 16 (the 128B swizzle), so with
//   s = P / 2, o = P % 2 it holds the f16 pairs of bytes 8q + 2s + o,
//   q = 0..3.
// - Decode: a nibble's sign, exponent and mantissa bits placed as an f16
//   pattern give value x 2^-14 (exact also for e2m1's subnormal 0.5); two
//   exact f16x2 multiplies, by 2^14 and by the e4m3 scale (converted with
//   cvt.rn.f16x2.e4m3x2), give value x scale.
// - The K loop: chunk c's MMAs (4 x wgmma m64n<tile_m>k16) run while the
//   CTA decodes chunk c + 1 of A into the other buffer; B is loaded one
//   chunk ahead and A two chunks ahead, in registers.
// - Epilogue: thread t's accumulator i is C[m][n] with n = 16w + g +
//   8 ((i >> 1) & 1), m = 8 (i >> 2) + 2q + (i & 1) (wgmma's D fragment),
//   converted to C's type and stored; rows and columns past M and N are
//   loaded clamped and not stored.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "Lowerings.h"

#include "nvfp4/Dialect/NVFP4/NVFP4Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nvfp4;

namespace {

/// wgmma.mma_async with A in registers: LLVM 22 has no NVVM op for it
/// (`nvvm.wgmma.mma_async` takes two shared-memory descriptors), so this
/// one helper emits the instruction as inline PTX. Accumulates into `acc`
/// (tile_m / 2 f32 values, tied in and out) the product of the 64 x 16 f16
/// fragment `a` (4 x i32 of f16 pairs) and the 16 x n K-major
/// shared-memory matrix described by `descB`.
SmallVector<Value> wgmmaRegisterA(KernelBuilder &k, ArrayRef<Value> acc,
                                  ArrayRef<Value> a, Value descB, int64_t n) {
  ImplicitLocOpBuilder &b = k.b;
  MLIRContext *ctx = b.getContext();
  const int64_t count = n / 2;
  std::string asmString = "wgmma.mma_async.sync.aligned.m64n" +
                          std::to_string(n) + "k16.f32.f16.f16 {";
  std::string constraints;
  for (int64_t i = 0; i < count; ++i) {
    asmString += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=f,";
  }
  // scale-d is a predicate operand: true (D += A * B), set from the
  // immediate operand after the descriptor.
  asmString = "{\n.reg .pred p;\nsetp.ne.b32 p, $" +
              std::to_string(count + 5) + ", 0;\n" + asmString;
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

/// The sm_90 shared-memory matrix descriptor of a K-major, 128B-swizzled
/// operand whose 8-row groups are 1024 bytes apart (PTX ISA, "Matrix
/// Descriptor Format"; CUTLASS's GmmaDescriptor has the same fields): start
/// address >> 4 in bits 0-13, leading byte offset (unused for swizzled
/// K-major layouts: 1) in 16-29, stride byte offset 1024 >> 4 in 32-45,
/// base offset 0 (1024-byte aligned buffers), swizzle mode 1 (128B) in
/// 62-63.
Value sharedDescriptor(KernelBuilder &k, Value smemAddress32) {
  ImplicitLocOpBuilder &b = k.b;
  Value start = arith::ExtUIOp::create(
      b, k.i64,
      arith::ShRUIOp::create(
          b, arith::AndIOp::create(b, smemAddress32, k.c32(0x3FFFF)),
          k.c32(4)));
  constexpr uint64_t kFixed =
      (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(b, start,
                              k.c64(static_cast<int64_t>(kFixed)));
}

class GemmSm90Emitter {
public:
  GemmSm90Emitter(GemmTileOp op, ImplicitLocOpBuilder &b)
      : op(op), b(b), k(b), plan(op.getPlan()) {
    OperandShape a = getOperandShape(op.getA().getType());
    m = a.rows;
    kDim = a.k;
    n = getOperandShape(op.getB().getType()).rows;
    tileM = plan.getTileM();
    threads = plan.getThreadsPerCta();
    chunks = kDim / GemmPlanAttr::kTileK;
    rowBytes = kDim / 2;
    scaleRow = kDim / 16;
    rowsPerThread = llvm::divideCeil(tileM, threads);
    Type out = op.getC().getType().getElementType();
    outType = out;
    outBytes = out.getIntOrFloatBitWidth() / 8;
  }

  LogicalResult emit(RewriterBase &rewriter);

private:
  /// Registers of one K chunk of B for this thread: 8 bytes of each of its
  /// two rows and their scales.
  struct BChunk {
    Value bytes[2]; // i64
    Value scale[2]; // i8
  };
  /// Registers of one K chunk of A for the rows this thread decodes: 32
  /// bytes and 4 scales per row.
  struct AChunk {
    SmallVector<Value> words; // 8 x i32 per row
    SmallVector<Value> scales; // i32 (4 scales) per row
  };

  BChunk loadB(Value chunk);
  AChunk loadA(Value chunk);
  /// f16x2 of (byte's low nibble, high nibble) x scale; `byte` is the low 8
  /// bits of an i32, `scale` an f16x2 splat of the e4m3 scale.
  Value decodePair(Value byte, Value scale);
  /// The e4m3 code (low 8 bits of an i32) as an f16x2 splat.
  Value scaleSplat(Value code);
  /// wgmma A fragments of one chunk: 4 steps x 4 registers.
  SmallVector<Value> fragments(const BChunk &chunk);
  /// Decodes a chunk of A into shared-memory buffer `buffer`.
  void storeA(const AChunk &chunk, Value buffer);
  Value bufferAddress(Value chunk);
  SmallVector<Value> mmaChunk(SmallVector<Value> acc,
                              ArrayRef<Value> frags, Value chunk);
  void epilogue(ArrayRef<Value> acc);

  Value byteOf(Value word, int64_t i) {
    return i ? arith::ShRUIOp::create(b, word, k.c32(8 * i)) : word;
  }
  Value clampChunk(Value c) {
    return arith::MinUIOp::create(b, c, k.c32(chunks - 1));
  }

  GemmTileOp op;
  ImplicitLocOpBuilder &b;
  KernelBuilder k;
  GemmPlanAttr plan;
  int64_t m, n, kDim, tileM, threads, chunks, rowBytes, scaleRow,
      rowsPerThread, outBytes;
  Type outType;

  Value tid, warpgroup, w, g, q, batch;
  /// This thread's two rows of B (global row indices, i64, clamped).
  Value bRows[2];
  Value aBase, sfaBase, bBase, sfbBase, cBase;
  /// Row base of A's tile (i32) and the shared buffers (two, contiguous).
  Value mBase, nBase, smem, smemAddress;
};

GemmSm90Emitter::BChunk GemmSm90Emitter::loadB(Value chunk) {
  BChunk c;
  Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
  Value q64 = arith::ExtUIOp::create(b, k.i64, q);
  for (int r = 0; r < 2; ++r) {
    Value byteOff = arith::AddIOp::create(
        b, arith::MulIOp::create(b, bRows[r], k.c64(rowBytes)),
        arith::AddIOp::create(b, arith::MulIOp::create(b, chunk64, k.c64(32)),
                              arith::MulIOp::create(b, q64, k.c64(8))));
    c.bytes[r] = k.load(k.i64, k.offset(bBase, byteOff), 8);
    Value scaleOff = arith::AddIOp::create(
        b, arith::MulIOp::create(b, bRows[r], k.c64(scaleRow)),
        arith::AddIOp::create(b, arith::MulIOp::create(b, chunk64, k.c64(4)),
                              q64));
    c.scale[r] = k.load(k.i8, k.offset(sfbBase, scaleOff), 1);
  }
  return c;
}

GemmSm90Emitter::AChunk GemmSm90Emitter::loadA(Value chunk) {
  AChunk c;
  Value chunk64 = arith::ExtUIOp::create(b, k.i64, chunk);
  for (int64_t r = 0; r < rowsPerThread; ++r) {
    // Tile row i = tid + r * threads, clamped to the tile and to M.
    Value i = arith::AddIOp::create(b, tid, k.c32(r * threads));
    i = arith::MinUIOp::create(b, i, k.c32(tileM - 1));
    Value row = arith::MinUIOp::create(b, arith::AddIOp::create(b, mBase, i),
                                       k.c32(m - 1));
    Value global = arith::AddIOp::create(
        b, arith::MulIOp::create(b, batch, k.c64(m)),
        arith::ExtUIOp::create(b, k.i64, row));
    Value base = k.offset(
        aBase, arith::AddIOp::create(
                   b, arith::MulIOp::create(b, global, k.c64(rowBytes)),
                   arith::MulIOp::create(b, chunk64, k.c64(32))));
    for (int h = 0; h < 2; ++h) {
      Value v = k.load(k.v4i32, k.offset(base, k.c64(16 * h)), 16);
      for (int e = 0; e < 4; ++e)
        c.words.push_back(k.extract(v, e));
    }
    Value scales = k.offset(
        sfaBase, arith::AddIOp::create(
                     b, arith::MulIOp::create(b, global, k.c64(scaleRow)),
                     arith::MulIOp::create(b, chunk64, k.c64(4))));
    c.scales.push_back(k.load(k.i32, scales, 4));
  }
  return c;
}

Value GemmSm90Emitter::scaleSplat(Value code) {
  // cvt.rn.f16x2.e4m3x2 of (code, code): exact (e4m3 is a subset of f16).
  Value byte = arith::AndIOp::create(b, code, k.c32(0xFF));
  Value two = arith::OrIOp::create(
      b, byte, arith::ShLIOp::create(b, byte, k.c32(8)));
  Value pair = LLVM::BitcastOp::create(
      b, VectorType::get({2}, k.i8), arith::TruncIOp::create(b, k.i16, two));
  return NVVM::ConvertF8x2ToF16x2Op::create(
      b, k.v2f16, pair, b.getBoolAttr(false),
      TypeAttr::get(b.getType<Float8E4M3FNType>()));
}

Value GemmSm90Emitter::decodePair(Value byte, Value scale) {
  // Low nibble -> bits 15 (sign), 9-11 (exponent, mantissa): value x 2^-14
  // as f16; the high nibble likewise into the upper half.
  Value lo = arith::OrIOp::create(
      b,
      arith::ShLIOp::create(b, arith::AndIOp::create(b, byte, k.c32(0x08)),
                            k.c32(12)),
      arith::ShLIOp::create(b, arith::AndIOp::create(b, byte, k.c32(0x07)),
                            k.c32(9)));
  Value hi = arith::OrIOp::create(
      b,
      arith::ShLIOp::create(b, arith::AndIOp::create(b, byte, k.c32(0x80)),
                            k.c32(24)),
      arith::ShLIOp::create(b, arith::AndIOp::create(b, byte, k.c32(0x70)),
                            k.c32(21)));
  Value bits = arith::OrIOp::create(b, lo, hi);
  Value halves = LLVM::BitcastOp::create(b, k.v2f16, bits);
  auto pow14 = DenseElementsAttr::get(
      cast<ShapedType>(k.v2f16), APFloat(APFloat::IEEEhalf(), "16384"));
  Value value = arith::MulFOp::create(
      b, halves, arith::ConstantOp::create(b, k.v2f16, pow14));
  Value scaled = arith::MulFOp::create(b, value, scale);
  return LLVM::BitcastOp::create(b, k.i32, scaled);
}

SmallVector<Value> GemmSm90Emitter::fragments(const BChunk &chunk) {
  // Per row: the 8 bytes as two words; scale as an f16x2 splat.
  Value words[2][2], scales[2];
  for (int r = 0; r < 2; ++r) {
    words[r][0] = arith::TruncIOp::create(b, k.i32, chunk.bytes[r]);
    words[r][1] = arith::TruncIOp::create(
        b, k.i32, arith::ShRUIOp::create(b, chunk.bytes[r], k.c64(32)));
    scales[r] = scaleSplat(arith::ExtUIOp::create(b, k.i32, chunk.scale[r]));
  }
  auto pair = [&](int r, int64_t byteIndex) {
    return decodePair(byteOf(words[r][byteIndex / 4], byteIndex % 4),
                      scales[r]);
  };
  SmallVector<Value> frags;
  for (int64_t s = 0; s < 4; ++s) {
    frags.push_back(pair(0, 2 * s));     // row g,     K slots 2q, 2q+1
    frags.push_back(pair(1, 2 * s));     // row g + 8, K slots 2q, 2q+1
    frags.push_back(pair(0, 2 * s + 1)); // row g,     K slots 2q+8, 2q+9
    frags.push_back(pair(1, 2 * s + 1)); // row g + 8, K slots 2q+8, 2q+9
  }
  return frags;
}

Value GemmSm90Emitter::bufferAddress(Value chunk) {
  Value parity = arith::AndIOp::create(b, chunk, k.c32(1));
  return arith::AddIOp::create(
      b, smemAddress, arith::MulIOp::create(b, parity, k.c32(tileM * 128)));
}

void GemmSm90Emitter::storeA(const AChunk &chunk, Value bufferAddr) {
  auto smemPtr = LLVM::LLVMPointerType::get(b.getContext(), /*shared*/ 3);
  for (int64_t r = 0; r < rowsPerThread; ++r) {
    Value i = arith::AddIOp::create(b, tid, k.c32(r * threads));
    auto emitRow = [&] {
      SmallVector<Value> scales;
      Value codes = chunk.scales[r];
      for (int64_t qq = 0; qq < 4; ++qq)
        scales.push_back(scaleSplat(byteOf(codes, qq)));
      ArrayRef<Value> words = ArrayRef<Value>(chunk.words).slice(8 * r, 8);
      Value rowAddr = arith::AddIOp::create(
          b, bufferAddr, arith::MulIOp::create(b, i, k.c32(128)));
      Value swizzle = arith::AndIOp::create(b, i, k.c32(7));
      for (int64_t p = 0; p < 8; ++p) {
        int64_t s = p / 2, o = p % 2;
        Value vec = LLVM::PoisonOp::create(b, k.v4i32);
        for (int64_t qq = 0; qq < 4; ++qq) {
          int64_t byteIndex = 8 * qq + 2 * s + o;
          Value pairValue = decodePair(
              byteOf(words[byteIndex / 4], byteIndex % 4), scales[qq]);
          vec = LLVM::InsertElementOp::create(b, vec, pairValue, k.c32(qq));
        }
        Value slot = arith::XOrIOp::create(b, k.c32(p), swizzle);
        Value addr = arith::AddIOp::create(
            b, rowAddr, arith::MulIOp::create(b, slot, k.c32(16)));
        Value ptr = LLVM::IntToPtrOp::create(b, smemPtr, addr);
        LLVM::StoreOp::create(b, vec, ptr, 16);
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

SmallVector<Value> GemmSm90Emitter::mmaChunk(SmallVector<Value> acc,
                                             ArrayRef<Value> frags,
                                             Value chunk) {
  Value buffer = bufferAddress(chunk);
  NVVM::WgmmaFenceAlignedOp::create(b);
  for (int64_t s = 0; s < 4; ++s) {
    // Step s: K halves 16s .. 16s + 15 of every row, 32 bytes into the
    // swizzle atom (the hardware swizzles the absolute address).
    Value desc = sharedDescriptor(
        k, arith::AddIOp::create(b, buffer, k.c32(32 * s)));
    acc = wgmmaRegisterA(k, acc, frags.slice(4 * s, 4), desc, tileM);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  return acc;
}

void GemmSm90Emitter::epilogue(ArrayRef<Value> acc) {
  const bool maskM = m % tileM != 0, maskN = n % plan.getTileN() != 0;
  Value row0 = arith::AddIOp::create(
      b, nBase,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, warpgroup, k.c32(64)),
          arith::AddIOp::create(b, arith::MulIOp::create(b, w, k.c32(16)),
                                g)));
  Value col0 = arith::AddIOp::create(b, mBase,
                                     arith::MulIOp::create(b, q, k.c32(2)));
  for (auto [i, value] : llvm::enumerate(acc)) {
    int64_t idx = static_cast<int64_t>(i);
    Value nIdx = arith::AddIOp::create(b, row0, k.c32(8 * ((idx >> 1) & 1)));
    Value mIdx =
        arith::AddIOp::create(b, col0, k.c32(8 * (idx >> 2) + (idx & 1)));
    Value store;
    if (maskN)
      store = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, nIdx,
                                    k.c32(n));
    if (maskM) {
      Value inM = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, mIdx,
                                        k.c32(m));
      store = store ? arith::AndIOp::create(b, store, inM) : inM;
    }
    auto emitStore = [&] {
      Value global = arith::AddIOp::create(
          b,
          arith::MulIOp::create(
              b,
              arith::AddIOp::create(b, arith::MulIOp::create(b, batch,
                                                             k.c64(m)),
                                    arith::ExtUIOp::create(b, k.i64, mIdx)),
              k.c64(n)),
          arith::ExtUIOp::create(b, k.i64, nIdx));
      Value out = outType.isF32()
                      ? value
                      : arith::TruncFOp::create(b, outType, value);
      LLVM::StoreOp::create(
          b, out,
          k.offset(cBase, arith::MulIOp::create(b, global, k.c64(outBytes))),
          outBytes);
    };
    if (!store) {
      emitStore();
      continue;
    }
    auto ifOp = scf::IfOp::create(b, store, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emitStore();
  }
}

LogicalResult GemmSm90Emitter::emit(RewriterBase &rewriter) {
  if (!op->getParentOfType<gpu::GPUModuleOp>())
    return op.emitOpError() << "must be inside a gpu.module (its shared "
                               "memory is a module global); run nvfp4-tile";
  tid = arith::IndexCastUIOp::create(
      b, k.i32, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  warpgroup = arith::ShRUIOp::create(b, tid, k.c32(7));
  Value t = arith::AndIOp::create(b, tid, k.c32(127));
  w = arith::ShRUIOp::create(b, t, k.c32(5));
  g = arith::ShRUIOp::create(b, arith::AndIOp::create(b, t, k.c32(31)),
                             k.c32(2));
  q = arith::AndIOp::create(b, t, k.c32(3));
  batch = arith::IndexCastUIOp::create(b, k.i64, op.getBatch());
  mBase = arith::IndexCastUIOp::create(b, k.i32, op.getMBase());
  nBase = arith::IndexCastUIOp::create(b, k.i32, op.getNBase());
  aBase = k.pointer(op.getA());
  sfaBase = k.pointer(op.getSfa());
  bBase = k.pointer(op.getB());
  sfbBase = k.pointer(op.getSfb());
  cBase = k.pointer(op.getC());
  Value row = arith::AddIOp::create(
      b, nBase,
      arith::AddIOp::create(
          b, arith::MulIOp::create(b, warpgroup, k.c32(64)),
          arith::AddIOp::create(b, arith::MulIOp::create(b, w, k.c32(16)),
                                g)));
  for (int r = 0; r < 2; ++r) {
    Value rr = arith::MinUIOp::create(
        b, arith::AddIOp::create(b, row, k.c32(8 * r)), k.c32(n - 1));
    bRows[r] = arith::AddIOp::create(
        b, arith::MulIOp::create(b, batch, k.c64(n)),
        arith::ExtUIOp::create(b, k.i64, rr));
  }
  // Two buffers of tile_m decoded rows (128 bytes per row per chunk),
  // 1024-byte aligned: the 128B swizzle works on absolute addresses.
  smem = k.sharedBuffer(rewriter, op, "__nvfp4_gemm_a", plan.getSharedBytes(),
                        /*alignment=*/1024);
  smemAddress = LLVM::PtrToIntOp::create(b, k.i32, smem);

  // Prologue: B's chunk 0, A's chunks 0 and 1; chunk 0 of A decoded.
  BChunk b0 = loadB(k.c32(0));
  AChunk a0 = loadA(k.c32(0));
  AChunk a1 = loadA(clampChunk(k.c32(1)));
  storeA(a0, bufferAddress(k.c32(0)));
  NVVM::FenceProxyOp::create(
      b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(b);

  // Loop-carried: the accumulators, B's chunk c, A's chunk c + 1.
  const int64_t accCount = tileM / 2;
  SmallVector<Value> init(accCount, k.cf32(0.0f));
  auto pack = [&](const BChunk &bc, const AChunk &ac) {
    SmallVector<Value> v = {bc.bytes[0], bc.bytes[1], bc.scale[0],
                            bc.scale[1]};
    llvm::append_range(v, ac.words);
    llvm::append_range(v, ac.scales);
    return v;
  };
  auto unpack = [&](ValueRange v) {
    BChunk bc{{v[0], v[1]}, {v[2], v[3]}};
    AChunk ac;
    ac.words.assign(v.begin() + 4, v.begin() + 4 + 8 * rowsPerThread);
    ac.scales.assign(v.begin() + 4 + 8 * rowsPerThread, v.end());
    return std::make_pair(bc, ac);
  };
  llvm::append_range(init, pack(b0, a1));
  auto loop = scf::ForOp::create(b, k.c32(0), k.c32(chunks), k.c32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value c = loop.getInductionVar();
    auto args = loop.getRegionIterArgs();
    SmallVector<Value> acc(args.begin(), args.begin() + accCount);
    auto [bc, ac] = unpack(args.drop_front(accCount));
    Value next = arith::AddIOp::create(b, c, k.c32(1));
    // Loads of B's chunk c + 1 and A's chunk c + 2.
    BChunk bNext = loadB(clampChunk(next));
    AChunk aNext = loadA(clampChunk(arith::AddIOp::create(b, c, k.c32(2))));
    // Chunk c's MMAs, then A's chunk c + 1 into the other buffer while they
    // run; both buffers are free again after the wait and the barrier.
    acc = mmaChunk(acc, fragments(bc), c);
    storeA(ac, bufferAddress(next));
    NVVM::FenceProxyOp::create(
        b, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(0));
    gpu::BarrierOp::create(b);
    SmallVector<Value> yield(acc);
    llvm::append_range(yield, pack(bNext, aNext));
    scf::YieldOp::create(b, yield);
  }
  SmallVector<Value> results(loop.getResults().take_front(accCount));
  epilogue(results);
  return success();
}

struct GemmTileSm90Lowering : OpRewritePattern<GemmTileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GemmTileOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    GemmSm90Emitter emitter(op, b);
    if (failed(emitter.emit(rewriter)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::nvfp4::populateGemmSm90Patterns(RewritePatternSet &patterns) {
  patterns.add<GemmTileSm90Lowering>(patterns.getContext());
}
