#!/usr/bin/env python3
"""Prints the GEMM benchmark table from bench/gemm_gpu.sh's outputs.

  gemm_table.py peers.txt ours.txt
"""
import re
import sys

from peers import read_dense_fp16


def main():
    peers = open(sys.argv[1]).read()
    ours = open(sys.argv[2]).read()
    dense = read_dense_fp16(peers)
    peer = {}
    for m in re.finditer(r"(\w+) M=(\d+) N=(\d+) K=(\d+): ([\d.]+) us back to back, "
                         r"([\d.]+) us launched alone", peers):
        peer[(m.group(1),) + m.group(2, 3, 4)] = (float(m.group(5)), float(m.group(6)))
    nan = (float("nan"), float("nan"))
    print(f"dense fp16 rate in the same call: {dense:.1f} TFLOP/s")
    print("| M, N, K | ours b2b us | ours alone us | TFLOP/s | % of dense fp16 | "
          "cuBLAS fp16 b2b / alone us | vs cuBLAS fp16 | cuBLASLt fp8 b2b us | vs fp8 | "
          "Triton b2b us | vs Triton |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows = 0
    for m in re.finditer(r"bench @gemm_(\d+)_(\d+)_(\d+) on (\S+): ([\d.]+) us per launch back "
                         r"to back.*?, ([\d.]+) us launched alone", ours):
        key = m.group(1, 2, 3)
        b2b, alone = float(m.group(5)), float(m.group(6))
        mm, nn, kk = (int(v) for v in key)
        tf = 2 * mm * nn * kk / (b2b * 1e-6) / 1e12
        cb = peer.get(("cublas_fp16",) + key, nan)
        f8 = peer.get(("cublaslt_fp8",) + key, nan)
        tr = peer.get(("triton_mxfp4",) + key, nan)
        print(f"| {', '.join(key)} | {b2b:.2f} | {alone:.2f} | {tf:.1f} | {100 * tf / dense:.1f} % | "
              f"{cb[0]:.2f} / {cb[1]:.2f} | {cb[0] / b2b:.2f}x | {f8[0]:.2f} | {f8[0] / b2b:.2f}x | "
              f"{tr[0]:.2f} | {tr[0] / b2b:.2f}x |")
        rows += 1
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
