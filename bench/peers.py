#!/usr/bin/env python3
"""Peer baselines for the GEMV benchmark, measured with PyTorch on the GPU.

For each contest shape: the device copy rate (bytes read + written) and
cuBLAS fp16 batched GEMV (torch.matmul) on weights already dequantized to
fp16, timed with CUDA events over rotating buffer sets larger than L2, both
as single launches (median of 100) and back to back (median of 20 batches of
10): the two timings nvfp4-run --bench reports.

Also, per shape, the floor at that size: the copy floor is measured on a
1 GiB copy, where ramp-up and drain are amortized; a 10-30 us kernel pays
them once. A plain read of the same bytes (torch.sum over float32) and a
device copy moving the same bytes (half read, half written), back to back
over rotating buffers, show how close any kernel of that size gets.
"""
import sys

import torch

SHAPES = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4)]


def median_us(fn, sets, iters=100, batch=1):
    """Median over `iters` event pairs; each pair times `batch` back-to-back
    calls (rotating buffer sets) and the time is divided by `batch`."""
    for i in range(2 * len(sets)):
        fn(*sets[i % len(sets)])
    times = []
    for i in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for j in range(batch):
            fn(*sets[(i * batch + j) % len(sets)])
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e) * 1000.0 / batch)
    times.sort()
    return times[len(times) // 2]


def print_dense_fp16(dev):
    """Measures and prints the dense fp16 tensor rate (torch.mm on 8192^3,
    the practical ceiling), as the GEMM tables read it."""
    x = torch.randn(8192, 8192, device=dev, dtype=torch.float16)
    dense_us = median_us(lambda p, q: torch.mm(p, q), [(x, x)], iters=20)
    print(f"dense_fp16: {2 * 8192 ** 3 / (dense_us * 1e-6) / 1e12:.1f} TFLOP/s")


def read_dense_fp16(text):
    """The dense fp16 rate print_dense_fp16 printed into `text` (NaN if
    absent)."""
    import re
    m = re.search(r"dense_fp16: ([\d.]+) TFLOP/s", text)
    return float(m.group(1)) if m else float("nan")


def buffer_sets(nbytes, l2):
    """Rotating buffer sets of `nbytes` each that together exceed L2 3x."""
    return max(2, min(16, (3 * l2) // nbytes + 1))


def main():
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(dev).L2_cache_size
    n = 1 << 28
    src = torch.empty(n, dtype=torch.float32, device=dev)
    dst = torch.empty_like(src)
    copy_us = median_us(lambda a, b: b.copy_(a), [(src, dst)], iters=20)
    print(f"copy: {2 * 4 * n / (copy_us * 1e-6) / 1e12:.2f} TB/s")
    del src, dst
    for m, k, l in SHAPES:
        w_bytes = l * m * k * 2
        nsets = buffer_sets(w_bytes, l2)
        sets = []
        for _ in range(nsets):
            w = torch.randn(l, m, k, device=dev, dtype=torch.float16)
            x = torch.randn(l, k, 1, device=dev, dtype=torch.float16)
            sets.append((w, x))
        alone = median_us(lambda w, x: torch.matmul(w, x), sets)
        b2b = median_us(lambda w, x: torch.matmul(w, x), sets, iters=20, batch=10)
        print(f"cublas_fp16 M={m} K={k} L={l}: {b2b:.2f} us back to back, "
              f"{alone:.2f} us launched alone")
        del sets
        torch.cuda.empty_cache()
        # Our kernel's bytes: A and its scales, B and its scales, f16 C.
        nbytes = l * m * k // 2 + l * m * k // 16 + l * k // 2 + l * k // 16 + l * m * 2
        words = nbytes // 4
        nsets = buffer_sets(nbytes, l2)
        reads = [(torch.rand(words, device=dev),) for _ in range(nsets)]
        read_us = median_us(lambda x: torch.sum(x), reads, iters=20, batch=10)
        del reads
        copies = [(torch.rand(words // 2, device=dev), torch.empty(words // 2, device=dev))
                  for _ in range(nsets)]
        copy_size_us = median_us(lambda a, b: b.copy_(a), copies, iters=20, batch=10)
        del copies
        torch.cuda.empty_cache()
        print(f"size_floor M={m} K={k} L={l}: {nbytes} bytes; read {read_us:.2f} us, "
              f"copy {copy_size_us:.2f} us back to back")


if __name__ == "__main__":
    sys.exit(main())
