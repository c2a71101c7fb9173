#!/usr/bin/env python3
"""Writes realistic inputs for examples/ffn_nvfp4.mlir (pure Python).

  python3 examples/ffn_inputs.py DIR [SEED]

nvfp4-run's random inputs are built to break kernels (every e2m1 pattern,
scales over e4m3's range, adversarial blocks), so the products of a chain
of GEMMs soon saturate the block scales of an NVFP4 intermediate. A model
layer looks different: activations of unit size and weights whose products
over K stay of unit size. This writes x ~ N(0, 1) in bf16 and weights of
random e2m1 codes with e4m3 scales of 2^-6 .. 2^-5 (K = 1024, 2048), in the
entry's argument order, and prints the --inputs list:

  nvfp4-run examples/ffn_nvfp4.mlir --inputs $(python3 examples/ffn_inputs.py /tmp/ffn)
"""
import os
import random
import struct
import sys


def write_npy(path, descr, shape, data):
    header = ("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }"
              % (descr, "".join(f"{d}, " for d in shape)))
    # The header pads to a multiple of 64 bytes with spaces and a newline.
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(data)


def bf16(value):
    """The bf16 bits of `value` (round to nearest even from f32)."""
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16


def main():
    out = sys.argv[1]
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    os.makedirs(out, exist_ok=True)
    paths = []

    def save(name, descr, shape, data):
        path = os.path.join(out, name + ".npy")
        write_npy(path, descr, shape, data)
        paths.append(path)

    tokens, hidden, ffn = 256, 1024, 2048
    save("x", "<u2", (tokens, hidden),
         b"".join(struct.pack("<H", bf16(rng.gauss(0.0, 1.0)))
                  for _ in range(tokens * hidden)))
    # e4m3 codes 0x08 (2^-6) to 0x10 (2^-5).
    for name, rows, k in (("w1", hidden, hidden), ("wg", ffn, hidden),
                          ("wu", ffn, hidden), ("wd", hidden, ffn)):
        save(name, "|u1", (rows, k // 2),
             bytes(rng.randrange(256) for _ in range(rows * k // 2)))
        save("s" + name, "|u1", (rows, k // 16),
             bytes(rng.randint(0x08, 0x10) for _ in range(rows * k // 16)))
    print(",".join(paths))


if __name__ == "__main__":
    main()
