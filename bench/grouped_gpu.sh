#!/usr/bin/env bash
# The grouped (MoE) GEMM benchmark and GPU check on an H100/H200, in one
# call:  bench/grouped_gpu.sh NVFP4_RUN [OUTDIR]
# (a) correctness (--require-gpu) on the contest's four shapes (both forms:
#     grouped_matmul with run-time sizes, B's scales plain and blocked;
#     grouped_problems) and MoE
#     decode (the lit suite test/Integration/GPU/grouped-*.test has random
#     cases, other sizes and invalid offsets); (b) peers
#     (bench/grouped_peers.py): torch._grouped_mm bf16, a padded bmm, a
#     per-group cuBLAS loop, torch._scaled_grouped_mm fp8, the dense fp16
#     rate and a copy of the FP4 weights, back to back and under CUDA-graph
#     replay; (c) ours with --bench; prints a table last. SANITIZE=1
#     adds compute-sanitizer memcheck, racecheck and synccheck on four
#     plans (b_tma with two warpgroups a tile and the per-rows K loops; B
#     in registers with three K groups; decode's tiles of 8; blocked B
#     scales), on the first with offsets out of range, negative and
#     decreasing (clamped: no access out of bounds), and on grouped_problems
#     plans of each kind.
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
# Checks and times entry file $2 of form $1 (grouped: run-time sizes;
# blocked: the same with B's scales blocked; problems: independent
# problems) for shape "N K M" $3.
check_bench() {
  local form="$1" f="$2" shape="$3"
  set -- $shape
  if ! run_limited "$run" "$f" --require-gpu --seed 1 > "$out/r.txt" 2>&1; then
    fails=$((fails + 1)); echo "FAIL $form N=$1 K=$2 M=$3"; cat "$out/r.txt"
  else
    echo "ok $form N=$1 K=$2 M=$3 :: $(grep -o 'check OK.*' "$out/r.txt")"
  fi
  run_limited "$run" "$f" --require-gpu --bench --iters 100 | tee -a "$out/ours.txt"
}
# Both forms: grouped_matmul (run-time sizes) on every shape, with B's
# scales plain and blocked (the 128x4-atom layout that stored NVFP4 weights
# usually come in), and grouped_problems (each group its own tensors,
# shapes known when compiled) on the contest's four.
for form in grouped blocked problems; do
  for s in "${shapes[@]}"; do
    set -- $s
    name="${form}_$1_$2_$(echo "$3" | tr ',' '_')"
    if [ "$form" = grouped ]; then
      python3 "$here/gen_grouped.py" "$1" "$2" "$3" --name="$name"
    elif [ "$form" = blocked ]; then
      python3 "$here/gen_grouped.py" "$1" "$2" "$3" --blocked=b --name="$name"
    elif [ "$s" != "${shapes[4]}" ]; then
      python3 "$here/gen_problems.py" "$3" "$1" "$2" --name="$name"
    fi > "$out/$name.mlir"
    [ -s "$out/$name.mlir" ] && check_bench "$form" "$out/$name.mlir" "$s"
  done
done
if [ "${SANITIZE:-0}" = 1 ]; then
  # Runs the three sanitizers on entry file $2 (named $1 in the report),
  # with nvfp4-run arguments $3...
  sanitize() {
    local name="$1" f="$2"; shift 2
    for tool in memcheck racecheck synccheck; do
      if compute-sanitizer --tool "$tool" --error-exitcode 9 "$run" \
          "$f" --require-gpu "$@" > "$out/san.txt" 2>&1; then
        echo "sanitize ok: $tool $name ($(grep -o 'ERROR SUMMARY.*' "$out/san.txt"))"
      else
        fails=$((fails + 1)); echo "sanitize FAIL: $tool $name"
        tail -20 "$out/san.txt"
      fi
    done
  }
  san() {  # name, gen_grouped arguments, then nvfp4-run arguments after --
    local name="$1"; shift
    local gen=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do gen+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    python3 "$here/gen_grouped.py" "${gen[@]}" > "$out/san_$name.mlir"
    sanitize "$name" "$out/san_$name.mlir" "$@"
  }
  san b_tma_wg2 512 1024 200,0,56,130 bf16
  san registers_k3 300 448 100,37,0,90 f16
  san decode 256 512 1,3,0,8 f32
  san blocked 200 512 60,140 f16 --blocked=b
  # grouped_problems: a plan of each kind (decode in the CTA, three K
  # groups, b_tma), several problems each.
  sanp() {  # name, gen_problems arguments
    local name="$1"; shift
    python3 "$here/gen_problems.py" "$@" > "$out/sanp_$name.mlir"
    sanitize "problems_$name" "$out/sanp_$name.mlir"
  }
  sanp decode_in_cta --contest=8
  sanp k_groups --contest=6
  sanp b_tma 72,130,256 192,448,128 512,256,1024 --plan=2,256,5,1,2,true
  # Offsets out of range: save the inputs, then replace the offsets.
  python3 "$here/gen_grouped.py" 512 1024 200,0,56,130 > "$out/san_bad.mlir"
  "$run" "$out/san_bad.mlir" --cpu --save-inputs "$out/san_in" > /dev/null 2>&1
  python3 "$here/../test/nvfp4-run/Inputs/npy_tool.py" filli32 \
    "$out/san_in/input4.npy" -7,100000,30,-2147483648,2147483647
  ins=$(ls "$out"/san_in/input*.npy | sort | paste -sd,)
  san offsets_out_of_range 512 1024 200,0,56,130 -- --inputs "$ins"
fi
echo "correctness failures: $fails"
python3 "$here/grouped_peers.py" 2>&1 | tee "$out/peers.txt"
python3 "$here/grouped_table.py" "$out/peers.txt" "$out/ours.txt"
