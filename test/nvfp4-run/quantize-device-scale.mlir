// A quantize that computes its per-tensor scale: g = amax / (448 x 6) is
// an output. 5376.0 everywhere gives g = 2.0, block scales (5376 / 6) / 2
// = 448 (e4m3 0x7E) and values 5376 / (448 x 2) = 6 (nibbles 0x7).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy_tool.py fillf32 %t/x.npy 2x4x64 5376.0
// RUN: nvfp4-run %s --cpu --inputs %t/x.npy --output %t/q.npy,%t/sf.npy,%t/g.npy | FileCheck %s --check-prefix=CPU
// RUN: %python %S/Inputs/npy_tool.py dump %t/g.npy | FileCheck %s --check-prefix=G
// RUN: %python %S/Inputs/npy_tool.py dump %t/sf.npy | FileCheck %s --check-prefix=SF
// RUN: %python %S/Inputs/npy_tool.py dump %t/q.npy | FileCheck %s --check-prefix=Q
// CPU: @quantize nvfp4.quantize on cpu-reference
// G: distinct: 2.0{{$}}
// SF: distinct: 126{{$}}
// Q: distinct: 119{{$}}

// Random inputs (with infinities and NaN, which the amax skips) run too;
// g is the one input nvfp4-run does not make, it is an output.
// RUN: nvfp4-run %s --cpu --seed 3 | FileCheck %s --check-prefix=CPU

// The kernels: zero g, the amax (one atomic unsigned max a CTA), g / 2688,
// then the quantization, on both targets.
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_90a format=isa" | FileCheck %s --check-prefix=PTX
// RUN: nvfp4-opt %s --nvfp4-pipeline="target=sm_100a format=isa" | FileCheck %s --check-prefix=PTX
// PTX: .entry quantize_kernel_zero(
// PTX: .entry quantize_kernel_amax(
// PTX: atom.global.max.u32
// PTX: .entry quantize_kernel_finalize(
// PTX: div.rn.f32 {{.*}}0f45280000
// PTX: .entry quantize_kernel(

func.func @quantize(%x: memref<2x4x64xf32>, %q: memref<2x4x64xf4E2M1FN>,
                    %sf: memref<2x4x4xf8E4M3FN>, %g: memref<1xf32>) {
  nvfp4.quantize ins(%x : memref<2x4x64xf32>)
      outs(%q, %sf : memref<2x4x64xf4E2M1FN>, memref<2x4x4xf8E4M3FN>)
      returns_global_scale(%g : memref<1xf32>)
  return
}
