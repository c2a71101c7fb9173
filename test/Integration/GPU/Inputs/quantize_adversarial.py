#!/usr/bin/env python3
"""Writes the inputs of quantize-adversarial.test: DIR/x.npy, f32 rows of 16
blocks of 16 values that hit every rounding decision of nvfp4.quantize at
scale 2^e, and DIR/g_<name>.npy per-tensor scales that take the kernel off
its reciprocal path (below 2^-64, above 2^64, zero, NaN, infinite,
negative) or keep it on (1, a generic value).

  quantize_adversarial.py DIR
"""
import os
import sys

import numpy as np


def rows():
    ties = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0]
    out = []
    for e in range(-12, 13, 3):
        m = np.float32(2.0 ** e)
        block = [6 * m] + [t * m for t in ties]
        block += [np.nextafter(np.float32(t * m), np.float32(0)) for t in ties]
        block += [-6 * m]
        out.append(block)
        block = [-(6 * m)] + [-t * m for t in ties]
        block += [np.nextafter(np.float32(t * m), np.float32(16 * m))
                  for t in ties]
        block += [np.float32(-0.0)]
        out.append(block)
    out.append([0.0] * 16)
    out.append([np.inf] + [1.0] * 15)
    out.append([-np.inf, np.nan] + [-2.0] * 14)
    out.append([np.nan] * 16)
    # NaN with the sign bit set: still 0x7 (e2m1 has no NaN; the sign
    # is not kept).
    neg_nan = np.array([0xFFC00000], dtype=np.uint32).view(np.float32)[0]
    out.append([neg_nan, -3.0, neg_nan, 0.5] * 4)
    out.append([1e-30 * (i - 7.5) for i in range(16)])
    out.append([3e38 * (1 if i % 2 else -1) for i in range(16)])
    out.append([1e-44 * i for i in range(16)])  # f32 subnormals
    out.append([448 * 6 * 1.001] + [1.0] * 15)  # the scale saturates
    # Then ordinary blocks, to 40 rows of 4 blocks (K = 64).
    rng = np.random.default_rng(7)
    while len(out) < 160:
        out.append(list(rng.standard_normal(16) * 2.0 ** rng.integers(-8, 9)))
    x = np.array(out, dtype=np.float32)
    return x.reshape(40, 64)


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "x.npy"), rows())
    for name, g in [("one", 1.0), ("generic", 0.0371), ("tiny", 1e-30),
                    ("huge", 1e30), ("zero", 0.0), ("nan", np.nan),
                    ("inf", np.inf), ("negative", -0.5),
                    ("subnormal", 1e-42)]:
        np.save(os.path.join(d, f"g_{name}.npy"),
                np.array([g], dtype=np.float32))


if __name__ == "__main__":
    main()
