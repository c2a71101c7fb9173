#!/usr/bin/env python3
"""Writes an nvfp4 batched-GEMV entry function for (M, K, L).

  gen_gemv.py [--mx] M K L [out_type [W R BYTES UNROLL [STAGE_B [K_SPLIT [ROW_GROUPS [PREFETCH [STAGES [DISTANCE]]]]]]]] > gemv.mlir

With W R BYTES UNROLL the op carries that #nvfp4.gemv_plan, which nvfp4-plan
keeps: the hook an autotuner uses. --mx writes MXFP4 (e8m0 scales per 32
values) instead of NVFP4.
"""
import sys


def gemv(m, k, l, out="f16", plan=None, mx=False):
    block, scale = (32, "f8E8M0FNU") if mx else (16, "f8E4M3FN")
    a = f"memref<{l}x{m}x{k}xf4E2M1FN>"
    sfa = f"memref<{l}x{m}x{k // block}x{scale}>"
    b = f"memref<{l}x1x{k}xf4E2M1FN>"
    sfb = f"memref<{l}x1x{k // block}x{scale}>"
    c = f"memref<{l}x{m}x1x{out}>"
    return (f"func.func @gemv(%a: {a}, %sfa: {sfa}, %b: {b}, %sfb: {sfb}, %c: {c}) {{\n"
            f"  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : {a}, {sfa}, {b}, {sfb}) outs(%c : {c})"
            + (" {nvfp4.plan = #nvfp4.gemv_plan<warps_per_cta = %s, rows_per_warp = %s, "
               "bytes_per_thread = %s, unroll = %s, stage_b = %s, k_split = %s, "
               "row_groups = %s, prefetch = %s, stages = %s, prefetch_distance = %s>}"
               % (tuple(plan[:4]) + (plan[4] if len(plan) > 4 else "false",
                                     plan[5] if len(plan) > 5 else "1",
                                     plan[6] if len(plan) > 6 else "1",
                                     plan[7] if len(plan) > 7 else "true",
                                     plan[8] if len(plan) > 8 else "0",
                                     plan[9] if len(plan) > 9 else "1"))
               if plan else "") + "\n"
            f"  return\n}}\n")


if __name__ == "__main__":
    mx = "--mx" in sys.argv[1:]
    args = [a for a in sys.argv if a != "--mx"]
    m, k, l = (int(x) for x in args[1:4])
    out = args[4] if len(args) > 4 else "f16"
    plan = args[5:15] if len(args) > 8 else None
    print(gemv(m, k, l, out, plan, mx), end="")
