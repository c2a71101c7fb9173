// Scale re-layouts for block-scales.test: plain and blocked sources,
// batched and not, K chunks padded (the sm_100a GEMM's pre-pass kernel) or
// not, rows not a multiple of 128, and the contest weights' scales.

func.func @plain_padded(%s: memref<300x40xf8E4M3FN>, %d: memref<3x12x32x4x4xf8E4M3FN>) {
  nvfp4.block_scales ins(%s : memref<300x40xf8E4M3FN>) outs(%d : memref<3x12x32x4x4xf8E4M3FN>)
  return
}

func.func @plain_batched(%s: memref<3x200x44xf8E4M3FN>, %d: memref<3x2x12x32x4x4xf8E4M3FN>) {
  nvfp4.block_scales ins(%s : memref<3x200x44xf8E4M3FN>) outs(%d : memref<3x2x12x32x4x4xf8E4M3FN>)
  return
}

func.func @blocked_padded(%s: memref<2x3x11x32x4x4xf8E4M3FN>, %d: memref<2x3x12x32x4x4xf8E4M3FN>) {
  nvfp4.block_scales ins(%s : memref<2x3x11x32x4x4xf8E4M3FN>) outs(%d : memref<2x3x12x32x4x4xf8E4M3FN>)
  return
}

func.func @plain_exact(%s: memref<128x16xf8E4M3FN>, %d: memref<1x4x32x4x4xf8E4M3FN>) {
  nvfp4.block_scales ins(%s : memref<128x16xf8E4M3FN>) outs(%d : memref<1x4x32x4x4xf8E4M3FN>)
  return
}

func.func @contest_weights(%s: memref<7168x1024xf8E4M3FN>, %d: memref<56x256x32x4x4xf8E4M3FN>) {
  nvfp4.block_scales ins(%s : memref<7168x1024xf8E4M3FN>) outs(%d : memref<56x256x32x4x4xf8E4M3FN>)
  return
}

// Plain rows of whole 16-byte groups (the 16-byte-load path): K = 512 (8
// chunks) padded to 12, ragged rows, batched.
func.func @plain_vector_padded(%s: memref<3x200x32xf8E4M3FN>, %d: memref<3x2x12x32x4x4xf8E4M3FN>) {
  nvfp4.block_scales ins(%s : memref<3x200x32xf8E4M3FN>) outs(%d : memref<3x2x12x32x4x4xf8E4M3FN>)
  return
}
