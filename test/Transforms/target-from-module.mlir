// One source of truth for the chip: with a gpu.module @nvfp4_kernels
// carrying an #nvvm.target in the input, nvfp4-plan and nvfp4-tile take
// its chip when given no target (a GEMM plans only for sm_90a, so the plan
// below shows which chip was used), an agreeing option is accepted, a
// conflicting one is an error, and convert-nvfp4-to-nvvm has no option at
// all: it lowers each gpu.module for its own #nvvm.target.
// RUN: nvfp4-opt %s -nvfp4-plan -nvfp4-tile | FileCheck %s
// RUN: nvfp4-opt %s -nvfp4-plan=target=sm_90a -nvfp4-tile=target=sm_90a | FileCheck %s
// RUN: nvfp4-opt %s -nvfp4-plan -nvfp4-tile -nvfp4-software-pipeline -convert-nvfp4-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: not nvfp4-opt %s -nvfp4-plan=target=sm_100a 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not nvfp4-opt %s -nvfp4-plan=target=sm_90a -nvfp4-tile=target=sm_100a 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: sed -e 's/sm_90a/sm_80/' %s | not nvfp4-opt -nvfp4-plan 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: sed -e 's/\[#nvvm.target<chip = "sm_90a">\]/[#nvvm.target<chip = "sm_90a">, #nvvm.target<chip = "sm_100a">]/' %s | not nvfp4-opt -nvfp4-plan 2>&1 | FileCheck %s --check-prefix=TWO
// A @nvfp4_kernels without an NVVM target gets the one the kernels are
// built for.
// RUN: sed -e 's/ \[#nvvm.target<chip = "sm_90a">\]//' %s | nvfp4-opt -nvfp4-plan=target=sm_90a -nvfp4-tile=target=sm_90a | FileCheck %s --check-prefix=ATTACH

// CHECK: gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">]
// CHECK: nvfp4.gemm_tile {{.*}} plan #nvfp4.kernel<mainloop = #nvfp4.wgmma_mainloop<warpgroups = 1, tile_m = 64
// NVVM: gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">]
// NVVM-NOT: nvfp4.gemm_tile
// NVVM: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CONFLICT: error: nvfp4-plan: target 'sm_100a' conflicts with the #nvvm.target chip 'sm_90a' of gpu.module @nvfp4_kernels
// TILE: error: nvfp4-tile: target 'sm_100a' conflicts with the #nvvm.target chip 'sm_90a' of gpu.module @nvfp4_kernels
// TWO: error: nvfp4-plan: gpu.module @nvfp4_kernels has #nvvm.targets for both sm_90a and sm_100a; nvfp4 builds its kernels for one chip
// ATTACH: gpu.module @nvfp4_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">]
// CHIP: error: nvfp4-plan: the #nvvm.target chip 'sm_80' is not supported; supported targets: sm_100a, sm_90a

module attributes {gpu.container_module} {
  gpu.module @nvfp4_kernels [#nvvm.target<chip = "sm_90a">] {
  }
  func.func @gemm(%a: memref<64x256xf4E2M1FN>, %sfa: memref<64x16xf8E4M3FN>, %b: memref<128x256xf4E2M1FN>, %sfb: memref<128x16xf8E4M3FN>, %c: memref<64x128xf16>) {
    nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : memref<64x256xf4E2M1FN>, memref<64x16xf8E4M3FN>, memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>) outs(%c : memref<64x128xf16>)
    return
  }
}
