#!/usr/bin/env bash
# The sm_90a GEMM plan verifier's register budget against ptxas (CPU only):
# hand-written plans on one shape, each compiled by nvfp4-run (the verifier
# accepts or rejects it) and, if accepted, assembled by ptxas -v; prints
#   plan,verdict,spill store bytes,registers
# and a summary: the accepted plans that spill (docs/performance.md, "Plan
# fuzz", has what it found).
#   bench/plan_fuzz.sh NVFP4_RUN OUTDIR [ROUNDS]   # ROUNDS: 2 or 3 ring
#                                                    # rounds per K group
# SHAPE="M N K" picks the shape (default 384 4096 4096); PTXAS the ptxas;
# B_TMA=1 fuzzes b_tma plans instead (a producer, B through the ring, so
# b_prefetch stays 2).
set -uo pipefail
run="$1"; out="$2"; rounds="${3:-2}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
ptxas="${PTXAS:-/usr/local/cuda/bin/ptxas}"
read -r m n k <<< "${SHAPE:-384 4096 4096}"
csv="$out/plans.csv"; : > "$csv"
bps="2 3 4 6 8"; prs="false true"; tail=""
[ -n "${B_TMA:-}" ] && { bps=2; prs=true; tail=" false true"; }
for wg in 1 2; do for tm in 64 96 128 160 192; do for ks in 1 2 3 4; do
  for bp in $bps; do for pr in $prs; do
    plan="$wg $tm $((rounds * ks)) $ks $bp 1 $pr$tail"
    python3 "$here/gen_gemm.py" $m $n $k 0 f16 $plan > "$out/p.mlir"
    if "$run" "$out/p.mlir" --target sm_90a --emit=ptx -o "$out/p.ptx" \
        > "$out/err.txt" 2>&1; then
      report=$("$ptxas" -arch=sm_90a -v "$out/p.ptx" -o "$out/p.cubin" 2>&1)
      spill=$(grep -o '[0-9]* bytes spill stores' <<< "$report" |
              awk '{s += $1} END {print s + 0}')
      regs=$(grep -o 'Used [0-9]* registers' <<< "$report" |
             awk '{print $2}' | sort -n | tail -1)
      echo "$plan,accepted,$spill,$regs" >> "$csv"
    else
      echo "$plan,rejected,," >> "$csv"
    fi
  done; done
done; done; done
echo "plans: $(wc -l < "$csv"), accepted: $(grep -c ',accepted,' "$csv")"
echo "accepted and spilling:"
awk -F, '$2 == "accepted" && $3 > 0 {print "  " $1 ": " $3 " bytes"}' "$csv"
