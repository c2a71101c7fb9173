//===- Tcgen05Descriptors.h - sm_100 tcgen05 descriptor encoders -*- C++ -*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// The two descriptors a tcgen05.mma reads, encoded (for the lowering) and
// decoded (for the host model that checks what the lowering emits) by one
// helper, so their bit layouts are written down once:
//
// - the shared-memory matrix descriptor (64 bits) of an operand tile;
// - the instruction descriptor (32 bits) of kind::mxf4nvf4 with block
//   scaling (e2m1 x e2m1, e4m3 or e8m0 scales, fp32 accumulators).
//
// Bit positions follow the PTX ISA (9.1: section 9.7.16.4.1, "Shared memory
// descriptor", Table 40; section 9.7.16.4.2, "Instruction descriptor",
// Table 44) and agree with two independent public definitions: CUTLASS's
// include/cute/arch/mma_sm100_desc.hpp (UMMA::SmemDescriptor,
// UMMA::InstrDescriptorBlockScaled) and Triton's
// third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/DotOpToLLVM/MMAHelpers.h
// (SMEMDescriptor) and MMAv5.cpp (createScaleInstDescriptorFp4). Each
// field's comment cites them; the unit tests pin known encodings.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_TARGET_TCGEN05DESCRIPTORS_H
#define NVFP4_TARGET_TCGEN05DESCRIPTORS_H

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::nvfp4::tcgen05 {

/// The layout (swizzle) field of a shared-memory descriptor, bits 61-63.
/// PTX Table 40; CUTLASS UMMA::LayoutType (SWIZZLE_NONE = 0,
/// SWIZZLE_128B_BASE32B = 1, SWIZZLE_128B = 2, SWIZZLE_64B = 4,
/// SWIZZLE_32B = 6). The sm_90 wgmma descriptor's 2-bit field at 62-63
/// (1 = 128B, 2 = 64B, 3 = 32B) sets the same bits for the common modes.
enum class Swizzle : uint8_t {
  None = 0,
  Swizzle128BAtom32B = 1,
  Swizzle128B = 2,
  Swizzle64B = 4,
  Swizzle32B = 6,
};

/// A shared-memory matrix descriptor, in bytes (encode() applies the >> 4).
struct SmemDescriptor {
  /// Shared-window address of the tile: bits 0-13 hold (address & 0x3FFFF)
  /// >> 4 (PTX Table 40; CUTLASS start_address_; Triton baseAddress).
  uint32_t startAddress = 0;
  /// Leading-dimension byte offset, bits 16-29 (>> 4) (CUTLASS
  /// leading_byte_offset_). For swizzled K-major tiles the hardware ignores
  /// it; CUTLASS writes 16 bytes (encoded 1).
  uint32_t leadingByteOffset = 0;
  /// Stride-dimension byte offset, bits 32-45 (>> 4) (CUTLASS
  /// stride_byte_offset_): the distance between 8-row groups (1024 bytes
  /// for 128B-swizzled K-major rows of 128 bytes).
  uint32_t strideByteOffset = 0;
  /// Matrix base offset, bits 49-51 (CUTLASS base_offset_): 0 when the
  /// swizzle pattern starts on its repeat boundary (1024 bytes for 128B).
  uint8_t baseOffset = 0;
  /// Bits 61-63.
  Swizzle swizzle = Swizzle::None;
  // Fixed bits: 46-48 = 0b001 (PTX Table 40; CUTLASS version_ = 1, "version
  // for blackwell"; Triton sets 1 << 46 for MMA v5); 52 = 0 (leading
  // dimension offsets relative, CUTLASS lbo_mode_; absolute is sm_103a
  // only); 14-15, 30-31 and 53-60 = 0.

  /// Why the fields cannot be encoded ("" when they can): addresses and
  /// offsets must be multiples of 16 below 2^18, the base offset below 8.
  std::string check() const;
  /// The 64-bit descriptor; the fields must pass check().
  uint64_t encode() const;
  /// The fields of `bits`, or nullopt when a fixed bit is wrong or the
  /// swizzle field holds an invalid value (3, 5, 7).
  static std::optional<SmemDescriptor> decode(uint64_t bits);

  bool operator==(const SmemDescriptor &o) const {
    return startAddress == o.startAddress &&
           leadingByteOffset == o.leadingByteOffset &&
           strideByteOffset == o.strideByteOffset &&
           baseOffset == o.baseOffset && swizzle == o.swizzle;
  }
};

/// The host model of how a descriptor addresses a K-major operand (PTX ISA
/// "Shared memory matrix layouts" / "Matrix descriptors" canonical
/// layouts): the shared address of byte `kByte` of row `row`, for the
/// swizzle modes the GEMMs use. 128B: rows of 128 bytes, 8-row groups
/// `strideByteOffset` apart, the 16-byte chunk index XORed with address
/// bits 7-9 (the pattern repeats every 1024 bytes; base offset 0 needs the
/// pattern to start on that boundary). None: 8 x 16-byte core matrices,
/// `leadingByteOffset` apart along K and `strideByteOffset` apart along
/// the rows. nullopt for the modes and base offsets the model does not
/// cover, or a byte outside the swizzle atom (for 128B: the start plus
/// `kByte` must stay in the first 128-byte row of a 1024-byte pattern).
std::optional<uint32_t> kMajorAddress(const SmemDescriptor &d, int64_t row,
                                      int64_t kByte);

/// The host model of where TMA (cp.async.bulk.tensor) with
/// CU_TENSOR_MAP_SWIZZLE_128B puts byte `kByte` (< 128) of row `row` of a
/// box whose rows are 128 bytes, written at the 1024-byte aligned shared
/// address `base`: the 16-byte chunk index XORed with the row within its
/// 8-row group.
uint32_t tma128BAddress(uint32_t base, int64_t row, int64_t kByte);

/// The descriptor of a K-major operand that TMA wrote with the 128B swizzle
/// (tma128BAddress), at shared address `address`: rows of 128 bytes, 8-row
/// groups 1024 bytes apart (PTX "canonical layouts": stride byte offset
/// 1024; the leading one is unused for a swizzled K-major operand and set
/// to 16). The lowering and the host model's tests build it here.
SmemDescriptor kMajorSwizzled128BDescriptor(uint32_t address);

/// The descriptor tcgen05.cp.32x128b reads a 512-byte atom of the blocked
/// scale layout through (32 rows of 16 bytes, no swizzle: 8-row core
/// matrices of 128 contiguous bytes, so the stride byte offset is 128; the
/// leading one is unused at 16 bytes wide), at shared address `address`.
/// The lowering and the host model's tests build it here.
SmemDescriptor scaleAtomDescriptor(uint32_t address);

/// The scale-factor type of a block-scaled MMA, bit 23 (PTX Table 44;
/// CUTLASS UMMA::ScaleFormat: UE4M3 = 0, UE8M0 = 1).
enum class ScaleFormat : uint8_t { UE4M3 = 0, UE8M0 = 1 };

/// The instruction descriptor of tcgen05.mma kind::mxf4nvf4 (A and B
/// e2m1, K-major, dense, K = 64 per instruction, fp32 accumulators).
struct Mxf4InstrDescriptor {
  /// MMA shape: M is 128 (cta_group::1) or 256 (cta_group::2), N a multiple
  /// of 8 in [8, 256] (PTX shape table; CUTLASS static_assert(M == 128) for
  /// the single-CTA form).
  int64_t m = 128, n = 8;
  /// Bit 23. UE4M3 with block16 scales is NVFP4.
  ScaleFormat scaleFormat = ScaleFormat::UE4M3;
  /// The instruction's scale vector as this project pairs it with the
  /// format: .block32 (scale_vec::2X) for ue8m0 (MXFP4), else .block16.
  bool isBlock32() const { return scaleFormat == ScaleFormat::UE8M0; }
  /// Scale-factor ids of A (bits 29-30) and B (bits 4-5): the byte of each
  /// 32-bit scale cell its scales start at; 0 with block16 scales (a whole
  /// cell), 0 or 2 with block32 ones (a half word, scale_vec::2X).
  uint8_t scaleIdA = 0, scaleIdB = 0;
  /// Negate A (bit 13) / B (bit 14).
  bool negateA = false, negateB = false;
  // Fixed: bits 0-3 = 0 (dense); 7-9 = 1 and 10-12 = 1 (A and B e2m1: 1 for
  // the mxf4 kinds, unlike the f8f6f4 kinds' 5; Triton getTypeEncoding);
  // 15-16 = 0 (A and B K-major, the only choice for mxf4nvf4); 31 = 0
  // (K = 64).

  /// Why the fields cannot be encoded ("" when they can).
  std::string check() const;
  /// The 32-bit descriptor: N >> 3 in bits 17-22, M >> 7 in bits 27-28
  /// (PTX; CUTLASS's m_dim_ at 24-28 holds M >> 4 with the same bits for
  /// M = 128 and 256). The fields must pass check().
  uint32_t encode() const;
  /// The fields of `bits`, or nullopt when it is not a dense, K-major
  /// e2m1 x e2m1 descriptor with a valid shape.
  static std::optional<Mxf4InstrDescriptor> decode(uint32_t bits);

  bool operator==(const Mxf4InstrDescriptor &o) const {
    return m == o.m && n == o.n && scaleFormat == o.scaleFormat &&
           scaleIdA == o.scaleIdA && scaleIdB == o.scaleIdB &&
           negateA == o.negateA && negateB == o.negateB;
  }
};

} // namespace mlir::nvfp4::tcgen05

#endif // NVFP4_TARGET_TCGEN05DESCRIPTORS_H
