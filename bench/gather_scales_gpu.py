#!/usr/bin/env python3
"""Runs the kernels of bench/gather_scales_kernels.mlir (nvfp4.gather_scales_tile,
the sm_100a grouped GEMM's gather of A's scales, lowered for sm_90a: the
same plain loads and stores on every target) on the GPU and compares every
byte with the op's definition, for several offset vectors (invalid ones
included). Exits 1 on any difference, 2 without a GPU.

  nvfp4-opt bench/gather_scales_kernels.mlir \
      --nvfp4-pipeline="target=sm_90a format=isa" | bench/ptx_of.py > g.ptx
  bench/gather_scales_gpu.py g.ptx
"""
import ctypes
import sys

import numpy as np
import torch

POISON = 0xAB


def group_rows(offsets, rows):
    """nvfp4.grouped_matmul's clamped, monotonic groups [begin, end)."""
    clamp = [min(max(int(o), 0), rows) for o in offsets]
    out, begin = [], clamp[0]
    for o in clamp[1:]:
        end = max(begin, o)
        out.append((begin, end))
        begin = end
    return out


def expected(src, offsets, tiles, tile_m, dst_blocks, chunks):
    """The op's definition: tile t's rows [begin, end) of the plain source
    into blocked rows t * tile_m + j (zero past end and past the source's
    chunks); rows of empty tiles keep the poison."""
    rows, cols = src.shape
    out = np.full(dst_blocks * chunks * 512, POISON, np.uint8)
    t = 0
    for begin, end in group_rows(offsets, rows):
        for first in range(begin, end, tile_m):
            for j in range(tile_m):
                r = t * tile_m + j
                for c in range(chunks * 4):
                    v = src[first + j, c] if first + j < end and c < cols else 0
                    at = ((r // 128) * chunks + c // 4) * 512 + \
                        (r % 32) * 16 + ((r % 128) // 32) * 4 + c % 4
                    out[at] = v
            t += 1
    assert t <= tiles
    return out


def main():
    if not torch.cuda.is_available():
        print("gather_scales_gpu: no GPU")
        return 2
    ptx = open(sys.argv[1], "rb").read() + b"\0"
    torch.cuda.init()
    torch.zeros(1, device="cuda")  # the primary context, current
    cuda = ctypes.CDLL("libcuda.so.1")
    module = ctypes.c_void_p()
    assert cuda.cuModuleLoadData(ctypes.byref(module), ptx) == 0
    # name, source (rows, columns), tile_m, destination (blocks, chunks)
    kernels = [(b"gather128", (300, 20), 128, (5, 8)),
               (b"gather64", (300, 32), 64, (4, 8))]
    cases = [[0, 80, 80, 300], [0, 1, 130, 257], [37, 37, 200, 200],
             [-5, 50, 30, 1000], [300, 10, 20, 30], [0, 128, 256, 300]]
    rng = np.random.default_rng(7)
    bad = runs = 0
    for name, (rows, cols), tile_m, (blocks, chunks) in kernels:
        fn = ctypes.c_void_p()
        assert cuda.cuModuleGetFunction(ctypes.byref(fn), module, name) == 0
        tiles = min((rows + tile_m - 1) // tile_m + 2, rows)
        for offsets in cases:
            src = rng.integers(0, 256, (rows, cols), dtype=np.uint8)
            d_src = torch.from_numpy(src).cuda()
            d_dst = torch.full((blocks * chunks * 512,), POISON,
                               dtype=torch.uint8, device="cuda")
            d_off = torch.tensor(offsets, dtype=torch.int32, device="cuda")
            ptrs = [ctypes.c_void_p(t.data_ptr()) for t in (d_src, d_dst, d_off)]
            params = (ctypes.c_void_p * 3)(
                *[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in ptrs])
            assert cuda.cuLaunchKernel(fn, 1, tiles, 1, 128, 1, 1, 0, None,
                                       params, None) == 0
            torch.cuda.synchronize()
            got = d_dst.cpu().numpy()
            want = expected(src, offsets, tiles, tile_m, blocks, chunks)
            diff = int((got != want).sum())
            runs += 1
            bad += diff != 0
            print(f"{name.decode()} offsets {offsets}: "
                  f"{'OK' if diff == 0 else f'{diff} bytes differ'}")
    print(f"gather_scales_gpu: {runs - bad} of {runs} runs bit for bit")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
