//===- KernelBuilder.h - typed helpers for the nvfp4 lowerings --*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// Small helpers every lowering of convert-nvfp4-to-nvvm builds kernels with:
// constants, global pointers of bare-pointer memrefs, loads, the one
// streaming-load helper with cache hints (inline PTX: no NVVM op carries
// them), and shared-memory buffers. Private to lib/Conversion/NVFP4ToNVVM.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_CONVERSION_NVFP4TONVVM_KERNELBUILDER_H
#define NVFP4_CONVERSION_NVFP4TONVVM_KERNELBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::nvfp4 {

/// Small typed helpers over an ImplicitLocOpBuilder.
struct KernelBuilder {
  ImplicitLocOpBuilder &b;
  /// `ptr`: a global pointer; `sharedPtr`: a shared-memory one;
  /// `clusterPtr`: one into any CTA's shared memory of the cluster
  /// (shared::cluster: mapa's result, the bulk copies' destinations).
  Type i8, i16, i32, i64, f16, f32, v2f16, v4i32, ptr, sharedPtr, clusterPtr;

  explicit KernelBuilder(ImplicitLocOpBuilder &b)
      : b(b), i8(b.getI8Type()), i16(b.getI16Type()), i32(b.getI32Type()),
        i64(b.getI64Type()), f16(b.getF16Type()), f32(b.getF32Type()),
        v2f16(VectorType::get({2}, f16)), v4i32(VectorType::get({4}, i32)),
        ptr(LLVM::LLVMPointerType::get(b.getContext(), /*global*/ 1)),
        sharedPtr(LLVM::LLVMPointerType::get(b.getContext(), /*shared*/ 3)),
        clusterPtr(LLVM::LLVMPointerType::get(b.getContext(),
                                              /*shared::cluster*/ 7)) {}

  /// threadIdx.x as an i32.
  Value threadIdX() {
    return arith::IndexCastUIOp::create(
        b, i32, gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  }

  Value extract(Value vector, int64_t i) {
    return vector::ExtractOp::create(b, vector, i);
  }
  /// A vector of `type` holding `elements` (LLVM insertelement chain).
  Value pack(VectorType type, ArrayRef<Value> elements) {
    Value vec = LLVM::PoisonOp::create(b, type);
    for (auto [i, e] : llvm::enumerate(elements))
      vec = LLVM::InsertElementOp::create(b, vec, e,
                                          c32(static_cast<int64_t>(i)));
    return vec;
  }
  /// The elements of a 1-D vector.
  SmallVector<Value> unpack(Value vector) {
    SmallVector<Value> elements;
    int64_t n = cast<VectorType>(vector.getType()).getNumElements();
    for (int64_t i = 0; i < n; ++i)
      elements.push_back(extract(vector, i));
    return elements;
  }
  Value c32(int64_t v) { return arith::ConstantIntOp::create(b, i32, v); }
  Value c64(int64_t v) { return arith::ConstantIntOp::create(b, i64, v); }
  Value cf32(float v) {
    return arith::ConstantFloatOp::create(b, cast<FloatType>(f32),
                                          APFloat(v));
  }

  /// The global-memory pointer of a (bare-pointer) kernel memref.
  Value pointer(Value memref) {
    Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, memref);
    Value asInt = arith::IndexCastUIOp::create(b, i64, index);
    return LLVM::IntToPtrOp::create(b, ptr, asInt);
  }
  Value offset(Value base, Value bytes) {
    return LLVM::GEPOp::create(b, ptr, i8, base, ValueRange{bytes});
  }
  /// A load; `invariant` (read-only for the whole kernel, so ld.global.nc)
  /// for the kernel's inputs, not for shared memory the kernel writes.
  Value load(Type type, Value address, unsigned alignment,
             bool invariant = true) {
    return LLVM::LoadOp::create(b, type, address, alignment,
                                /*isVolatile=*/false, /*isNonTemporal=*/false,
                                invariant);
  }
  /// A streaming read of A (values or scales), each byte read once by the
  /// whole kernel: ld.global.nc with L1::no_allocate so it does not pollute
  /// L1 (ptxas accepts .L2::evict_first only on 256-bit loads). No NVVM op
  /// carries these hints, hence inline PTX (kept to this one helper). It is
  /// marked as having side effects so LLVM keeps it where the software
  /// pipeline put it instead of re-materializing it next to its use.
  /// `bytes` is 1, 2, 4 or 16; the result is i16 (also for 1), i32 or
  /// vector<4xi32>.
  Value streamLoad(Value address, int64_t bytes) {
    MLIRContext *ctx = b.getContext();
    std::string hints = "ld.global.nc.L1::no_allocate";
    Type result;
    std::string asmString, constraints;
    if (bytes == 16) {
      result = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, i32, i32});
      asmString = hints + ".v4.u32 {$0, $1, $2, $3}, [$4];";
      constraints = "=r,=r,=r,=r,l";
    } else {
      // One byte loads as .u8 into a 16-bit register.
      result = bytes <= 2 ? i16 : i32;
      asmString = hints + (bytes == 1 ? ".u8" : bytes == 2 ? ".u16" : ".u32") +
                  " $0, [$1];";
      constraints = bytes <= 2 ? "=h,l" : "=r,l";
    }
    Value loaded =
        LLVM::InlineAsmOp::create(
            b, result, ValueRange{address}, b.getStringAttr(asmString),
            b.getStringAttr(constraints), b.getUnitAttr(), UnitAttr(),
            LLVM::TailCallKindAttr::get(ctx, LLVM::TailCallKind::None),
            LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
            ArrayAttr())
            .getResult(0);
    if (bytes != 16)
      return loaded;
    Value vec = LLVM::PoisonOp::create(b, v4i32);
    for (int64_t e = 0; e < 4; ++e)
      vec = LLVM::InsertElementOp::create(
          b, vec, LLVM::ExtractValueOp::create(b, loaded, e), c32(e));
    return vec;
  }

  /// A `bytes`-byte, `alignment`-byte aligned shared-memory buffer, as an internal
  /// addrspace(3) global of the enclosing gpu.module (the form workgroup
  /// attributions take after lowering, but with the alignment the 16-byte
  /// vector accesses need); returns its address as a !llvm.ptr<3>.
  Value sharedBuffer(RewriterBase &rewriter, Operation *op, StringRef name,
                     int64_t bytes, uint64_t alignment = 16) {
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    SymbolTable symbols(module);
    std::string unique = name.str();
    for (int i = 0; symbols.lookup(unique); ++i)
      unique = name.str() + "_" + std::to_string(i);
    auto arrayType = LLVM::LLVMArrayType::get(i8, bytes);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      LLVM::GlobalOp::create(rewriter, b.getLoc(), arrayType,
                             /*isConstant=*/false, LLVM::Linkage::Internal,
                             unique, Attribute(), alignment,
                             /*addrSpace=*/3);
    }
    return LLVM::AddressOfOp::create(b, sharedPtr, unique);
  }

  /// sharedBuffer, shared by the ops of one kernel that ask for `name`
  /// with the same size and alignment: the cases of a grouped_problems
  /// kernel, of which one runs per CTA, take one buffer, not one each.
  Value kernelSharedBuffer(RewriterBase &rewriter, Operation *op,
                           StringRef name, int64_t bytes,
                           uint64_t alignment = 16) {
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
    auto arrayType = LLVM::LLVMArrayType::get(i8, bytes);
    LLVM::GlobalOp shared;
    if (kernel)
      kernel.walk([&](LLVM::AddressOfOp address) {
        auto global = SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(
            module, address.getGlobalNameAttr());
        if (global && global.getSymName().starts_with(name) &&
            global.getGlobalType() == arrayType &&
            global.getAlignment() == alignment && global.getAddrSpace() == 3)
          shared = global;
      });
    if (!shared)
      return sharedBuffer(rewriter, op, name, bytes, alignment);
    return LLVM::AddressOfOp::create(b, sharedPtr, shared.getSymName());
  }

  /// The gpu.module's addrspace(3) global `name` of `bytes` bytes, 16-byte
  /// aligned, created on first use (later uses, from any op of any kernel of
  /// the module, share it), as a !llvm.ptr<3>.
  Value namedShared(RewriterBase &rewriter, Operation *op, StringRef name,
                    int64_t bytes, LLVM::Linkage linkage) {
    auto module = op->getParentOfType<gpu::GPUModuleOp>();
    if (!SymbolTable::lookupSymbolIn(module, name)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      LLVM::GlobalOp::create(rewriter, b.getLoc(),
                             LLVM::LLVMArrayType::get(i8, bytes),
                             /*isConstant=*/false, linkage, name, Attribute(),
                             /*alignment=*/16, /*addrSpace=*/3);
    }
    return LLVM::AddressOfOp::create(b, sharedPtr, name);
  }

  /// The kernel's dynamic shared memory (an external, unsized
  /// addrspace(3) global of the gpu.module: the launch gives its size),
  /// 16-byte aligned, as a !llvm.ptr<3>.
  Value dynamicSharedMemory(RewriterBase &rewriter, Operation *op,
                            StringRef name) {
    return namedShared(rewriter, op, name, 0, LLVM::Linkage::External);
  }

  Value smemOffset(Value base, Value bytes) {
    return LLVM::GEPOp::create(b, base.getType(), i8, base,
                               ValueRange{bytes});
  }
};

} // namespace mlir::nvfp4

#endif // NVFP4_CONVERSION_NVFP4TONVVM_KERNELBUILDER_H
