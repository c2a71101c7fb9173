#!/usr/bin/env python3
"""Writes an nvfp4 grouped GEMM of independent problems (grouped_problems).

  gen_problems.py M1,M2,... N1,N2,... K1,K2,... [out_type] [--blocked=ab]
                  [--mx] [--plan=WARPGROUPS,TILE_M,STAGES,K_GROUPS,
                  B_PREFETCH,B_TMA] [--name=NAME] > problems.mlir

  gen_problems.py --contest=I [...]   the contest's test case I (0-9) or
                                      benchmark case I (b0-b3)

Problem g multiplies A_g (M_g x K_g) by B_g^T (B_g: N_g x K_g) into C_g
(M_g x N_g), each with its own tensors; a single N or K applies to every
problem. --blocked=a / b / ab gives A's / B's scales the blocked (128x4
atom) layout. --mx makes the operands MXFP4 (e8m0 scales per 32 values).
--plan gives the op a #nvfp4.kernel plan with a #nvfp4.wgmma_mainloop
(a producer when STAGES > 0), which nvfp4-plan keeps.
"""
import sys

from gen_grouped import split_options, wgmma_plan

# The contest's grouped GEMM cases (reference-kernels, nvfp4_group_gemm
# task.yml): (M per group, N per group, K per group).
CONTEST = {
    "0": ([96, 128], [128, 256], [128, 512]),
    "1": ([256, 72], [512, 384], [256, 256]),
    "2": ([128, 128], [128, 256], [128, 512]),
    "3": ([80, 128, 256], [384, 256, 128], [256, 512, 128]),
    "4": ([64, 72, 96], [128, 384, 512], [384, 512, 128]),
    "5": ([64, 256, 128], [768, 128, 256], [512, 512, 128]),
    "6": ([128, 128, 64], [256, 512, 512], [768, 128, 768]),
    "7": ([128] * 4, [128] * 4, [128] * 4),
    "8": ([40, 56, 384, 512], [512, 384, 256, 128], [256] * 4),
    "9": ([512, 384, 256, 128], [256] * 4, [512, 128, 512, 128]),
    "b0": ([80, 176, 128, 72, 64, 248, 96, 160], [4096] * 8, [7168] * 8),
    "b1": ([40, 76, 168, 72, 164, 148, 196, 160], [7168] * 8, [2048] * 8),
    "b2": ([192, 320], [3072] * 2, [4096] * 2),
    "b3": ([128, 384], [4096] * 2, [1536] * 2),
}


def scales(rows, k, block, elem, blocked):
    if blocked:
        return (f"memref<{-(-rows // 128)}x{-(-k // (4 * block))}x32x4x4"
                f"x{elem}>")
    return f"memref<{rows}x{k // block}x{elem}>"


def problems(ms, ns, ks, out="f16", blocked="", mx=False, plan=None,
             name="problems"):
    block, elem = (32, "f8E8M0FNU") if mx else (16, "f8E4M3FN")
    g = len(ms)
    ns = ns * g if len(ns) == 1 else ns
    ks = ks * g if len(ks) == 1 else ks
    if len(ns) != g or len(ks) != g:
        sys.exit("gen_problems.py: give one N and one K, or one per problem")
    roles = {"a": [], "sfa": [], "b": [], "sfb": [], "c": []}
    for m, n, k in zip(ms, ns, ks):
        roles["a"].append(f"memref<{m}x{k}xf4E2M1FN>")
        roles["sfa"].append(scales(m, k, block, elem, "a" in blocked))
        roles["b"].append(f"memref<{n}x{k}xf4E2M1FN>")
        roles["sfb"].append(scales(n, k, block, elem, "b" in blocked))
        roles["c"].append(f"memref<{m}x{n}x{out}>")
    args, lists = [], {}
    for role, types in roles.items():
        names = [f"%{role}{i}" for i in range(g)]
        args += [f"{v}: {t}" for v, t in zip(names, types)]
        lists[role] = f"{', '.join(names)} : {', '.join(types)}"
    attrs = []
    if "a" in blocked:
        attrs.append("sfa_layout = #nvfp4.scale_layout<blocked>")
    if "b" in blocked:
        attrs.append("sfb_layout = #nvfp4.scale_layout<blocked>")
    if plan:
        attrs.append(wgmma_plan(plan))
    attr_dict = " {" + ", ".join(attrs) + "}" if attrs else ""
    return (f"func.func @{name}({', '.join(args)}) {{\n"
            f"  nvfp4.grouped_problems a({lists['a']})\n"
            f"      sfa({lists['sfa']})\n"
            f"      b({lists['b']})\n"
            f"      sfb({lists['sfb']})\n"
            f"      outs({lists['c']}){attr_dict}\n"
            "  return\n}\n")


def main(argv):
    options, positional = split_options(argv)
    if "contest" in options:
        if options["contest"] not in CONTEST:
            sys.exit(__doc__)
        ms, ns, ks = CONTEST[options["contest"]]
        out = positional[0] if positional else "f16"
    else:
        if len(positional) < 3 or len(positional) > 4:
            sys.exit(__doc__)
        ms, ns, ks = ([int(v) for v in p.split(",")] for p in positional[:3])
        out = positional[3] if len(positional) > 3 else "f16"
    plan = options.get("plan")
    print(problems(ms, ns, ks, out, options.get("blocked", ""),
                   "mx" in options, plan.split(",") if plan else None,
                   options.get("name", "problems")), end="")


if __name__ == "__main__":
    main(sys.argv)
