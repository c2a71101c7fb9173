#!/usr/bin/env bash
# The MXFP4 tensor-core GEMM on an H100/H200, in one call:
#   bench/mxfp4_gemm_gpu.sh NVFP4_RUN [OUTDIR]
# (a) correctness: test/Integration/GPU/gemm-mxfp4.test through lit (GEMM,
#     dual and grouped with e8m0 scales over their whole range); (b) speed:
#     each contest GEMM, dual GEMM and two grouped GEMM shapes as NVFP4 and
#     as MXFP4 (nvfp4-run --bench), back to back in this call, twice each;
#     then Triton's tl.dot_scaled MXFP4 GEMM and cuBLAS on the GEMM shapes
#     (bench/gemm_peers.py). The table: MXFP4 / NVFP4 time per shape, and
#     Triton / ours (MXFP4) on the GEMMs.
set -uo pipefail
run="$1"; out="${2:-/tmp/nvfp4-mxfp4-gemm}"; mkdir -p "$out"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
. "$here/run_limit.sh"
NVFP4_GPU_TESTS=1 NVFP4_RUN="$run" python3 -c "import sys; sys.path.insert(0, '$repo/.carry/lit'); from lit.main import main; main()" \
  -v "$repo/test/Integration/GPU/gemm-mxfp4.test" 2>&1 | tail -8
: > "$out/times.txt"
bench() {  # name file
  local us
  us=$(run_limited "$run" "$2" --require-gpu --bench --iters 100 2>&1 | grep "nvfp4-run: bench" | sed -e "s/.*: \([0-9.]*\) us per launch back to back.*/\1/")
  echo "$1 $us" | tee -a "$out/times.txt"
}
for s in "128 7168 16384" "128 4096 7168" "128 7168 2048"; do
  set -- $s
  python3 "$here/gen_gemm.py" "$1" "$2" "$3" > "$out/nv_$1_$2_$3.mlir"
  python3 "$here/gen_gemm.py" --mx "$1" "$2" "$3" > "$out/mx_$1_$2_$3.mlir"
  for rep in 1 2; do
    bench "nvfp4 $1x$2x$3" "$out/nv_$1_$2_$3.mlir"
    bench "mxfp4 $1x$2x$3" "$out/mx_$1_$2_$3.mlir"
  done
done
for s in "256 4096 7168" "512 4096 7168" "256 3072 4096" "512 3072 7168"; do
  set -- $s
  python3 "$here/gen_gemm.py" --dual "$1" "$2" "$3" > "$out/nvd_$1_$2_$3.mlir"
  python3 "$here/gen_gemm.py" --dual --mx "$1" "$2" "$3" > "$out/mxd_$1_$2_$3.mlir"
  for rep in 1 2; do
    bench "nvfp4 dual-$1x$2x$3" "$out/nvd_$1_$2_$3.mlir"
    bench "mxfp4 dual-$1x$2x$3" "$out/mxd_$1_$2_$3.mlir"
  done
done
for s in "4096 7168 80,176,128,72,64,248,96,160" "3072 4096 192,320"; do
  set -- $s
  python3 "$here/gen_grouped.py" "$1" "$2" "$3" > "$out/nvg_$1_$2.mlir"
  python3 "$here/gen_grouped.py" "$1" "$2" "$3" --mx > "$out/mxg_$1_$2.mlir"
  for rep in 1 2; do
    bench "nvfp4 grouped-$1x$2" "$out/nvg_$1_$2.mlir"
    bench "mxfp4 grouped-$1x$2" "$out/mxg_$1_$2.mlir"
  done
done
python3 "$here/gemm_peers.py" 2>&1 | tee "$out/peers.txt"
python3 - "$out/times.txt" "$out/peers.txt" <<'PY'
import re, sys
best = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 3 and parts[2]:
        key = (parts[0], parts[1])
        best[key] = min(best.get(key, 1e30), float(parts[2]))
triton = {}
for line in open(sys.argv[2]):
    m = re.match(r"triton_mxfp4 M=(\d+) N=(\d+) K=(\d+): ([0-9.]+) us", line)
    if m:
        triton[f"{m[1]}x{m[2]}x{m[3]}"] = float(m[4])
print("shape | NVFP4 us | MXFP4 us | MXFP4/NVFP4 | Triton MXFP4 us | Triton/ours")
for shape in dict.fromkeys(k[1] for k in best):
    nv, mx = best.get(("nvfp4", shape)), best.get(("mxfp4", shape))
    t = triton.get(shape)
    if nv is None or mx is None:
        print(f"{shape} | missing")
        continue
    ratio = f"{t / mx:.2f}x" if t else "-"
    print(f"{shape} | {nv:.2f} | {mx:.2f} | {mx / nv:.3f} | {t or '-'} | {ratio}")
PY
