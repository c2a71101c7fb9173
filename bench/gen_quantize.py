#!/usr/bin/env python3
"""Writes an nvfp4.quantize entry function.

  gen_quantize.py R K [L [in_type [LAYOUT [GLOBAL]]]] > quantize.mlir

R rows of K values (K a multiple of 16), L = 0 (the default) unbatched;
in_type f32, f16 or bf16 (default bf16); LAYOUT plain or blocked (default
plain) for the e4m3 scales; GLOBAL `global` gives the op a per-tensor scale
operand (nvfp4-run fills it with the input's amax / (448 x 6)), `device`
has the op compute that scale on the device and return it
(returns_global_scale).
--plan=WARPS,BLOCKS (anywhere) gives it that #nvfp4.quantize_plan.
--mx=floor or --mx=rceil (anywhere) quantizes to MXFP4 instead (e8m0 scales
per 32 values, K a multiple of 32, no GLOBAL) with that scale rounding.
"""
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    plan = next((a.split("=", 1)[1] for a in sys.argv[1:]
                 if a.startswith("--plan=")), None)
    mx = next((a.split("=", 1)[1] for a in sys.argv[1:]
               if a.startswith("--mx=")), None)
    block, scale = (32, "f8E8M0FNU") if mx else (16, "f8E4M3FN")
    if len(args) < 2:
        sys.exit(__doc__)
    r, k = int(args[0]), int(args[1])
    batch = int(args[2]) if len(args) > 2 else 0
    in_type = args[3] if len(args) > 3 else "bf16"
    layout = args[4] if len(args) > 4 else "plain"
    global_scale = len(args) > 5 and args[5] == "global"
    device_scale = len(args) > 5 and args[5] == "device"
    pre = f"{batch}x" if batch else ""
    x = f"memref<{pre}{r}x{k}x{in_type}>"
    q = f"memref<{pre}{r}x{k}xf4E2M1FN>"
    if layout == "blocked":
        chunks = -(-k // (4 * block))
        sf = f"memref<{pre}{-(-r // 128)}x{chunks}x32x4x4x{scale}>"
    else:
        sf = f"memref<{pre}{r}x{k // block}x{scale}>"
    attrs = []
    if mx:
        attrs.append(f"scale_rounding = #nvfp4.scale_rounding<{mx}>")
    if layout == "blocked":
        attrs.append("sf_layout = #nvfp4.scale_layout<blocked>")
    if plan:
        warps, blocks = plan.split(",")
        attrs.append(f"nvfp4.plan = #nvfp4.quantize_plan<warps_per_cta = "
                     f"{warps}, blocks_per_thread = {blocks}>")
    attr = " {" + ", ".join(attrs) + "}" if attrs else ""
    g_arg = ", %g: memref<1xf32>" if global_scale else ""
    g_use = " global_scale(%g : memref<1xf32>)" if global_scale else ""
    d_arg = ", %g: memref<1xf32>" if device_scale else ""
    d_use = " returns_global_scale(%g : memref<1xf32>)" if device_scale else ""
    print(f"func.func @quantize(%x: {x}{g_arg}, %q: {q}, %sf: {sf}{d_arg}) {{")
    print(f"  nvfp4.quantize ins(%x : {x}){g_use} outs(%q, %sf : {q}, {sf})"
          f"{d_use}{attr}")
    print("  return")
    print("}")


if __name__ == "__main__":
    main()
