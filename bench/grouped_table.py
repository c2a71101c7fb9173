#!/usr/bin/env python3
"""Prints the grouped GEMM table from bench/grouped_gpu.sh's outputs.

  grouped_table.py peers.txt ours.txt

Each peer's time is the better of back to back and CUDA-graph replay; ours
is back to back over rotating buffers (nvfp4-run --bench: the pre-pass and
the GEMM, every kernel of a call), in both forms: grouped_matmul (MoE: run-
time sizes) and grouped_problems (independent problems: static shapes, each
its own tensors), the MoE form also with B's scales blocked ("blocked").
"""
import math
import re
import sys

from peers import read_dense_fp16

PEERS = ("grouped_mm_bf16", "padded_bmm_fp16", "cublas_loop_fp16",
         "scaled_grouped_mm_fp8")


def main():
    peers = open(sys.argv[1]).read()
    ours = open(sys.argv[2]).read()
    dense = read_dense_fp16(peers)
    peer, copy = {}, {}
    for m in re.finditer(r"(\w+) N=(\d+) K=(\d+) M=([\d,]+): ([\d.]+) us back "
                         r"to back, ([\d.]+) us graph", peers):
        peer[m.group(1, 2, 3, 4)] = min(float(m.group(5)), float(m.group(6)))
    for m in re.finditer(r"weights_copy N=(\d+) K=(\d+) M=([\d,]+): \d+ bytes "
                         r"of FP4 weights, copy ([\d.]+) us", peers):
        copy[m.group(1, 2, 3)] = float(m.group(4))
    nan = float("nan")
    print(f"dense fp16 rate in the same call: {dense:.1f} TFLOP/s")
    print("| form | N, K, M_g | ours us | TFLOP/s | % dense fp16 "
          "| _grouped_mm bf16 "
          "| vs it | padded bmm | vs it | cuBLAS loop | vs it | fp8 grouped "
          "| vs it | weights copy us | % of copy floor |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = 0
    for m in re.finditer(r"bench @(grouped|blocked|problems)_(\d+)_(\d+)_"
                         r"([\d_]+) on \S+: ([\d.]+) us per launch back to "
                         r"back", ours):
        form = m.group(1)
        n, k = m.group(2), m.group(3)
        sizes = m.group(4).replace("_", ",")
        us = float(m.group(5))
        key = (n, k, sizes)
        tf = 2 * sum(int(s) for s in sizes.split(",")) * int(n) * int(k) / (
            us * 1e-6) / 1e12
        cells = []
        for p in PEERS:
            t = peer.get((p,) + key, nan)
            cells.append(f"{t:.2f} | {t / us:.2f}x")
        floor = copy.get(key, nan)
        print(f"| {form} | {n}, {k}, [{sizes}] | {us:.2f} | {tf:.1f} | "
              f"{100 * tf / dense:.1f} % | " + " | ".join(cells) +
              f" | {floor:.2f} | {100 * floor / us:.1f} % |")
        rows += 0 if math.isnan(us) else 1
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
