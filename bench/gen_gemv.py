#!/usr/bin/env python3
"""Writes an nvfp4 batched-GEMV entry function for (M, K, L).

  gen_gemv.py M K L [out_type] > gemv.mlir
"""
import sys


def gemv(m, k, l, out="f16"):
    a = f"memref<{l}x{m}x{k}xf4E2M1FN>"
    sfa = f"memref<{l}x{m}x{k // 16}xf8E4M3FN>"
    b = f"memref<{l}x1x{k}xf4E2M1FN>"
    sfb = f"memref<{l}x1x{k // 16}xf8E4M3FN>"
    c = f"memref<{l}x{m}x1x{out}>"
    return (f"func.func @gemv(%a: {a}, %sfa: {sfa}, %b: {b}, %sfb: {sfb}, %c: {c}) {{\n"
            f"  nvfp4.scaled_matmul ins(%a, %sfa, %b, %sfb : {a}, {sfa}, {b}, {sfb}) outs(%c : {c})\n"
            f"  return\n}}\n")


if __name__ == "__main__":
    m, k, l = (int(x) for x in sys.argv[1:4])
    print(gemv(m, k, l, sys.argv[4] if len(sys.argv) > 4 else "f16"), end="")
