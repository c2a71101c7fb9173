#!/usr/bin/env python3
"""Peers of nvfp4.quantize (bf16 rows to NVFP4 with a per-tensor scale and
plain e4m3 block scales), measured with PyTorch and Triton on the GPU:

- the copy floor at that size: a device copy moving the kernel's bytes
  (bf16 read; packed values and scales written), back to back over
  rotating buffer sets larger than L2;
- torch eager: amax per block, the e4m3 scale through a cast to
  float8_e4m3fn, the division, the e2m1 rounding (ties to even) by
  bucketize over the thresholds, and the nibbles packed;
- a Triton kernel (below): the same formulas in one kernel, each program
  a tile of blocks.

Both peers are checked against each other (bit for bit) before timing.
Prints one line per peer and shape; bench/quantize_gpu.sh tabulates them
with nvfp4-run --bench.
"""
import sys

import torch
import triton
import triton.language as tl

from peers import buffer_sets, median_us

SHAPES = [(16384, 7168), (128, 7168)]

# e2m1 thresholds between codes 0..7 and whether a tie rounds up (to the
# even code): 0.25 -> 0, 0.75 -> 2, 1.25 -> 2, 1.75 -> 4, 2.5 -> 4,
# 3.5 -> 6, 5 -> 6.
THRESHOLDS = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0]
TIE_UP = [False, True, False, True, False, True, False]


def torch_quantize(x, g):
    """x: [R, K] bf16, g: [1] f32 -> (q [R, K/2] u8, sf [R, K/16] e4m3)."""
    r, k = x.shape
    xf = x.float().view(r, k // 16, 16)
    amax = xf.abs().amax(-1)
    sf = ((amax / 6.0) / g).to(torch.float8_e4m3fn)
    sf = torch.where(amax == 0, torch.zeros_like(sf), sf)
    s = sf.float() * g
    y = xf / s.unsqueeze(-1)
    a = y.abs()
    code = torch.zeros_like(a, dtype=torch.uint8)
    for t, up in zip(THRESHOLDS, TIE_UP):
        code += (a >= t if up else a > t).to(torch.uint8)
    code |= (torch.signbit(y).to(torch.uint8) << 3)
    code = torch.where(torch.isnan(y), torch.full_like(code, 7), code)
    code = torch.where((s == 0).unsqueeze(-1), torch.zeros_like(code), code)
    code = code.view(r, k // 2, 2)
    q = code[..., 0] | (code[..., 1] << 4)
    return q, sf


@triton.jit
def _quantize_kernel(x_ptr, g_ptr, q_ptr, sf_ptr, n_blocks,
                     BLOCKS: tl.constexpr):
    pid = tl.program_id(0)
    blk = pid * BLOCKS + tl.arange(0, BLOCKS)
    mask = blk < n_blocks
    offs = blk[:, None] * 16 + tl.arange(0, 16)[None, :]
    x = tl.load(x_ptr + offs, mask=mask[:, None], other=0.0).to(tl.float32)
    g = tl.load(g_ptr)
    amax = tl.max(tl.abs(x), axis=1)
    sf8 = ((amax / 6.0) / g).to(tl.float8e4nv)
    sf8 = tl.where(amax == 0, 0.0, sf8.to(tl.float32)).to(tl.float8e4nv)
    s = sf8.to(tl.float32) * g
    y = x / s[:, None]
    a = tl.abs(y)
    code = ((a > 0.25).to(tl.int32) + (a >= 0.75).to(tl.int32) +
            (a > 1.25).to(tl.int32) + (a >= 1.75).to(tl.int32) +
            (a > 2.5).to(tl.int32) + (a >= 3.5).to(tl.int32) +
            (a > 5.0).to(tl.int32))
    sign = (y.to(tl.int32, bitcast=True) >> 28) & 8
    code = code | sign
    code = tl.where(y != y, 7, code)
    code = tl.where(s[:, None] == 0, 0, code)
    pairs = tl.reshape(code, (BLOCKS, 8, 2))
    lo, hi = tl.split(pairs)
    q = (lo | (hi << 4)).to(tl.uint8)
    qoffs = blk[:, None] * 8 + tl.arange(0, 8)[None, :]
    tl.store(q_ptr + qoffs, q, mask=mask[:, None])
    tl.store(sf_ptr + blk, sf8.to(tl.uint8, bitcast=True), mask=mask)


def triton_quantize(x, g, q, sf):
    n_blocks = x.numel() // 16
    blocks = 64
    _quantize_kernel[(triton.cdiv(n_blocks, blocks),)](
        x, g, q, sf.view(torch.uint8), n_blocks, BLOCKS=blocks)


def main():
    dev = torch.device("cuda")
    l2 = torch.cuda.get_device_properties(dev).L2_cache_size
    for r, k in SHAPES:
        nbytes = r * k * 2 + r * k // 2 + r * k // 16
        nsets = buffer_sets(nbytes, l2)
        sets = []
        for _ in range(nsets):
            x = torch.randn(r, k, device=dev, dtype=torch.bfloat16)
            g = (x.float().abs().amax() / 2688.0).reshape(1)
            q = torch.empty(r, k // 2, device=dev, dtype=torch.uint8)
            sf = torch.empty(r, k // 16, device=dev, dtype=torch.float8_e4m3fn)
            sets.append((x, g, q, sf))
        x, g, q, sf = sets[0]
        tq, tsf = torch_quantize(x, g)
        triton_quantize(x, g, q, sf)
        torch.cuda.synchronize()
        same = (torch.equal(tq, q) and
                torch.equal(tsf.view(torch.uint8), sf.view(torch.uint8)))
        print(f"peers_agree R={r} K={k}: {same}")
        eager = median_us(lambda x, g, q, sf: torch_quantize(x, g), sets,
                          iters=20, batch=10)
        trit = median_us(triton_quantize, sets, iters=20, batch=10)
        del sets
        torch.cuda.empty_cache()
        words = nbytes // 8
        copies = [(torch.empty(words, device=dev),
                   torch.empty(words, device=dev)) for _ in range(nsets)]
        copy_us = median_us(lambda a, b: b.copy_(a), copies, iters=20,
                            batch=10)
        del copies
        torch.cuda.empty_cache()
        print(f"quantize_peers R={r} K={k}: {nbytes} bytes; copy "
              f"{copy_us:.2f} us, torch_eager {eager:.2f} us, triton "
              f"{trit:.2f} us back to back")


if __name__ == "__main__":
    sys.exit(main())
