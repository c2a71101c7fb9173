#!/usr/bin/env bash
# MXFP4 on an H100/H200, in one call:
#   bench/mxfp4_gpu.sh NVFP4_RUN [OUTDIR]
# (a) correctness: the MXFP4 GPU tests (GEMV plans and shapes over the
#     whole e8m0 range, quantize bit for bit on random and adversarial
#     rows) through lit; (b) speed: each contest GEMV shape and the
#     16384x7168 / 128x7168 bf16 quantize as NVFP4 and as MXFP4, back to
#     back in the same call (nvfp4-run --bench: time and % of the copy
#     floor it measures); the MXFP4/NVFP4 time ratio last.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-mxfp4}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
. "$here/run_limit.sh"
NVFP4_GPU_TESTS=1 NVFP4_RUN="$run" python3 -c "import sys; sys.path.insert(0, '$repo/.carry/lit'); from lit.main import main; main()" \
  -v "$repo/test/Integration/GPU/gemv-mxfp4.test" \
  "$repo/test/Integration/GPU/quantize-mxfp4.test" \
  "$repo/test/Integration/GPU/quantize-adversarial.test" 2>&1 | tail -8
: > "$out/times.txt"
bench() {  # name file
  local line
  line=$(run_limited "$run" "$2" --require-gpu --bench --iters 200 2>&1 | grep "nvfp4-run: bench" | sed -e "s/.*: \([0-9.]* us per launch back to back\).*= \([0-9.]*% of floor\).*/\1, \2/")
  echo "$1 :: $line" | tee -a "$out/times.txt"
}
for s in "7168 16384 1" "4096 7168 8" "7168 2048 4"; do
  set -- $s
  python3 "$here/gen_gemv.py" "$1" "$2" "$3" > "$out/nv_$1_$2_$3.mlir"
  python3 "$here/gen_gemv.py" --mx "$1" "$2" "$3" > "$out/mx_$1_$2_$3.mlir"
  for rep in 1 2; do
    bench "gemv nvfp4 $s" "$out/nv_$1_$2_$3.mlir"
    bench "gemv mxfp4 $s" "$out/mx_$1_$2_$3.mlir"
  done
done
for r in 16384 128; do
  python3 "$here/gen_quantize.py" "$r" 7168 0 bf16 plain > "$out/qnv_$r.mlir"
  python3 "$here/gen_quantize.py" "$r" 7168 0 bf16 plain --mx=floor > "$out/qmx_$r.mlir"
  python3 "$here/gen_quantize.py" "$r" 7168 0 bf16 plain --mx=rceil > "$out/qmxr_$r.mlir"
  for rep in 1 2; do
    bench "quantize nvfp4 ${r}x7168" "$out/qnv_$r.mlir"
    bench "quantize mxfp4-floor ${r}x7168" "$out/qmx_$r.mlir"
    bench "quantize mxfp4-rceil ${r}x7168" "$out/qmxr_$r.mlir"
  done
done
