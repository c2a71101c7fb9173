# -*- Python -*-
# GPU integration tests: self-checking nvfp4-run invocations (nvfp4-run exits
# non-zero when the GPU result differs from the CPU reference), so they need
# neither FileCheck nor an LLVM install on the GPU machine.
#
# Run on an H100/H200 (lit from LLVM's utils/lit, nvfp4-run from the static
# build):
#   NVFP4_GPU_TESTS=1 NVFP4_RUN=/path/to/nvfp4-run python3 lit.py -v test/Integration/GPU
# Elsewhere (CI) they are UNSUPPORTED.

import os
import shutil
import sys

import lit.formats

config.name = "NVFP4-GPU"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.environ.get(
    "NVFP4_GPU_TEST_OUT", os.path.join("/tmp", "nvfp4-gpu-tests"))
# lit records test times there even when every test is unsupported.
os.makedirs(config.test_exec_root, exist_ok=True)

repo = os.path.abspath(os.path.join(config.test_source_root, "..", "..", ".."))
run = os.environ.get("NVFP4_RUN", "")
if not run:
    for candidate in (os.path.join(repo, "build", "bin", "nvfp4-run"),
                      shutil.which("nvfp4-run") or ""):
        if candidate and os.path.exists(candidate):
            run = candidate
            break
config.substitutions.append(("%nvfp4-run", run or "nvfp4-run-not-found"))
config.substitutions.append(
    ("%gen", sys.executable + " " + os.path.join(repo, "bench", "gen_gemv.py")))

if os.environ.get("NVFP4_GPU_TESTS", "") == "1" and run:
    config.available_features.add("gpu")
