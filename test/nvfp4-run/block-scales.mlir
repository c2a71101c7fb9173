// nvfp4.block_scales converts scales to the blocked layout (K chunks
// padded with zeros) as a kernel on every target, with the CPU reference
// as its check. Rows 0-49 have scales 0x38, 50-99 0x40, 100-149 0x48 and
// 150-199 0x50; row r's 4 columns land in word (r % 32) * 4 + (r % 128) /
// 32 of its row block's first atom, so the first 8 bytes are rows 0 and
// 32; K = 64 is padded to 4 chunks (K = 256) and rows 200..255 to the
// second block's end, all zero. (The GPU suite's block-scales.test runs
// the kernel on the GPU against the same reference.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy_tool.py fill %t/sf.npy '|u1' 200x4 0x38,0x40,0x48,0x50
// RUN: nvfp4-run %s --entry pad --cpu --inputs %t/sf.npy --output %t/blocked.npy | FileCheck %s --check-prefix=CPU
// RUN: %python %S/Inputs/npy_tool.py dump %t/blocked.npy | FileCheck %s
// RUN: nvfp4-run %s --entry pad --target sm_100a --inputs %t/sf.npy | FileCheck %s --check-prefix=COMPILED
// RUN: nvfp4-run %s --entry pad --target sm_90a --inputs %t/sf.npy | FileCheck %s --check-prefix=COMPILED
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a | FileCheck %s --check-prefix=TILE
// RUN: nvfp4-run %s --entry pad --target sm_100a --emit=ptx -o %t/pad.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t/pad.ptx -o %t/pad.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CPU: nvfp4-run: @pad nvfp4.block_scales on cpu-reference (--cpu; not compiled)
// CHECK: descr=|u1 shape=(2, 4, 32, 4, 4) n=4096
// CHECK: values: 56 56 56 56 56 56 56 56
// CHECK: distinct: 0 56 64 72 80{{$}}
// COMPILED: nvfp4-run: kernel @pad_kernel: grid (1, 1, 1), block (256, 1, 1)
// COMPILED-NOT: plan
// COMPILED: @pad nvfp4.block_scales on
// TILE-LABEL: func.func @pad
// TILE: gpu.launch_func @nvfp4_kernels::@pad_kernel blocks in (%c1{{.*}}) threads in (%c256{{.*}}) args(%arg0 : memref<200x4xf8E4M3FN>, %arg1 : memref<2x4x32x4x4xf8E4M3FN>)
// TILE-NOT: nvfp4.plan
// TILE: gpu.func @pad_kernel(%arg0: memref<200x4xf8E4M3FN>, %arg1: memref<2x4x32x4x4xf8E4M3FN>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// TILE: nvfp4.block_scales_tile ins(%arg0 : memref<200x4xf8E4M3FN>) outs(%arg1 : memref<2x4x32x4x4xf8E4M3FN>) at
// PTXAS: Compiling entry function 'pad_kernel' for 'sm_100a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

func.func @pad(%sf: memref<200x4xf8E4M3FN>, %blocked: memref<2x4x32x4x4xf8E4M3FN>) {
  nvfp4.block_scales ins(%sf : memref<200x4xf8E4M3FN>) outs(%blocked : memref<2x4x32x4x4xf8E4M3FN>)
  return
}
