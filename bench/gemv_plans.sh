#!/usr/bin/env bash
# Times the contest GEMV shapes under several plans written into the IR
# (nvfp4-plan keeps a user plan): bench/gemv_plans.sh NVFP4_RUN OUTDIR "W R BYTES UNROLL"...
set -uo pipefail
run="$1"; out="$2"; shift 2; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
for plan in "$@"; do
  for s in "7168 16384 1" "4096 7168 8" "7168 2048 4"; do
    set -- $s
    f="$out/p_$1_$2_$3_${plan// /_}.mlir"
    python3 "$here/gen_gemv.py" $1 $2 $3 f16 $plan > "$f"
    printf "plan %-18s M=%-5s K=%-6s L=%s  " "$plan" $1 $2 $3
    "$run" "$f" --bench --iters 100 | grep -o 'bench.*' | sed -e 's/.*: \([0-9.]* us per launch\).*= \([0-9.]*% of floor\)/\1, \2/'
  done
done
