#!/usr/bin/env python3
"""Peer baselines for the GEMM benchmark, measured with PyTorch and Triton.

In one call on the GPU, for each contest GEMM shape (M, N, K):
- the dense fp16 tensor rate (torch.mm on 8192^3, the practical ceiling);
- cuBLAS fp16 on operands already dequantized (torch.matmul);
- cuBLASLt fp8 e4m3 (torch._scaled_mm), the low-precision GEMM a Hopper
  user would pick (not exact for NVFP4 data);
- a Triton kernel with tl.dot_scaled on e2m1 operands (MXFP4: e8m0 scales
  per 32; Triton upcasts on Hopper), autotuned over a few tile configs;
each back to back over rotating buffer sets larger than L2 (median of 20
batches of 10) and launched alone (median of 100), like nvfp4-run --bench.
Each peer's medians are taken REPEATS times and the fastest is reported:
cuBLAS took 16.3 us on 128x7168x2048 in one call and 28.5 in another
(performance.md, GEMM v34), and a peer's ratio should be against its best.
"""
import sys

import torch

from peers import buffer_sets, median_us, print_dense_fp16

SHAPES = [(128, 7168, 16384), (128, 4096, 7168), (128, 7168, 2048)]
REPEATS = 3


def best_us(f, sets, **kw):
    """The fastest of REPEATS medians (median_us's arguments)."""
    return min(median_us(f, sets, **kw) for _ in range(REPEATS))


def triton_peer():
    import triton
    import triton.language as tl

    configs = [triton.Config({"BM": bm, "BN": bn, "BK": bk}, num_warps=w, num_stages=s)
               for bm in (64, 128) for bn in (64, 128) for bk in (128, 256)
               for w, s in ((4, 3), (8, 4))]

    @triton.autotune(configs=configs, key=["M", "N", "K"])
    @triton.jit
    def kernel(a, sa, b, sb, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            rk = k0 // 2 + tl.arange(0, BK // 2)
            rs = k0 // 32 + tl.arange(0, BK // 32)
            av = tl.load(a + rm[:, None] * (K // 2) + rk[None, :])
            bv = tl.load(b + rn[None, :] * (K // 2) + rk[:, None])
            asv = tl.load(sa + rm[:, None] * (K // 32) + rs[None, :])
            bsv = tl.load(sb + rn[:, None] * (K // 32) + rs[None, :])
            acc = tl.dot_scaled(av, asv, "e2m1", bv, bsv, "e2m1", acc)
        tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

    def run(a, sa, b, sb, c):
        m, n, k = a.shape[0], b.shape[0], a.shape[1] * 2
        grid = lambda meta: (m // meta["BM"], n // meta["BN"])
        kernel[grid](a, sa, b, sb, c, m, n, k)
    return run


def main():
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(dev).L2_cache_size
    print_dense_fp16(dev)
    try:
        triton_run = triton_peer()
    except Exception as e:  # reported, not hidden
        triton_run = None
        print(f"triton: unavailable ({type(e).__name__}: {e})")
    for m, n, k in SHAPES:
        flops = 2 * m * n * k
        nsets = buffer_sets((m + n) * k * 2, l2)
        sets = [(torch.randn(m, k, device=dev, dtype=torch.float16),
                 torch.randn(n, k, device=dev, dtype=torch.float16)) for _ in range(nsets)]
        f = lambda a, b: torch.matmul(a, b.t())
        alone, b2b = best_us(f, sets), best_us(f, sets, iters=20, batch=10)
        print(f"cublas_fp16 M={m} N={n} K={k}: {b2b:.2f} us back to back, {alone:.2f} us "
              f"launched alone ({flops / (b2b * 1e-6) / 1e12:.1f} TFLOP/s)")
        f8 = [(a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)) for a, b in sets]
        one = torch.tensor(1.0, device=dev)
        g = lambda a, b: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one,
                                          out_dtype=torch.float16)
        alone, b2b = best_us(g, f8), best_us(g, f8, iters=20, batch=10)
        print(f"cublaslt_fp8 M={m} N={n} K={k}: {b2b:.2f} us back to back, {alone:.2f} us "
              f"launched alone ({flops / (b2b * 1e-6) / 1e12:.1f} TFLOP/s)")
        del sets, f8
        torch.cuda.empty_cache()
        if triton_run is None:
            continue
        try:
            nsets = buffer_sets((m + n) * k // 2, l2)
            u8 = lambda *s: torch.randint(0, 256, s, device=dev, dtype=torch.uint8)
            sc = lambda *s: torch.randint(120, 130, s, device=dev, dtype=torch.uint8)
            tsets = [(u8(m, k // 2), sc(m, k // 32), u8(n, k // 2), sc(n, k // 32),
                      torch.empty(m, n, device=dev, dtype=torch.float16))
                     for _ in range(nsets)]
            triton_run(*tsets[0])  # autotune outside the timing
            alone = best_us(triton_run, tsets)
            b2b = best_us(triton_run, tsets, iters=20, batch=10)
            print(f"triton_mxfp4 M={m} N={n} K={k}: {b2b:.2f} us back to back, {alone:.2f} us "
                  f"launched alone ({flops / (b2b * 1e-6) / 1e12:.1f} TFLOP/s)")
            del tsets
            torch.cuda.empty_cache()
        except Exception as e:
            print(f"triton_mxfp4 M={m} N={n} K={k}: failed ({type(e).__name__}: {e})")


if __name__ == "__main__":
    sys.exit(main())
