// The toolchain path of every tcgen05 instruction the sm_100a GEMM needs
// (issue 9), before the lowering that will emit them exists: the upstream
// NVVM ops of MLIR 22, built the way docs/research/
// tcgen05-block-scale-facts.md describes one tile (TMEM allocation, the
// scales' warpx4 copy, the block-scaled MMA with block16 e4m3 scales,
// its commit to an mbarrier, the accumulator load), lower to the expected
// PTX, and ptxas accepts it for sm_100a without spills. This pins the op
// spellings (`#nvvm.block_scale_kind` becomes `#nvvm.tcgen05_mma_kind`
// after LLVM 22) and the PTX 8.8 feature the target needs.
// RUN: nvfp4-opt %s --gpu-module-to-binary=format=isa | FileCheck %s
// RUN: %if ptxas %{ nvfp4-opt %s --gpu-module-to-binary=format=isa | %python %S/Inputs/extract-ptx.py > %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_100a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: .version 8.8
// CHECK: .target sm_100a
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// CHECK: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4
// CHECK: tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK: tcgen05.ld.sync.aligned.32x32b.x4.b32
// CHECK: tcgen05.wait::ld.sync.aligned
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx88">] {
    llvm.func @tile(%adesc: i64, %bdesc: i64, %sdesc: i64, %idesc: i32, %bar: !llvm.ptr<3>, %slot: !llvm.ptr<3>, %out: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c256 = llvm.mlir.constant(256 : i32) : i32
      %true = llvm.mlir.constant(true) : i1
      nvvm.tcgen05.alloc %slot, %c256 : !llvm.ptr<3>, i32
      nvvm.tcgen05.relinquish_alloc_permit
      %base = llvm.load %slot : !llvm.ptr<3> -> i32
      %d = llvm.inttoptr %base : i32 to !llvm.ptr<6>
      %sfa_i = llvm.add %base, %c256 : i32
      %sfa = llvm.inttoptr %sfa_i : i32 to !llvm.ptr<6>
      nvvm.tcgen05.cp %sfa, %sdesc {shape = #nvvm.tcgen05_cp_shape<shape_32x128b>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>}
      nvvm.tcgen05.mma.block_scale %d, %adesc, %bdesc, %idesc, %true, %sfa, %sfa {kind = #nvvm.block_scale_kind<mxf4nvf4>, ctaGroup = #nvvm.cta_group<cta_1>, blockScale = #nvvm.tcgen05_mma_block_scale<block16>} : (!llvm.ptr<6>, i64, i64, i32, i1, !llvm.ptr<6>, !llvm.ptr<6>)
      nvvm.tcgen05.commit %bar : !llvm.ptr<3>
      %v = nvvm.tcgen05.ld %d {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<4xi32>
      nvvm.tcgen05.wait <load>
      %e = llvm.extractelement %v[%c0 : i32] : vector<4xi32>
      llvm.store %e, %out : i32, !llvm.ptr<1>
      nvvm.tcgen05.dealloc %d, %c256 : !llvm.ptr<6>, i32
      llvm.return
    }
  }
}
