#!/usr/bin/env bash
# FP4 outputs (C quantized in the epilogue, NVFP4 or MXFP4) on an
# H100/H200, in one call:
#   bench/nvfp4_output_gpu.sh NVFP4_RUN [OUTDIR]
# (a) a wrong output is caught: a byte of the NVFP4 or MXFP4 C perturbed
#     after the run must fail the check; (b) compute-sanitizer memcheck on a
#     dual GEMM and a GEMM with NVFP4 outputs (blocked scales with padding
#     rows and columns), and memcheck, racecheck and synccheck on MXFP4
#     outputs (their warps' amax exchange in the ring: two warpgroups, a
#     split cluster); (c) the four contest dual shapes and the three contest
#     GEMM shapes, each with an f16, an NVFP4 and an MXFP4 C, back to back
#     twice (--bench); (d) the FP4 feed-forward example with a layer's
#     inputs.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-output-bench}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/run_limit.sh"
gen() { python3 "$here/gen_gemm.py" "$@"; }

for format in nvfp4 mxfp4; do
  gen 200 352 512 2 $format --dual --blocked=bc > "$out/p.mlir"
  if run_limited "$run" "$out/p.mlir" --require-gpu --perturb-output 5 \
      > "$out/p.txt" 2>&1; then
    echo "FAIL: a perturbed $format C passed the check"
  else
    echo "ok: perturbed $format C caught: $(grep -o 'error: .*' "$out/p.txt" | head -1)"
  fi
done
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
sanitize() {  # tool, gen args...
  local tool="$1"; shift
  gen "$@" > "$out/s.mlir"
  if "$sanitizer" --tool "$tool" --error-exitcode 1 "$run" "$out/s.mlir" \
      --require-gpu > "$out/s.txt" 2>&1; then
    echo "ok $tool: $* :: $(grep -oE '(ERROR|RACECHECK) SUMMARY.*' "$out/s.txt")"
  else
    echo "FAIL $tool: $*"; tail -20 "$out/s.txt"
  fi
}
sanitize memcheck 200 336 512 2 nvfp4 --dual --blocked=bc
sanitize memcheck 100 272 1024 0 nvfp4 --blocked=c
for tool in memcheck racecheck synccheck; do
  sanitize $tool 512 1056 1024 0 mxfp4 2 128 8 1 2 1 true false true --blocked=c
  sanitize $tool 100 96 256 0 mxfp4-rceil --dual --blocked=c
  sanitize $tool 256 1056 2048 0 mxfp4 2 64 8 2
done

bench() {  # name, gen args...
  local name="$1"; shift
  gen "$@" | sed -e "s/@\(dual\|gemm\)(/@$name(/" > "$out/$name.mlir"
  run_limited "$run" "$out/$name.mlir" --require-gpu --bench --iters 200 |
    grep -o "bench @[^:]*: [0-9.]* us per launch back to back" 
}
for round in 1 2; do
  for s in "256 4096 7168" "512 4096 7168" "256 3072 4096" "512 3072 7168"; do
    set -- $s
    bench "dual_${1}_${2}_${3}_f16" $1 $2 $3 0 f16 --dual
    bench "dual_${1}_${2}_${3}_nvfp4" $1 $2 $3 0 nvfp4 --dual
    bench "dual_${1}_${2}_${3}_mxfp4" $1 $2 $3 0 mxfp4 --dual
  done
  for s in "128 7168 16384" "128 4096 7168" "128 7168 2048"; do
    set -- $s
    bench "gemm_${1}_${2}_${3}_f16" $1 $2 $3 0 f16
    bench "gemm_${1}_${2}_${3}_nvfp4" $1 $2 $3 0 nvfp4
    bench "gemm_${1}_${2}_${3}_mxfp4" $1 $2 $3 0 mxfp4
  done
done
mkdir -p "$out/ffn"
inputs=$(python3 "$here/../examples/ffn_inputs.py" "$out/ffn")
run_limited "$run" "$here/../examples/ffn_nvfp4.mlir" --require-gpu \
  --inputs "$inputs" --bench --iters 200 2>&1 | grep -E "check OK|bench|ran on" |
  cut -c1-400
