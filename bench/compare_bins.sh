#!/usr/bin/env bash
# Times the three contest GEMM shapes (the planner's plans) under several
# nvfp4-run binaries in one call, interleaved and repeated twice, so that
# builds can be compared on the same GPU state:
#   bench/compare_bins.sh OUTDIR NVFP4_RUN_A NVFP4_RUN_B ...
# Each run is checked against the CPU reference (nvfp4-run --bench); a run
# that fails prints its error and makes the script exit non-zero.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUTDIR NVFP4_RUN..." >&2
  exit 2
fi
out=$1; shift; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
shapes=("128 7168 16384" "128 4096 7168" "128 7168 2048")
for s in "${shapes[@]}"; do
  python3 "$here/gen_gemm.py" $s > "$out/s_${s// /_}.mlir" || exit 1
done
fails=0
for rep in 1 2; do
  for bin in "$@"; do
    for s in "${shapes[@]}"; do
      log="$out/r_${rep}_$(echo "$bin" | tr '/' '_')_${s// /_}.txt"
      if run_limited "$bin" "$out/s_${s// /_}.mlir" --bench --iters 50 --seed 1 \
          > "$log" 2>&1; then
        r=$(grep -o '[0-9.]* us per launch back to back' "$log")
      else
        r="FAILED: $(grep -m1 'error:' "$log")"
        fails=$((fails + 1))
      fi
      echo "$bin $s: $r"
    done
  done
done
exit $((fails > 0))
