#!/usr/bin/env python3
"""Writes an nvfp4 block-scaled GEMM entry function C = A * B^T.

  gen_gemm.py M N K [L [out_type [WARPGROUPS TILE_M [STAGES [K_SPLIT
              [B_PREFETCH [SPLIT_K]]]]]]] > gemm.mlir

L = 0 (the default) writes unbatched rank-2 operands. With WARPGROUPS TILE_M
(and optionally the further fields) the op carries that #nvfp4.gemm_plan,
which nvfp4-plan keeps.
"""
import sys


def gemm(m, n, k, l=0, out="f16", plan=None, name="gemm"):
    pre = f"{l}x" if l else ""
    a = f"memref<{pre}{m}x{k}xf4E2M1FN>"
    sfa = f"memref<{pre}{m}x{k // 16}xf8E4M3FN>"
    b = f"memref<{pre}{n}x{k}xf4E2M1FN>"
    sfb = f"memref<{pre}{n}x{k // 16}xf8E4M3FN>"
    c = f"memref<{pre}{m}x{n}x{out}>"
    fields = ("warpgroups", "tile_m", "stages", "k_split", "b_prefetch",
              "split_k")
    attr = (" {nvfp4.plan = #nvfp4.gemm_plan<%s>}" % ", ".join(
        f"{f} = {v}" for f, v in zip(fields, plan))) if plan else ""
    return (f"func.func @{name}(%a: {a}, %sfa: {sfa}, %b: {b}, %sfb: {sfb}, %c: {c}) {{\n"
            f"  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : {a}, {sfa}, {b}, {sfb}) outs(%c : {c}){attr}\n"
            f"  return\n}}\n")


if __name__ == "__main__":
    m, n, k = (int(x) for x in sys.argv[1:4])
    l = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    out = sys.argv[5] if len(sys.argv) > 5 else "f16"
    plan = sys.argv[6:12] if len(sys.argv) > 7 else None
    print(gemm(m, n, k, l, out, plan), end="")
