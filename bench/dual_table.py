#!/usr/bin/env python3
"""Prints the gated dual GEMM table from bench/dual_gpu.sh's outputs.

  dual_table.py peers.txt ours.txt

Each peer's time is the better of back to back and CUDA-graph replay; ours
is back to back over rotating buffers (nvfp4-run --bench). "Our two GEMMs"
is twice our scaled_matmul on (M, N, K) plus silu * mul alone.
"""
import math
import re
import sys

from peers import read_dense_fp16

PEERS = ("cublas_fp16_stacked", "cublas_fp16_two", "cublaslt_fp8_stacked",
         "cublaslt_fp8_two", "silu_mul")


def main():
    peers = open(sys.argv[1]).read()
    ours = open(sys.argv[2]).read()
    dense = read_dense_fp16(peers)
    peer = {}
    for m in re.finditer(r"(\w+) M=(\d+) N=(\d+) K=(\d+): ([\d.]+) us back to "
                         r"back, ([\d.]+) us graph", peers):
        peer[(m.group(1),) + m.group(2, 3, 4)] = min(float(m.group(5)),
                                                     float(m.group(6)))
    mine = {}
    for m in re.finditer(r"bench @(dual|gemm)_(\d+)_(\d+)_(\d+) on \S+: "
                         r"([\d.]+) us per launch back to back", ours):
        mine[m.group(1, 2, 3, 4)] = float(m.group(5))
    nan = float("nan")
    print(f"dense fp16 rate in the same call: {dense:.1f} TFLOP/s")
    print("| M, N, K | ours us | TFLOP/s | % of dense fp16 | best cuBLAS fp16 "
          "us | vs it | cuBLASLt fp8 us | vs it | our 2 GEMMs + silu*mul us | "
          "vs it |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rows = 0
    for (kind, *key), us in mine.items():
        if kind != "dual":
            continue
        key = tuple(key)
        mm, nn, kk = (int(v) for v in key)
        tf = 4 * mm * nn * kk / (us * 1e-6) / 1e12
        fp16 = min(peer.get((p,) + key, nan) for p in PEERS[:2])
        fp8 = min(peer.get((p,) + key, nan) for p in PEERS[2:4])
        unfused = 2 * mine.get(("gemm",) + key, nan) + peer.get(
            ("silu_mul",) + key, nan)
        print(f"| {', '.join(key)} | {us:.2f} | {tf:.1f} | "
              f"{100 * tf / dense:.1f} % | {fp16:.2f} | {fp16 / us:.2f}x | "
              f"{fp8:.2f} | {fp8 / us:.2f}x | {unfused:.2f} | "
              f"{unfused / us:.2f}x |")
        rows += 0 if math.isnan(us) else 1
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
