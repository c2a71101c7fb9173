//===- Formats.h - Scalar number formats for NVFP4 --------------*- C++ -*-===//
//
// Part of the nvfp4 project.
//
//===----------------------------------------------------------------------===//
//
// Bit-exact host implementations of the small floating-point formats used by
// NVFP4 block-scaled kernels:
//
//  * E2M1 (FP4): 1 sign bit, 2 exponent bits (bias 1), 1 mantissa bit. No
//    infinities, no NaN. Magnitudes {0, 0.5, 1, 1.5, 2, 3, 4, 6}.
//  * E4M3 (OCP FP8 "E4M3FN"): 1 sign bit, 4 exponent bits (bias 7), 3
//    mantissa bits. No infinities; 0x7F and 0xFF are NaN; max 448;
//    subnormals are m * 2^-9.
//  * E8M0 (OCP "E8M0FNU", MXFP4's scale): an unsigned biased exponent,
//    code c is 2^(c - 127); 0xFF is NaN; no zero, no sign.
//  * IEEE binary16 ("half") and bfloat16.
//
// The encoders from fp32 round to nearest, ties to even. The E2M1 and E4M3
// encoders saturate like PTX `cvt.rn.satfinite.{e2m1x2,e4m3x2}.f32`.
//
//===----------------------------------------------------------------------===//

#ifndef NVFP4_REFERENCE_FORMATS_H
#define NVFP4_REFERENCE_FORMATS_H

#include <cstdint>

namespace nvfp4 {
namespace ref {

/// Largest finite E2M1 magnitude.
constexpr float kE2M1Max = 6.0f;
/// Largest finite E4M3 magnitude.
constexpr float kE4M3Max = 448.0f;

/// Decodes the E2M1 value held in the low 4 bits of `nibble` (the high bits
/// are ignored). Bit 3 is the sign; code 0x8 decodes to -0.0f.
float decodeE2M1(uint8_t nibble);

/// Decodes an OCP FP8 E4M3FN byte. 0x7F and 0xFF decode to a quiet NaN, 0x80
/// decodes to -0.0f; all other codes are finite (there are no infinities).
float decodeE4M3(uint8_t code);

/// Decodes an E8M0 scale byte: 2^(code - 127), exact in fp32 (code 0 is
/// the subnormal 2^-127); 0xFF decodes to a quiet NaN.
float decodeE8M0(uint8_t code);

/// How an MXFP4 block's amax becomes its E8M0 scale.
enum class MXRounding {
  /// OCP MX: 2^(floor(log2(amax)) - 2), 2 being E2M1's largest exponent.
  Floor,
  /// amax / 6 (an fp32 division) rounded up to a power of two (cuBLAS,
  /// TensorRT-LLM): no element saturates.
  Rceil
};

/// The E8M0 scale code of a block whose largest magnitude is `amax` (>= 0,
/// or NaN-free infinity) under `rounding`, clamped to codes [0, 254]:
/// amax == 0 gives code 0, an infinite amax code 254.
uint8_t encodeE8M0Scale(float amax, MXRounding rounding);

/// Encodes `x` as E2M1 (result in the low 4 bits, high bits zero), rounding
/// to nearest with ties to the even code (e.g. 0.25 -> 0, 0.75 -> 1.0,
/// 2.5 -> 2, 5 -> 4). Magnitudes above 6, including infinities, saturate to
/// +-6 (code 0x7 / 0xF). The sign is kept for results that round to zero:
/// -0.0f and tiny negative inputs give 0x8 (-0).
/// NaN (which E2M1 cannot represent) encodes as 0x7 (+6, positive max norm),
/// the choice made for formats without NaN by PTX `.satfinite` conversions.
uint8_t encodeE2M1(float x);

/// Encodes `x` as OCP FP8 E4M3FN with round-to-nearest-even, including the
/// subnormal range (multiples of 2^-9) and the ties between subnormals.
/// Magnitudes above 448, including infinities, saturate to +-448 (0x7E /
/// 0xFE). NaN encodes as 0x7F. The sign is kept for results that round to
/// zero (-0.0f and tiny negative inputs give 0x80).
uint8_t encodeE4M3(float x);

/// Converts IEEE binary16 bits to fp32 (exact; NaN payloads are preserved).
float halfToFloat(uint16_t bits);

/// Converts fp32 to IEEE binary16 bits, round-to-nearest-even. Subnormal
/// halves are produced, values that round above 65504 become +-infinity,
/// infinities stay infinities and NaN stays NaN (quiet; the top payload bits
/// are kept).
uint16_t floatToHalf(float x);

/// Converts bfloat16 bits to fp32 (exact).
float bf16ToFloat(uint16_t bits);

/// Converts fp32 to bfloat16 bits, round-to-nearest-even. Values that round
/// above the largest finite bfloat16 become +-infinity; NaN stays NaN (the
/// result is made quiet so that truncating the payload cannot give infinity).
uint16_t floatToBF16(float x);

/// The SiLU activation in fp32: x / (1 + exp(-x)). Very negative inputs give
/// -0.0f (exp overflows to infinity), NaN propagates.
float silu(float x);

} // namespace ref
} // namespace nvfp4

#endif // NVFP4_REFERENCE_FORMATS_H
