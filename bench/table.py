#!/usr/bin/env python3
"""Prints the GEMV benchmark table from bench/gemv_gpu.sh's outputs.

  table.py peers.txt ours.txt
"""
import re
import sys


def main():
    peers = open(sys.argv[1]).read()
    ours = open(sys.argv[2]).read()
    cublas = {}
    for m in re.finditer(r"cublas_fp16 M=(\d+) K=(\d+) L=(\d+): ([\d.]+) us back to back, "
                         r"([\d.]+) us launched alone", peers):
        cublas[m.group(1, 2, 3)] = (float(m.group(4)), float(m.group(5)))
    size = {}
    for m in re.finditer(r"size_floor M=(\d+) K=(\d+) L=(\d+): \d+ bytes; read ([\d.]+) us, "
                         r"copy ([\d.]+) us", peers):
        size[m.group(1, 2, 3)] = (float(m.group(4)), float(m.group(5)))
    rows = []
    for m in re.finditer(r"bench @gemv_(\d+)_(\d+)_(\d+) on (\S+): ([\d.]+) us per launch back to back"
                         r".*?, ([\d.]+) us launched alone.*?floor ([\d.]+) us .*?= ([\d.]+)% of floor",
                         ours):
        key = m.group(1, 2, 3)
        b2b, alone, floor, pct = (float(m.group(i)) for i in (5, 6, 7, 8))
        cb, ca = cublas.get(key, (float("nan"), float("nan")))
        rows.append((key, floor, b2b, pct, alone, cb, ca) + size.get(key, (float("nan"),) * 2))
    print("| M, K, L | floor us | ours b2b us | % of floor | ours alone us | "
          "cuBLAS b2b us | cuBLAS alone us | vs cuBLAS b2b | vs cuBLAS alone | "
          "same-size read us | same-size copy us | read / ours |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key, floor, b2b, pct, alone, cb, ca, rd, cp in rows:
        print(f"| {', '.join(key)} | {floor:.2f} | {b2b:.2f} | {pct:.1f} % | {alone:.2f} | "
              f"{cb:.2f} | {ca:.2f} | {cb / b2b:.2f}x | {ca / alone:.2f}x | "
              f"{rd:.2f} | {cp:.2f} | {100 * rd / b2b:.1f} % |")
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
