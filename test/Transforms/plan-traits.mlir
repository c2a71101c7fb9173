// nvfp4-plan plans the ops that have the KernelLevel trait (but not
// PlanFree), and nvfp4-tile tiles them; both leave CTA-level ops (ring,
// wgmma, tcgen05 ops, made by the later stages) and host-side ops such as
// nvfp4.tensor_map alone, whatever module they are in. (Before the traits,
// a hand-kept list sent a ring op to the "no kernel yet" error.)
// RUN: nvfp4-opt %s --nvfp4-plan=target=sm_90a --nvfp4-tile=target=sm_90a | FileCheck %s
// CHECK-LABEL: func.func @host
// CHECK: nvfp4.tensor_map %arg0
// CHECK-LABEL: gpu.func @later_stage
// CHECK: nvfp4.ring.alloc
// CHECK: nvfp4.ring.release
func.func @host(%w: memref<32768xi8>) -> !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b> {
  %m = nvfp4.tensor_map %w : memref<32768xi8> -> !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>
  return %m : !nvfp4.tensor_map<256x64xf16, box = [64, 64], swizzle = swizzle_128b>
}
gpu.module @later [#nvvm.target<chip = "sm_90a">] {
  gpu.func @later_stage(%s: i32) kernel {
    %r = nvfp4.ring.alloc : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>
    nvfp4.ring.release %r[%s] : !nvfp4.ring<stages = 2, slot_bytes = 8192, consumers = 1>
    gpu.return
  }
}
