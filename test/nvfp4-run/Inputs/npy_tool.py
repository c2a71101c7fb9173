#!/usr/bin/env python3
"""Tiny .npy writer/reader for the nvfp4-run tests (no numpy needed).

  npy_tool.py fill PATH DESCR SHAPE BYTE[,BYTE...]
                                           # data split in equal parts, part i
                                           # filled with BYTE i
  npy_tool.py fillf32 PATH SHAPE VALUE     # float32 array of VALUE
  npy_tool.py filli32 PATH V[,V...]        # int32 vector of the Vs
  npy_tool.py dump PATH                    # prints descr, shape, values
  npy_tool.py raw PATH TEXT                # writes TEXT as the whole file
"""
import struct
import sys


def write(path, descr, shape, data):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(data)


def itemsize(descr):
    return int(descr[2:])


def main():
    cmd = sys.argv[1]
    if cmd == "fill":
        path, descr, shape, fills = sys.argv[2:6]
        dims = [int(d) for d in shape.split("x")]
        n = 1
        for d in dims:
            n *= d
        parts = [int(b, 0) for b in fills.split(",")]
        total = n * itemsize(descr)
        assert total % len(parts) == 0, "parts must divide the data"
        data = b"".join(bytes([b]) * (total // len(parts)) for b in parts)
        write(path, descr, dims, data)
    elif cmd == "fillf32":
        path, shape, value = sys.argv[2:5]
        dims = [int(d) for d in shape.split("x")]
        n = 1
        for d in dims:
            n *= d
        write(path, "<f4", dims, struct.pack("<f", float(value)) * n)
    elif cmd == "filli32":
        path, values = sys.argv[2:4]
        parts = [int(v, 0) for v in values.split(",")]
        write(path, "<i4", [len(parts)],
              struct.pack("<%di" % len(parts), *parts))
    elif cmd == "dump":
        raw = open(sys.argv[2], "rb").read()
        hlen = struct.unpack("<H", raw[8:10])[0]
        header = raw[10:10 + hlen].decode("latin1")
        descr = header.split("'descr': '")[1].split("'")[0]
        shape = header.split("'shape': (")[1].split(")")[0]
        data = raw[10 + hlen:]
        fmt = {"<f2": "e", "<f4": "f", "|u1": "B", "<u2": "H"}[descr]
        n = len(data) // struct.calcsize(fmt)
        values = struct.unpack("<%d%s" % (n, fmt), data)
        print("descr=%s shape=(%s) n=%d" % (descr, shape, n))
        print("values:", " ".join(repr(v) for v in values[:8]))
        print("distinct:", " ".join(repr(v) for v in sorted(set(values))[:8]))
    elif cmd == "raw":
        with open(sys.argv[2], "wb") as f:
            f.write(sys.argv[3].encode("latin1"))


if __name__ == "__main__":
    main()
