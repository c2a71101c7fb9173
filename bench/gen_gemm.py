#!/usr/bin/env python3
"""Writes an nvfp4 block-scaled GEMM entry function C = A * B^T.

  gen_gemm.py M N K [L [out_type [WARPGROUPS TILE_M [STAGES [K_GROUPS
              [B_PREFETCH [SPLIT_K [PRODUCER_WARP [SPLIT_ON_CHIP
              [B_TMA]]]]]]]]]]
              > gemm.mlir   (PRODUCER_WARP, SPLIT_ON_CHIP, B_TMA: true or
              false)

L = 0 (the default) writes unbatched rank-2 operands. --blocked=a, b or ab
(anywhere) gives those operands' scales the blocked (128x4 atom) layout.
With WARPGROUPS TILE_M (and optionally the further fields) the op carries
that plan, which nvfp4-plan keeps: a #nvfp4.kernel with a
#nvfp4.wgmma_mainloop (sm_90a) and, with SPLIT_K > 1, a #nvfp4.split_k
whose splits add in a workspace, or on chip with SPLIT_ON_CHIP (each split
storing its part of the tile where TILE_M divides into 8-row parts, as the
planner does); --tcgen05=TILE_M,STAGES[,SPLIT_K[,SPLIT_ON_CHIP]]
(anywhere) gives it a #nvfp4.tcgen05_mainloop (sm_100a) instead.
--dual (anywhere) writes the gated dual GEMM C = silu(A * B1^T) * (A * B2^T)
(nvfp4.scaled_dual_matmul; a given plan's mainloop gets weights = 2).
--mx (anywhere) makes A and B MXFP4: e8m0 scales per 32 values.
out_type nvfp4 makes C NVFP4, quantized in the epilogue: e2m1 values, e4m3
`c_scales` (blocked with --blocked=c) and a per-tensor `c_global_scale`
(an input; nvfp4-run calibrates a random one from the fp32 values).
out_type mxfp4 (or mxfp4-rceil) makes C MXFP4: e8m0 `c_scales` per 32
values rounded floor (rceil), no per-tensor scale.
"""
import sys


def scales(pre, rows, k, blocked, mx=False):
    block, elem = (32, "f8E8M0FNU") if mx else (16, "f8E4M3FN")
    if blocked:
        return (f"memref<{pre}{-(-rows // 128)}x{-(-k // (4 * block))}x32x4x4"
                f"x{elem}>")
    return f"memref<{pre}{rows}x{k // block}x{elem}>"


def kernel_plan(mma, mainloop, splits, on_chip, tile_m):
    """The `nvfp4.plan` attribute: a #nvfp4.kernel of those parts."""
    plan = f"mainloop = #nvfp4.{mma}_mainloop<{mainloop}>"
    splits = int(splits)
    if splits > 1 or on_chip == "true":
        mode = ""
        if on_chip == "true":
            scatter = tile_m is not None and tile_m % (8 * splits) == 0
            mode = ", mode = scatter" if scatter else ", mode = cluster"
        plan += f", reduction = #nvfp4.split_k<splits = {splits}{mode}>"
    return f"nvfp4.plan = #nvfp4.kernel<{plan}>"


def gemm(m, n, k, l=0, out="f16", plan=None, name="gemm", blocked="",
         tcgen05=None, dual=False, mx=False):
    pre = f"{l}x" if l else ""
    a = f"memref<{pre}{m}x{k}xf4E2M1FN>"
    sfa = scales(pre, m, k, "a" in blocked, mx)
    b = f"memref<{pre}{n}x{k}xf4E2M1FN>"
    sfb = scales(pre, n, k, "b" in blocked, mx)
    quantized = out in ("nvfp4", "mxfp4", "mxfp4-rceil")
    c_mx = out.startswith("mxfp4")
    c = f"memref<{pre}{m}x{n}x{'f4E2M1FN' if quantized else out}>"
    # An FP4 C's operands: its scales and (NVFP4) per-tensor scale.
    c_args = c_outs = ""
    attrs = []
    if quantized:
        sfc = scales(pre, m, n, "c" in blocked, c_mx)
        c_args = f", %sfc: {sfc}"
        c_outs = f" c_scales(%sfc : {sfc})"
        if not c_mx:
            c_args += ", %g: memref<1xf32>"
            c_outs += " c_global_scale(%g : memref<1xf32>)"
        if out == "mxfp4-rceil":
            attrs.append("c_scale_rounding = #nvfp4.scale_rounding<rceil>")
    if plan:
        fields = ("warpgroups", "tile_m", "stages", "k_groups", "b_prefetch",
                  "split_k", "producer", "split_on_chip", "b_tma")
        f = dict(zip(fields, plan))
        mainloop = ", ".join(f"{k} = {f[k]}" for k in fields
                             if k in f and k not in ("split_k",
                                                     "split_on_chip"))
        if dual:
            mainloop += ", weights = 2"
        attrs.append(kernel_plan("wgmma", mainloop, f.get("split_k", 1),
                                 f.get("split_on_chip"), int(f["tile_m"])))
    if tcgen05:
        f = dict(zip(("tile_m", "stages", "split_k", "split_on_chip"),
                     tcgen05))
        mainloop = f"tile_m = {f['tile_m']}, stages = {f['stages']}"
        if dual:
            mainloop += ", weights = 2"
        attrs.append(kernel_plan("tcgen05", mainloop, f.get("split_k", 1),
                                 f.get("split_on_chip"), None))
    for operand in "ab":
        if operand in blocked:
            attrs.append(f"sf{operand}_layout = #nvfp4.scale_layout<blocked>")
    if quantized and "c" in blocked:
        attrs.append("c_scales_layout = #nvfp4.scale_layout<blocked>")
    attr = " {" + ", ".join(attrs) + "}" if attrs else ""
    if dual:
        return (f"func.func @{name}(%a: {a}, %sfa: {sfa}, %b1: {b}, %sfb1: {sfb}, %b2: {b}, %sfb2: {sfb}, %c: {c}{c_args}) {{\n"
                f"  nvfp4.scaled_dual_matmul ins(%a, %sfa, %b1, %sfb1, %b2, %sfb2 : {a}, {sfa}, {b}, {sfb}, {b}, {sfb}) outs(%c : {c}){c_outs}{attr}\n"
                f"  return\n}}\n")
    return (f"func.func @{name}(%a: {a}, %sfa: {sfa}, %b: {b}, %sfb: {sfb}, %c: {c}{c_args}) {{\n"
            f"  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : {a}, {sfa}, {b}, {sfb}) outs(%c : {c}){c_outs}{attr}\n"
            f"  return\n}}\n")


if __name__ == "__main__":
    blocked = ""
    tcgen05 = None
    dual = "--dual" in sys.argv
    if dual:
        sys.argv.remove("--dual")
    mx = "--mx" in sys.argv
    if mx:
        sys.argv.remove("--mx")
    for arg in list(sys.argv):
        if arg.startswith("--blocked="):
            blocked = arg.split("=", 1)[1]
            sys.argv.remove(arg)
        elif arg.startswith("--tcgen05="):
            tcgen05 = arg.split("=", 1)[1].split(",")
            sys.argv.remove(arg)
    m, n, k = (int(x) for x in sys.argv[1:4])
    l = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    out = sys.argv[5] if len(sys.argv) > 5 else "f16"
    plan = sys.argv[6:17] if len(sys.argv) > 7 else None
    print(gemm(m, n, k, l, out, plan, name="dual" if dual else "gemm",
               blocked=blocked, tcgen05=tcgen05, dual=dual, mx=mx), end="")
