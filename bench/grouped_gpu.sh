#!/usr/bin/env bash
# The grouped (MoE) GEMM benchmark and GPU check on an H100/H200, in one
# call:  bench/grouped_gpu.sh NVFP4_RUN [OUTDIR]
# (a) correctness (--require-gpu) on the contest's four shapes and MoE
#     decode (the lit suite test/Integration/GPU/grouped-*.test has random
#     cases, other sizes and invalid offsets); (b) peers
#     (bench/grouped_peers.py): torch._grouped_mm bf16, a padded bmm, a
#     per-group cuBLAS loop, torch._scaled_grouped_mm fp8, the dense fp16
#     rate and a copy of the FP4 weights, back to back and under CUDA-graph
#     replay; (c) ours with --bench; prints a table last.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-grouped-bench}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
shapes=("4096 7168 80,176,128,72,64,248,96,160"
        "7168 2048 40,76,168,72,164,148,196,160"
        "3072 4096 192,320" "4096 1536 128,384"
        "4096 7168 1,3,8,2,5,7,4,6")
fails=0
: > "$out/ours.txt"
for s in "${shapes[@]}"; do
  set -- $s
  name="grouped_$1_$2_$(echo "$3" | tr ',' '_')"
  f="$out/$name.mlir"
  python3 "$here/gen_grouped.py" "$1" "$2" "$3" --name="$name" > "$f"
  if ! run_limited "$run" "$f" --require-gpu --seed 1 > "$out/r.txt" 2>&1; then
    fails=$((fails + 1)); echo "FAIL grouped N=$1 K=$2 M=$3"; cat "$out/r.txt"
  else
    echo "ok grouped N=$1 K=$2 M=$3 :: $(grep -o 'check OK.*' "$out/r.txt")"
  fi
  run_limited "$run" "$f" --require-gpu --bench --iters 100 | tee -a "$out/ours.txt"
done
echo "correctness failures: $fails"
python3 "$here/grouped_peers.py" 2>&1 | tee "$out/peers.txt"
python3 "$here/grouped_table.py" "$out/peers.txt" "$out/ours.txt"
