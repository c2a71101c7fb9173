#!/usr/bin/env bash
# Times the contest GEMV shapes under several plans written into the IR
# (nvfp4-plan keeps a user plan): bench/gemv_plans.sh NVFP4_RUN OUTDIR "W R BYTES UNROLL [STAGE_B ...]"...
# SHAPES="M K L;M K L" picks other shapes; the plan "default" lets nvfp4-plan choose.
set -uo pipefail
run="$1"; out="$2"; shift 2; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
IFS=';' read -ra shapes <<< "${SHAPES:-7168 16384 1;4096 7168 8;7168 2048 4}"
for plan in "$@"; do
  for s in "${shapes[@]}"; do
    set -- $s
    f="$out/p_$1_$2_$3_${plan// /_}.mlir"
    if [ "$plan" = default ]; then
      python3 "$here/gen_gemv.py" $1 $2 $3 f16 > "$f"
    else
      python3 "$here/gen_gemv.py" $1 $2 $3 f16 $plan > "$f"
    fi
    printf "plan %-18s M=%-5s K=%-6s L=%s  " "$plan" $1 $2 $3
    if run_limited "$run" "$f" --bench --iters 100 > "$f.txt" 2>&1; then
      grep -o 'bench.*' "$f.txt" | sed -e 's/.*: \([0-9.]* us per launch\).*= \([0-9.]*% of floor\)/\1, \2/'
    else
      echo "FAILED:"; tail -5 "$f.txt"
    fi
  done
done
