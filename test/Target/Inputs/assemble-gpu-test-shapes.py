#!/usr/bin/env python3
"""Compiles every GEMM a GPU integration test writes (its `%gengemm ...`
RUN lines) for a target with nvfp4-run --emit=ptx, and assembles the PTX
with `ptxas -v`. Prints one line per GEMM with its entry functions and
their spill bytes, and exits non-zero if a compile or assembly fails or a
kernel spills. So CI proves, without the chip, that the shapes the GPU
suite runs on an H100 also compile for sm_100a.

  assemble-gpu-test-shapes.py NVFP4_RUN PTXAS TARGET GEN_GEMM TEST... OUTDIR
"""
import os
import re
import subprocess
import sys

run, ptxas, target, gen = sys.argv[1:5]
tests, out = sys.argv[5:-1], sys.argv[-1]
os.makedirs(out, exist_ok=True)
failed = 0
count = 0
for test in tests:
    for line in open(test):
        match = re.match(r"#\s*RUN:\s*%gengemm\s+(.*?)\s*>", line)
        if not match:
            continue
        args = match.group(1).split()
        count += 1
        stem = os.path.join(out, f"gemm{count}")
        mlir = subprocess.run([sys.executable, gen] + args, check=True,
                              capture_output=True, text=True).stdout
        with open(stem + ".mlir", "w") as f:
            f.write(mlir)
        compiled = subprocess.run(
            [run, stem + ".mlir", "--target", target, "--emit=ptx", "-o",
             stem + ".ptx"], capture_output=True, text=True)
        if compiled.returncode != 0:
            print(f"FAILED to compile {' '.join(args)}:\n{compiled.stderr}")
            failed += 1
            continue
        arch = target
        assembled = subprocess.run(
            [ptxas, f"-arch={arch}", "-v", stem + ".ptx", "-o",
             stem + ".cubin"], capture_output=True, text=True)
        report = assembled.stdout + assembled.stderr
        entries = re.findall(r"Compiling entry function '(\w+)'", report)
        spills = [int(a) + int(b) for a, b in re.findall(
            r"(\d+) bytes spill stores, (\d+) bytes spill loads", report)]
        if assembled.returncode != 0 or not entries or any(spills):
            print(f"FAILED to assemble {' '.join(args)} (spills {spills}):\n"
                  f"{report}")
            failed += 1
            continue
        print(f"assembled {' '.join(args)}: {len(entries)} kernels, "
              f"{sum(spills)} spill bytes")
print(f"{count} GEMMs, {failed} failed")
sys.exit(1 if failed else 0)
