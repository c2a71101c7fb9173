#!/usr/bin/env bash
# The gated dual GEMM benchmark and GPU check on an H100/H200, in one call:
#   bench/dual_gpu.sh NVFP4_RUN [OUTDIR]
# (a) correctness (--require-gpu) on the four contest shapes (the lit suite
#     test/Integration/GPU/dual-*.test has the contest's tests and random
#     shapes); (b) peers (bench/dual_peers.py): the dense fp16 rate, cuBLAS
#     fp16 and cuBLASLt fp8 as a stacked [B1; B2] GEMM or two GEMMs, each
#     followed by silu * mul, back to back and under CUDA-graph replay, and
#     silu * mul alone; (c) ours with --bench: the dual GEMM, and our own
#     GEMM on (M, N, K), twice of which plus silu * mul is the unfused
#     composition; prints a table last.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-dual-bench}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
shapes=("256 4096 7168" "512 4096 7168" "256 3072 4096" "512 3072 7168")
fails=0
for s in "${shapes[@]}"; do
  set -- $s
  f="$out/d_$1_$2_$3.mlir"
  python3 "$here/gen_gemm.py" "$1" "$2" "$3" --dual > "$f"
  if ! run_limited "$run" "$f" --require-gpu --seed 1 > "$out/r.txt" 2>&1; then
    fails=$((fails + 1)); echo "FAIL dual M=$1 N=$2 K=$3"; cat "$out/r.txt"
  else
    echo "ok dual M=$1 N=$2 K=$3 :: $(grep -o 'check OK.*' "$out/r.txt")"
  fi
done
echo "correctness failures: $fails"
python3 "$here/dual_peers.py" 2>&1 | tee "$out/peers.txt"
: > "$out/ours.txt"
for s in "${shapes[@]}"; do
  set -- $s
  python3 "$here/gen_gemm.py" "$1" "$2" "$3" --dual |
    sed -e "s/@dual(/@dual_$1_$2_$3(/" > "$out/b_$1_$2_$3.mlir"
  run_limited "$run" "$out/b_$1_$2_$3.mlir" --require-gpu --bench --iters 100 |
    tee -a "$out/ours.txt"
  python3 "$here/gen_gemm.py" "$1" "$2" "$3" |
    sed -e "s/@gemm(/@gemm_$1_$2_$3(/" > "$out/g_$1_$2_$3.mlir"
  run_limited "$run" "$out/g_$1_$2_$3.mlir" --require-gpu --bench --iters 100 |
    tee -a "$out/ours.txt"
done
python3 "$here/dual_table.py" "$out/peers.txt" "$out/ours.txt"
