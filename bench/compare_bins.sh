#!/usr/bin/env bash
# Times the three contest GEMM shapes (the planner's plans) under several
# nvfp4-run binaries in one call, interleaved and repeated twice, so that
# builds can be compared on the same GPU state:
#   bench/compare_bins.sh OUTDIR NVFP4_RUN_A NVFP4_RUN_B ...
# Each run is checked against the CPU reference (nvfp4-run --bench).
set -u
out=$1; shift; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
shapes=("128 7168 16384" "128 4096 7168" "128 7168 2048")
for s in "${shapes[@]}"; do
  python3 "$here/gen_gemm.py" $s > "$out/s_${s// /_}.mlir"
done
for rep in 1 2; do
  for bin in "$@"; do
    for s in "${shapes[@]}"; do
      r=$("$bin" "$out/s_${s// /_}.mlir" --bench --iters 50 --seed 1 2>&1 |
          grep -o '[0-9.]* us per launch back to back\|FAIL.*' | head -1)
      echo "$(basename "$bin") $s: ${r:-no result}"
    done
  done
done
