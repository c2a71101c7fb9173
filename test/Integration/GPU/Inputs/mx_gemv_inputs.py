#!/usr/bin/env python3
"""Writes MXFP4 GEMV inputs whose scales sit at both ends of e8m0's range:
A's codes drawn from [LO_A, HI_A], B's from [LO_B, HI_B], random e2m1
bytes. With A near 2^127 and B near 2^-127 every value alone is huge or
tiny while each block's exact product is moderate: what the GEMV's split
scaling (and the reference's exact blocks) exist for.

  mx_gemv_inputs.py OUTDIR L M K LO_A HI_A LO_B HI_B SEED [N]

N (default 1) rows of B make them a GEMM's inputs.
"""
import os
import random
import sys

import numpy as np


def main():
    out = sys.argv[1]
    l, m, k, lo_a, hi_a, lo_b, hi_b, seed = (int(v) for v in sys.argv[2:10])
    n = int(sys.argv[10]) if len(sys.argv) > 10 else 1
    rng = random.Random(seed)

    def data(shape):
        n = int(np.prod(shape))
        return np.frombuffer(bytes(rng.getrandbits(8) for _ in range(n)),
                             dtype=np.uint8).reshape(shape)

    def codes(shape, lo, hi):
        n = int(np.prod(shape))
        return np.array([rng.randint(lo, hi) for _ in range(n)],
                        dtype=np.uint8).reshape(shape)

    np.save(os.path.join(out, "a.npy"), data((l, m, k // 2)))
    np.save(os.path.join(out, "sfa.npy"), codes((l, m, k // 32), lo_a, hi_a))
    np.save(os.path.join(out, "b.npy"), data((l, n, k // 2)))
    np.save(os.path.join(out, "sfb.npy"), codes((l, n, k // 32), lo_b, hi_b))


if __name__ == "__main__":
    main()
