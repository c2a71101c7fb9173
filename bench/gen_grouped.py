#!/usr/bin/env python3
"""Writes an nvfp4 grouped (mixture-of-experts) GEMM entry function.

  gen_grouped.py N K M1,M2,...[,...] [out_type] [--mmax=ROWS]
                 [--blocked=b] [--plan=WARPGROUPS,TILE_M,STAGES,K_GROUPS,
                 B_PREFETCH,B_TMA] [--name=NAME] [--mx] > grouped.mlir

G = the number of sizes; the sizes are the op's size_hint (what the
planner sees) and what nvfp4-run writes into the run-time offsets unless
--group-sizes or an offsets file says otherwise: the same compiled kernel
runs any sizes summing to at most Mmax (--mmax, default their sum). A is
Mmax x K (the groups' rows stacked), B is G x N x K, C is Mmax x N.
--blocked=b gives B's scales the blocked (128x4 atom) layout (A's are
always plain: a group starts at any row). --plan gives the op a
#nvfp4.kernel plan with a #nvfp4.wgmma_mainloop, which nvfp4-plan keeps.
--mx makes A and B MXFP4 (e8m0 scales per 32 values).
"""
import sys


def wgmma_plan(plan):
    """The nvfp4.plan attribute of a #nvfp4.wgmma_mainloop from WARPGROUPS,
    TILE_M, STAGES, K_GROUPS, B_PREFETCH, B_TMA (a producer with a ring)."""
    fields = ("warpgroups", "tile_m", "stages", "k_groups", "b_prefetch",
              "b_tma")
    mainloop = ", ".join(f"{f} = {v}" for f, v in zip(fields, plan))
    producer = "true" if int(plan[2]) > 0 else "false"
    return ("nvfp4.plan = #nvfp4.kernel<mainloop = "
            f"#nvfp4.wgmma_mainloop<{mainloop}, producer = {producer}>>")


def split_options(argv):
    """argv's --key=value options (a dict) and positional arguments."""
    options = {}
    positional = []
    for arg in argv[1:]:
        if arg.startswith("--"):
            key, _, value = arg[2:].partition("=")
            options[key] = value
        else:
            positional.append(arg)
    return options, positional


def grouped(n, k, sizes, out="f16", mmax=None, blocked=False, plan=None,
            name="grouped", mx=False):
    block, elem = (32, "f8E8M0FNU") if mx else (16, "f8E4M3FN")
    g = len(sizes)
    rows = mmax if mmax is not None else max(sum(sizes), 1)
    a = f"memref<{rows}x{k}xf4E2M1FN>"
    sfa = f"memref<{rows}x{k // block}x{elem}>"
    b = f"memref<{g}x{n}x{k}xf4E2M1FN>"
    if blocked:
        sfb = (f"memref<{g}x{-(-n // 128)}x{-(-k // (4 * block))}x32x4x4"
               f"x{elem}>")
    else:
        sfb = f"memref<{g}x{n}x{k // block}x{elem}>"
    offsets = f"memref<{g + 1}xi32>"
    c = f"memref<{rows}x{n}x{out}>"
    attrs = ["size_hint = array<i64: " + ", ".join(map(str, sizes)) + ">"]
    if blocked:
        attrs.append("sfb_layout = #nvfp4.scale_layout<blocked>")
    if plan:
        attrs.append(wgmma_plan(plan))
    return (f"func.func @{name}(%a: {a}, %sfa: {sfa}, %b: {b}, %sfb: {sfb}, "
            f"%offsets: {offsets}, %c: {c}) {{\n"
            f"  nvfp4.grouped_matmul ins(%a, %sfa, %b, %sfb, %offsets : {a}, "
            f"{sfa}, {b}, {sfb}, {offsets}) outs(%c : {c}) "
            "{" + ", ".join(attrs) + "}\n"
            "  return\n}\n")


def main(argv):
    options, positional = split_options(argv)
    if len(positional) < 3 or len(positional) > 4:
        sys.exit(__doc__)
    n, k = int(positional[0]), int(positional[1])
    sizes = [int(m) for m in positional[2].split(",")]
    out = positional[3] if len(positional) > 3 else "f16"
    plan = options.get("plan")
    print(grouped(n, k, sizes, out,
                  int(options["mmax"]) if "mmax" in options else None,
                  options.get("blocked") == "b",
                  plan.split(",") if plan else None,
                  options.get("name", "grouped"), "mx" in options), end="")


if __name__ == "__main__":
    main(sys.argv)
