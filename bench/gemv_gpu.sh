#!/usr/bin/env bash
# The GEMV benchmark and GPU check on an H100/H200, in one call:
#   bench/gemv_gpu.sh NVFP4_RUN [OUTDIR]
# (a) correctness: the three contest shapes and 24 random (M, K, L), random
#     bit patterns, scales over zero, subnormals and normals (and the full
#     finite e4m3 range with f32 output); (b) the device copy floor and
#     cuBLAS fp16 GEMV through PyTorch; (c) ours with --bench; (d) the
#     sm_100a cubin's resources and SASS mix. Prints a table last.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-bench}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
export PATH=/usr/local/cuda/bin:$PATH
fails=0
check() {  # M K L out_type extra...
  local m=$1 k=$2 l=$3 t=$4; shift 4
  python3 "$here/gen_gemv.py" "$m" "$k" "$l" "$t" > "$out/g_${m}_${k}_${l}_$t.mlir"
  if ! run_limited "$run" "$out/g_${m}_${k}_${l}_$t.mlir" --require-gpu "$@" > "$out/r.txt" 2>&1; then
    fails=$((fails + 1)); echo "FAIL M=$m K=$k L=$l $t $*"; cat "$out/r.txt"
  else
    echo "ok M=$m K=$k L=$l $t $* :: $(grep -o 'check OK.*' "$out/r.txt")"
  fi
}
for s in "7168 16384 1" "4096 7168 8" "7168 2048 4"; do check $s f16 --seed 1; done
# Few rows (the plan splits K across warps) and a ragged M.
check 128 16384 1 f16 --seed 5
check 37 1024 3 f32 --seed 6
python3 - > "$out/shapes.txt" <<'PY'
import random
r = random.Random(2026)
for i in range(24):
    print(r.randint(1, 3000), 64 * r.randint(1, 120), r.randint(1, 5), i)
PY
while read -r m k l i; do
  t=f16; extra=""
  if [ $((i % 4)) = 3 ]; then t=f32; extra="--max-scale-code 126"; fi
  if [ $((i % 4)) = 2 ]; then t=bf16; fi
  check "$m" "$k" "$l" "$t" --seed "$i" $extra
done < "$out/shapes.txt"
echo "correctness failures: $fails"
# sm_100a: the B200 cubin of the first contest shape, its resources (ptxas
# -v) and SASS instruction mix (CUDA 13 cuobjdump reads sm_100a).
run_limited "$run" "$out/g_7168_16384_1_f16.mlir" --target sm_100a --emit=ptx -o "$out/gemv_sm100a.ptx"
ptxas -arch=sm_100a -v "$out/gemv_sm100a.ptx" -o "$out/gemv_sm100a.cubin" 2>&1 | grep -E "registers|spill"
cuobjdump -sass "$out/gemv_sm100a.cubin" | grep -oE "^\s+/\*[0-9a-f]+\*/\s+[A-Z0-9_.]+" | awk '{print $2}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -12
echo "F2FP with E2M1: $(cuobjdump -sass "$out/gemv_sm100a.cubin" | grep -c 'F2FP.*E2M1')"
python3 "$here/peers.py" | tee "$out/peers.txt"
: > "$out/ours.txt"
for s in "7168 16384 1" "4096 7168 8" "7168 2048 4"; do
  set -- $s
  # Name the entry after the shape so the table can match it with cuBLAS.
  sed -e "s/@gemv(/@gemv_$1_$2_$3(/" "$out/g_$1_$2_$3_f16.mlir" > "$out/b_$1_$2_$3.mlir"
  run_limited "$run" "$out/b_$1_$2_$3.mlir" --require-gpu --bench --iters 200 | tee -a "$out/ours.txt"
done
python3 "$here/table.py" "$out/peers.txt" "$out/ours.txt"
