#!/usr/bin/env bash
# compute-sanitizer memcheck, racecheck and synccheck on one GEMM of each
# plan kind (A decoded in the CTA; the TMA ring with k_groups 1-4;
# an odd number of rounds; ragged M and N; split-K across CTAs; a producer
# warpgroup; split-K added on chip by a cluster of the
# splits, with one or two warpgroups per tile; B copied into the
# ring (b_tma) with plain and blocked scales, alone and in a split cluster;
# the gated dual GEMM's two weights through the ring, through registers,
# and in a split cluster; MXFP4 operands through the ring, blocked in a
# split cluster, through registers, and the dual GEMM; C staged through
# the ring with ragged M, and by two warpgroups that meet no barrier
# after their K loops but the store's own, GEMM and dual, one of them with
# its second warpgroup's rows past N, storing nothing; the dual GEMM with a
# warpgroup a weight, the planner's split_weights, ragged M and N, and
# with N a multiple of 64, C staged above the swapped halves):
#   [ONLY="case ..."] bench/gemm_sanitize.sh NVFP4_RUN [OUTDIR]
# Exits non-zero when a tool reports an error or a check fails.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-sanitize}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
fails=0
# name: M N K L out_type [WG TILE_M STAGES K_GROUPS B_PREFETCH [SPLIT_K
# [PRODUCER [SPLIT_ON_CHIP [B_TMA]]]]]
cases=(
  "cta: 72 64 256 0 bf16"
  "ring_k1: 100 200 448 0 f16 1 64 4 1 3"
  "ring_k2: 128 256 320 0 f32 1 128 6 2 4"
  "ring_k3: 128 300 1280 0 bf16 1 128 6 3 2"
  "ring_k4: 64 130 512 2 f16 1 64 8 4 2"
  "wg2: 40 256 192 0 f16 2 40 2 1 2"
  "split_k: 70 200 512 2 bf16 1 128 4 2 2 4"
  "producer: 128 300 1280 0 bf16 1 128 9 3 2 1 true"
  "split_cluster: 130 300 1024 2 bf16 1 128 6 3 2 2 true true"
  "split_cluster4: 77 500 768 0 f32 1 64 4 1 2 4 false true"
  "split_cluster_wg2: 130 300 1024 2 bf16 2 128 10 1 6 2 true true"
  "b_tma: 130 300 1024 2 bf16 1 128 6 1 2 1 true false true"
  "b_tma_split_cluster: 130 300 1024 0 f16 2 128 6 1 2 2 true true true"
  "b_tma_split_cluster_wg1: 128 512 2048 0 f16 1 128 6 1 2 2 true true true"
  "b_tma_blocked: 70 200 512 2 f32 1 64 6 3 2 1 true false true --blocked=b"
  "dual_b_tma_scatter: 130 300 1024 0 f16 2 128 6 1 2 2 true true true --dual"
  "dual_b_registers: 70 200 448 2 bf16 1 64 6 1 2 1 true false false --dual"
  "dual_blocked_cluster: 77 300 512 0 f32 2 40 6 1 2 2 true true true --dual --blocked=ab"
  "mx_b_tma: 130 300 1024 2 bf16 1 128 6 1 2 1 true false true --mx"
  "mx_b_tma_blocked_cluster: 130 300 1024 0 f16 2 128 6 1 2 2 true true true --mx --blocked=ab"
  "mx_b_registers_k2: 128 256 320 0 f32 1 128 6 2 4 --mx"
  "mx_dual: 70 200 512 2 bf16 1 64 6 1 2 1 true false true --dual --mx"
  "staged_ragged_m: 100 256 512 0 f16 1 64 4 1 2 1 true false true"
  "staged_wg2: 200 512 1024 0 bf16 2 128 6 1 2 1 true false true"
  "staged_wg2_past_n: 200 192 1024 0 f16 2 128 6 1 2 1 true false true"
  "dual_staged_wg2: 300 512 1024 0 f16 2 104 6 1 2 1 true false true --dual"
  "dual_split_weights: 200 500 1024 0 f16 --dual"
  "dual_split_weights_staged: 200 512 1024 0 bf16 --dual"
)
# ONLY="name ..." runs just those cases.
if [ -n "${ONLY:-}" ]; then
  keep=()
  for c in "${cases[@]}"; do
    for o in $ONLY; do [ "${c%%:*}" = "$o" ] && keep+=("$c"); done
  done
  if [ "${#keep[@]}" -eq 0 ]; then
    echo "ONLY='$ONLY' names no case" >&2; exit 2
  fi
  cases=("${keep[@]}")
fi
for c in "${cases[@]}"; do
  name=${c%%:*}; args=${c#*: }
  python3 "$here/gen_gemm.py" $args > "$out/$name.mlir"
  for tool in memcheck racecheck synccheck; do
    log="$out/$name.$tool.txt"
    if timeout "${NVFP4_SANITIZE_TIMEOUT:-600}" \
        compute-sanitizer --tool "$tool" --error-exitcode 9 "$run" "$out/$name.mlir" \
        --require-gpu > "$log" 2>&1; then
      echo "ok   $tool $name: $(grep -o 'ERROR SUMMARY.*' "$log" | head -1)"
    else
      fails=$((fails + 1)); echo "FAIL $tool $name"; grep -v "^nvfp4-run" "$log" | head -40
    fi
  done
done
echo "sanitizer failures: $fails"
[ "$fails" = 0 ]
