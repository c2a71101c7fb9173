//===- HostBuffer.h - host copies of the entry function's memrefs -*- C++
//-*-===//
//
// Part of the nvfp4 project: an MLIR compiler for block-scaled FP4 kernels.
//
//===----------------------------------------------------------------------===//
//
// nvfp4-run keeps one host buffer per memref argument of the entry function.
// Storage follows the dialect's conventions: f4E2M1FN is packed two values per
// byte (element 2i in the low nibble), f8E4M3FN one byte, f16/bf16 two bytes
// (raw bits), f32 four bytes; all dense row-major.
//
// The .npy mapping of each element type (inputs are checked against it):
//   f4E2M1FN  uint8 ('|u1'), shape [..., K/2]  (packed bytes)
//   f8E4M3FN, f8E8M0FNU  uint8 ('|u1'), the memref's shape (raw codes)
//   f16       float16 ('<f2'); bf16 uint16 ('<u2', raw bits); f32 '<f4'
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_RUNNER_HOSTBUFFER_H
#define NVFP4_RUNNER_HOSTBUFFER_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::nvfp4 {

/// How random inputs are drawn.
struct RandomOptions {
  uint64_t seed = 0;
  /// Largest e4m3 code drawn for scales (0x47 = 3.75 keeps f16 outputs of the
  /// contest shapes finite; 0x7E draws every finite positive code).
  uint8_t maxScaleCode = 0x47;
  /// e8m0 (MXFP4) scale codes drawn, inclusive: 2^-3 .. 2^1 by default,
  /// which keeps f16 outputs of the contest shapes finite; [0, 254] draws
  /// every finite scale.
  uint8_t minE8M0 = 124, maxE8M0 = 128;
  /// Values that share a scale in the quantize inputs drawn (16 for
  /// NVFP4, 32 for MXFP4): adversarial blocks are this long.
  int valueBlock = 16;
};

/// A host copy of one memref argument.
struct HostBuffer {
  MemRefType type;
  std::vector<uint8_t> bytes;

  /// Allocates zeroed storage for `type` (which must be static).
  explicit HostBuffer(MemRefType type);

  /// Storage size in bytes of a static memref of `type`, or nullopt when
  /// the shape is dynamic or the size does not fit 64 bits.
  static std::optional<uint64_t> checkedStorageBytes(MemRefType type);
  /// Storage size in bytes of a static memref of `type` (which must fit).
  static int64_t storageBytes(MemRefType type);
  /// The .npy descriptor and shape that hold `type`.
  static std::string npyDescr(MemRefType type);
  static SmallVector<int64_t> npyShape(MemRefType type);

  /// Fills the buffer with seeded random data: every bit pattern for fp4
  /// values, e4m3 codes in [0, maxScaleCode] and e8m0 codes in [minE8M0,
  /// maxE8M0] for scales (zero and subnormals
  /// included), and values spread over many binades for f32/f16/bf16.
  void fillRandom(const RandomOptions &options, uint64_t streamId);

  /// Loads the buffer from a .npy file, checking its dtype and shape against
  /// the memref type. On failure returns false with a message in `error`.
  bool loadNpy(const std::string &path, std::string &error);
  /// Writes the buffer as a .npy file.
  bool saveNpy(const std::string &path, std::string &error) const;

  /// Decodes an f16/bf16/f32 buffer to fp32 values.
  std::vector<float> toFloats() const;
  /// Stores fp32 values into an f16/bf16/f32 buffer, rounding to nearest even.
  void fromFloats(ArrayRef<float> values);
};

/// Returns `memref<2x3xf16>` as a string, for messages.
std::string typeToString(Type type);

/// What a new allocation can take: `bytes`, and whether the process's
/// address-space limit (ulimit -v, less what it already maps) is what bounds
/// them rather than the machine's free memory.
struct HostMemory {
  uint64_t bytes;
  bool addressSpaceLimit;
};

/// The host memory a new allocation can take without swapping (Linux's
/// MemAvailable), at most what the process's address-space limit leaves;
/// nullopt where the system says neither.
std::optional<HostMemory> availableHostMemory();

} // namespace mlir::nvfp4

#endif // NVFP4_RUNNER_HOSTBUFFER_H
