#!/usr/bin/env bash
#===- bench/ptx_identity.sh - compare two builds' PTX on a set of shapes ---===#
#
#   bench/ptx_identity.sh OLD_NVFP4_OPT NEW_NVFP4_OPT OUT_DIR
#
# For a refactoring that must not change the kernels: compiles every shape
# below for sm_90a and sm_100a with both nvfp4-opt builds (the planner's own
# plans) and compares the PTX of every gpu.binary byte for byte. Prints one
# line per shape and target, `same` or `DIFFERENT` (the two PTX files are
# kept under OUT_DIR), and exits 1 when any differs. The shapes: the three
# contest GEMVs and GEMMs, and eleven others (small and ragged M and N,
# batched, bf16 and f32 outputs, blocked scales, long and short K, long K
# whose plain scales keep B out of the ring).
#===----------------------------------------------------------------------===#
set -euo pipefail

old="$1" new="$2" out="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$out"

# name | generator arguments
shapes=(
  "gemv-7168x16384x1|gemv 7168 16384 1"
  "gemv-4096x7168x8|gemv 4096 7168 8"
  "gemv-7168x2048x4|gemv 7168 2048 4"
  "gemm-128x7168x16384|gemm 128 7168 16384"
  "gemm-128x4096x7168|gemm 128 4096 7168"
  "gemm-128x7168x2048|gemm 128 7168 2048"
  "gemm-8x512x1024|gemm 8 512 1024"
  "gemm-40x300x448|gemm 40 300 448"
  "gemm-200x1000x2048-bf16|gemm 200 1000 2048 0 bf16"
  "gemm-96x4096x4096-f32|gemm 96 4096 4096 0 f32"
  "gemm-256x4096x7168-b2|gemm 256 4096 7168 2"
  "gemm-128x7168x2048-blocked|gemm 128 7168 2048 0 f16 --blocked=ab"
  "gemm-64x4096x7168|gemm 64 4096 7168"
  "gemm-1024x1024x512|gemm 1024 1024 512"
  "gemm-130x64x256|gemm 130 64 256"
  "gemv-1000x4608x3-bf16|gemv 1000 4608 3 bf16"
  "gemm-128x7168x8320|gemm 128 7168 8320"
)

# The PTX of every gpu.binary of an nvfp4-opt output, in order.
extract() { python3 "$here/ptx_of.py"; }

status=0
for entry in "${shapes[@]}"; do
  name="${entry%%|*}"
  read -r kind args <<< "${entry#*|}"
  python3 "$here/gen_$kind.py" $args > "$out/$name.mlir"
  for target in sm_90a sm_100a; do
    for which in old new; do
      tool="$old"; [ "$which" = new ] && tool="$new"
      if ! "$tool" "$out/$name.mlir" \
          --nvfp4-pipeline="target=$target format=isa" 2> "$out/$name.$target.$which.err" \
          | extract > "$out/$name.$target.$which.ptx"; then
        echo "$which: failed" >> "$out/$name.$target.$which.ptx"
      fi
    done
    if cmp -s "$out/$name.$target.old.ptx" "$out/$name.$target.new.ptx" &&
       [ -s "$out/$name.$target.new.ptx" ]; then
      echo "$name $target: same ($(wc -c < "$out/$name.$target.new.ptx") bytes of PTX)"
    else
      echo "$name $target: DIFFERENT (see $out/$name.$target.{old,new}.ptx)"
      status=1
    fi
  done
done
exit $status
