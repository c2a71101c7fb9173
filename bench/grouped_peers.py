#!/usr/bin/env python3
"""Peer baselines for the grouped (mixture-of-experts) GEMM.

In one call on the GPU, for each contest grouped shape (G groups of M_g
rows, N, K) and an MoE decode shape:
- the dense fp16 tensor rate (torch.mm on 8192^3, the practical ceiling);
- torch._grouped_mm in bf16 with the offsets on the device (the MoE form);
- a padded bmm in fp16 (every group padded to the largest: the masked
  layout);
- a per-group cuBLAS loop in fp16 (one torch.mm per group);
- torch._scaled_grouped_mm in fp8 e4m3 (not exact for NVFP4 data, shown
  for reference; skipped where this torch refuses the shape);
- a device copy moving as many bytes as the FP4 weights hold (the floor
  of a call that must read every expert's weights once);
each timed back to back over rotating buffer sets larger than L2 and under
CUDA-graph replay (dual_peers.graph_us); the fastest of a few medians.
"""
import sys

import torch

from dual_peers import best_us, report
from peers import buffer_sets, print_dense_fp16

SHAPES = [
    (4096, 7168, [80, 176, 128, 72, 64, 248, 96, 160]),
    (7168, 2048, [40, 76, 168, 72, 164, 148, 196, 160]),
    (3072, 4096, [192, 320]),
    (4096, 1536, [128, 384]),
    (4096, 7168, [1, 3, 8, 2, 5, 7, 4, 6]),
]


def key_of(n, k, sizes):
    return f"N={n} K={k} M={','.join(map(str, sizes))}"


def main():
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(dev).L2_cache_size
    print_dense_fp16(dev)
    for n, k, sizes in SHAPES:
        g, rows, top = len(sizes), sum(sizes), max(sizes)
        key = key_of(n, k, sizes)
        flops = 2 * rows * n * k
        offs = torch.tensor(sizes, device=dev, dtype=torch.int32).cumsum(
            0, dtype=torch.int32)
        starts = [sum(sizes[:i]) for i in range(g)]
        nsets = buffer_sets((rows + g * n) * k * 2, l2)
        sets = []
        for _ in range(nsets):
            a = torch.randn(rows, k, device=dev, dtype=torch.bfloat16)
            b = torch.randn(g, n, k, device=dev, dtype=torch.bfloat16)
            sets.append((a, b))

        def grouped_mm(a, b):
            return torch._grouped_mm(a, b.transpose(-2, -1), offs=offs)

        report("grouped_mm_bf16", key, grouped_mm, sets, flops)
        half = [(a.half(), b.half()) for a, b in sets]
        del sets
        torch.cuda.empty_cache()

        def loop(a, b):
            return [torch.mm(a[s:s + m], b[i].t())
                    for i, (s, m) in enumerate(zip(starts, sizes))]

        report("cublas_loop_fp16", key, loop, half, flops)
        padded = []
        for a, b in half:
            ap = torch.zeros(g, top, k, device=dev, dtype=torch.float16)
            for i, (s, m) in enumerate(zip(starts, sizes)):
                ap[i, :m] = a[s:s + m]
            padded.append((ap, b))
        report("padded_bmm_fp16", key,
               lambda ap, b: torch.bmm(ap, b.transpose(-2, -1)), padded,
               flops)
        del padded
        f8 = [(a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn))
              for a, b in half]
        del half
        torch.cuda.empty_cache()
        scale_a = torch.ones(rows, device=dev, dtype=torch.float32)
        scale_b = torch.ones(g, n, device=dev, dtype=torch.float32)

        def grouped_fp8(a, b):
            return torch._scaled_grouped_mm(a, b.transpose(-2, -1), scale_a,
                                            scale_b, offs=offs,
                                            out_dtype=torch.bfloat16)

        report("scaled_grouped_mm_fp8", key, grouped_fp8, f8, flops)
        del f8
        torch.cuda.empty_cache()
        # The floor of reading the FP4 weights (values and e4m3 scales)
        # once: a device copy moving as many bytes (half read, half
        # written), as the GEMV's floor is measured.
        wbytes = g * n * k // 2 + g * n * k // 16
        copies = [(torch.empty(wbytes // 2, device=dev, dtype=torch.uint8),
                   torch.empty(wbytes // 2, device=dev, dtype=torch.uint8))
                  for _ in range(buffer_sets(wbytes, l2))]
        copy = best_us(lambda s, d: d.copy_(s), copies, iters=20, batch=10)
        print(f"weights_copy {key}: {wbytes} bytes of FP4 weights, copy "
              f"{copy:.2f} us (a copy moving as many bytes: "
              f"{wbytes / (copy * 1e-6) / 1e12:.2f} TB/s)")
        del copies
        torch.cuda.empty_cache()


if __name__ == "__main__":
    sys.exit(main())
