#!/usr/bin/env bash
# The GEMM benchmark and GPU check on an H100/H200, in one call:
#   bench/gemm_gpu.sh NVFP4_RUN [OUTDIR]
# (a) correctness (--require-gpu): the three contest shapes and random
#     (M, N, K, L), outputs f16/bf16/f32, scales over the full finite e4m3
#     range on some; (b) peers: dense fp16 rate, cuBLAS fp16, cuBLASLt fp8,
#     Triton dot_scaled (bench/gemm_peers.py); (c) ours with --bench;
#     prints a table last.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-gemm-bench}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
fails=0
check() {  # M N K L out_type extra...
  local m=$1 n=$2 k=$3 l=$4 t=$5; shift 5
  local f="$out/g_${m}_${n}_${k}_${l}_$t.mlir"
  python3 "$here/gen_gemm.py" "$m" "$n" "$k" "$l" "$t" > "$f"
  if ! run_limited "$run" "$f" --require-gpu "$@" > "$out/r.txt" 2>&1; then
    fails=$((fails + 1)); echo "FAIL M=$m N=$n K=$k L=$l $t $*"; cat "$out/r.txt"
  else
    echo "ok M=$m N=$n K=$k L=$l $t $* :: $(grep -o 'check OK.*' "$out/r.txt")"
  fi
}
for s in "128 7168 16384" "128 4096 7168" "128 7168 2048"; do check $s 0 f16 --seed 1; done
python3 - > "$out/shapes.txt" <<'PY'
import random
r = random.Random(2026)
for i in range(30):
    print(r.randint(1, 1024), r.randint(1, 1500), 64 * r.randint(1, 64), r.choice([0, 1, 2, 4]), i)
PY
while read -r m n k l i; do
  t=f16; extra=""
  if [ $((i % 3)) = 1 ]; then t=bf16; fi
  if [ $((i % 3)) = 2 ]; then t=f32; extra="--max-scale-code 126"; fi
  check "$m" "$n" "$k" "$l" "$t" --seed "$i" $extra
done < "$out/shapes.txt"
echo "correctness failures: $fails"
python3 "$here/gemm_peers.py" 2>&1 | tee "$out/peers.txt"
: > "$out/ours.txt"
for s in "128 7168 16384" "128 4096 7168" "128 7168 2048"; do
  set -- $s
  python3 "$here/gen_gemm.py" "$1" "$2" "$3" | sed -e "s/@gemm(/@gemm_$1_$2_$3(/" > "$out/b_$1_$2_$3.mlir"
  run_limited "$run" "$out/b_$1_$2_$3.mlir" --require-gpu --bench --iters 100 | tee -a "$out/ours.txt"
done
python3 "$here/gemm_table.py" "$out/peers.txt" "$out/ours.txt"
