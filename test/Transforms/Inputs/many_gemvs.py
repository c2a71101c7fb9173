#!/usr/bin/env python3
"""Writes a function of N small GEMVs (one nvfp4.scaled_matmul each).

  many_gemvs.py N PATH
"""
import sys

SIG = ("%a{i}: memref<128x256xf4E2M1FN>, %sfa{i}: memref<128x16xf8E4M3FN>, "
       "%b{i}: memref<1x256xf4E2M1FN>, %sfb{i}: memref<1x16xf8E4M3FN>, "
       "%c{i}: memref<128x1xf16>")
OP = ("  nvfp4.scaled_matmul ins(%a{i}, %sfa{i}, %b{i}, %sfb{i} : "
      "memref<128x256xf4E2M1FN>, memref<128x16xf8E4M3FN>, "
      "memref<1x256xf4E2M1FN>, memref<1x16xf8E4M3FN>) "
      "outs(%c{i} : memref<128x1xf16>)")


def main():
    n, path = int(sys.argv[1]), sys.argv[2]
    with open(path, "w") as f:
        f.write("func.func @f(" +
                ", ".join(SIG.format(i=i) for i in range(n)) + ") {\n")
        f.write("\n".join(OP.format(i=i) for i in range(n)))
        f.write("\n  return\n}\n")


if __name__ == "__main__":
    main()
