#!/usr/bin/env bash
# The quantize benchmark and GPU check on an H100/H200, in one call:
#   bench/quantize_gpu.sh NVFP4_RUN [OUTDIR]
# (a) correctness (--require-gpu, bit for bit against the CPU reference) on
#     both benchmark shapes, bf16 with a per-tensor scale, plain and
#     blocked scales (test/Integration/GPU/quantize-random.test has 36
#     more); (b) ours with --bench (its floor: the kernel's bytes at the
#     copy rate nvfp4-run measures); (c) peers (bench/quantize_peers.py):
#     a same-size device copy, torch eager and a Triton kernel, back to
#     back; prints a table last. SANITIZE=1 adds compute-sanitizer runs.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-quantize-bench}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
shapes=("16384 7168" "128 7168")
fails=0
: > "$out/ours.txt"
for s in "${shapes[@]}"; do
  set -- $s
  for layout in plain blocked; do
    f="$out/q_$1_$2_$layout.mlir"
    python3 "$here/gen_quantize.py" "$1" "$2" 0 bf16 "$layout" global |
      sed -e "s/@quantize(/@quantize_$1_$2_$layout(/" > "$f"
    if ! run_limited "$run" "$f" --require-gpu --seed 1 > "$out/r.txt" 2>&1; then
      fails=$((fails + 1)); echo "FAIL quantize R=$1 K=$2 $layout"
      cat "$out/r.txt"
    else
      echo "ok quantize R=$1 K=$2 $layout :: $(grep -o 'check OK.*' "$out/r.txt")"
    fi
    run_limited "$run" "$f" --require-gpu --bench --iters 200 |
      tee -a "$out/ours.txt"
  done
done
# SANITIZE=1: compute-sanitizer memcheck, racecheck and synccheck on three
# plans (blocked scales with padding rows and columns and a global scale;
# plain f32 of one block per row; four blocks per thread over a batch).
if [ "${SANITIZE:-0}" = 1 ]; then
  for c in "100 208 0 f16 blocked global" "1 16 0 f32 plain" \
           "300 512 2 bf16 blocked global --plan=4,4"; do
    python3 "$here/gen_quantize.py" $c > "$out/san.mlir"
    for tool in memcheck racecheck synccheck; do
      if compute-sanitizer --tool "$tool" --error-exitcode 9 "$run" \
          "$out/san.mlir" --require-gpu > "$out/san.txt" 2>&1; then
        echo "sanitize ok: $tool quantize $c ($(grep -o 'ERROR SUMMARY.*' "$out/san.txt"))"
      else
        fails=$((fails + 1)); echo "sanitize FAIL: $tool quantize $c"
        tail -20 "$out/san.txt"
      fi
    done
  done
fi
echo "correctness failures: $fails"
# The peers' data: randn bf16 and its amax / 2688 (nvfp4-run's random input
# mixes in adversarial blocks, infinities among them, which take their
# blocks off the reciprocal path).
for s in "${shapes[@]}"; do
  set -- $s
  python3 - "$out" "$1" "$2" <<'PY'
import sys, numpy as np, torch
out, r, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch.manual_seed(0)
x = torch.randn(r, k, dtype=torch.bfloat16)
np.save(f"{out}/x_{r}_{k}.npy", x.view(torch.int16).numpy().view(np.uint16))
g = (x.float().abs().amax() / 2688.0).reshape(1).numpy().astype(np.float32)
np.save(f"{out}/g_{r}_{k}.npy", g)
PY
  for layout in plain blocked; do
    sed -e "s/@quantize_$1_$2_$layout(/@quantize_$1_$2_${layout}_randn(/" \
      "$out/q_$1_$2_$layout.mlir" > "$out/n_$1_$2_$layout.mlir"
    run_limited "$run" "$out/n_$1_$2_$layout.mlir" --require-gpu --bench \
      --iters 200 --inputs "$out/x_$1_$2.npy,$out/g_$1_$2.npy" |
      tee -a "$out/ours.txt"
  done
done
(cd "$here" && python3 quantize_peers.py) 2>&1 | tee "$out/peers.txt"
python3 - "$out/peers.txt" "$out/ours.txt" <<'PY'
import re, sys
peers = open(sys.argv[1]).read()
ours = open(sys.argv[2]).read()
print("| shape | layout | ours us | % of nvfp4-run floor | same-size copy us | "
      "ours / copy | torch eager us | triton us | vs eager | vs triton |")
print("|---|---|---|---|---|---|---|---|---|---|")
for m in re.finditer(r"bench @quantize_(\d+)_(\d+)_(\w+) on .*?: ([\d.]+) us per "
                     r"launch back to back.*?= ([\d.]+)% of floor", ours):
    r, k, layout, us, floor = m.groups()
    p = re.search(rf"quantize_peers R={r} K={k}: \d+ bytes; copy ([\d.]+) us, "
                  r"torch_eager ([\d.]+) us, triton ([\d.]+) us", peers)
    if not p:
        continue
    copy, eager, trit = map(float, p.groups())
    us = float(us)
    print(f"| {r}x{k} bf16 | {layout} | {us:.2f} | {floor}% | {copy:.2f} | "
          f"{copy / us:.2f} | {eager:.2f} | {trit:.2f} | {eager / us:.2f}x | "
          f"{trit / us:.2f}x |")
PY
