#!/usr/bin/env bash
# Times the contest GEMM shapes under several plans written into the IR
# (nvfp4-plan keeps a user plan), checking each against the CPU reference:
#   bench/gemm_plans.sh NVFP4_RUN OUTDIR "WG TILE_M STAGES K_GROUPS B_PREFETCH"...
# SHAPES="M N K;M N K" picks other shapes; the plan "default" lets nvfp4-plan
# choose; DUAL=1 times the gated dual GEMM on those shapes instead (the
# plans get weights = 2).
set -uo pipefail
run="$1"; out="$2"; shift 2; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
IFS=';' read -ra shapes <<< "${SHAPES:-128 7168 16384;128 4096 7168;128 7168 2048}"
for plan in "$@"; do
  for s in "${shapes[@]}"; do
    set -- $s
    f="$out/p_$1_$2_$3_${plan// /_}.mlir"
    if [ "$plan" = default ]; then
      python3 "$here/gen_gemm.py" $1 $2 $3 ${DUAL:+--dual} > "$f"
    else
      python3 "$here/gen_gemm.py" $1 $2 $3 0 f16 $plan ${DUAL:+--dual} > "$f"
    fi
    printf "plan %-14s M=%-4s N=%-5s K=%-6s " "$plan" $1 $2 $3
    if run_limited "$run" "$f" --bench --iters 50 --seed 1 > "$f.txt" 2>&1; then
      echo "$(grep -o '[0-9.]* us per launch back to back' "$f.txt"), $(grep -o 'ptxas: [0-9]* registers' "$f.txt" | tail -1)"
    else
      echo "FAILED:"; tail -5 "$f.txt"
    fi
  done
done
