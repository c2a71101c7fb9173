# -*- Python -*-
# GPU integration tests: self-checking nvfp4-run invocations (nvfp4-run exits
# non-zero when the GPU result differs from the CPU reference), so they need
# neither FileCheck nor an LLVM install on the GPU machine.
#
# Every run uses --require-gpu: nvfp4-run exits non-zero unless the kernels
# ran on the GPU and were checked, so these tests cannot pass on the CPU.
#
# Run on an H100/H200 (lit from LLVM's utils/lit, nvfp4-run from the static
# build):
#   NVFP4_GPU_TESTS=1 NVFP4_RUN=/path/to/nvfp4-run python3 lit.py -v test/Integration/GPU
# The `gpu` feature comes from probing the device (nvfp4-run --probe-gpu),
# with the device's target as a second feature: `gpu-sm_90a` on an
# H100/H200, `gpu-sm_100a` on a compute-capability-10.0 device (B200). The
# tests that need no plan of their own (contest and random shapes) run on
# either, for the device's target (nvfp4-run's default); the plan tests
# need the target their plans are for. With NVFP4_GPU_TESTS=1 a failed
# probe is a configuration error, not a silent UNSUPPORTED.
# NVFP4_GPU_TESTS=force sets every feature without probing (to show that
# the tests then fail on a machine without a GPU). Elsewhere (CI) they are
# UNSUPPORTED.

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
# Each run under a wall-clock limit (NVFP4_RUN_TIMEOUT seconds, default
# 300), so that a kernel that hangs fails its test instead of holding the
# whole device lease.
limit = shutil.which("timeout")
config.substitutions.append(
    ("%nvfp4-run",
     (f"{limit} {os.environ.get('NVFP4_RUN_TIMEOUT', '300')} " if limit and run
      else "") + (run or "nvfp4-run-not-found")))
config.substitutions.append(
    ("%gengemm", sys.executable + " " + os.path.join(repo, "bench", "gen_gemm.py")))
config.substitutions.append(
    ("%genquant",
     sys.executable + " " + os.path.join(repo, "bench", "gen_quantize.py")))
config.substitutions.append(
    ("%genproblems",
     sys.executable + " " + os.path.join(repo, "bench", "gen_problems.py")))
config.substitutions.append(
    ("%gengrouped",
     sys.executable + " " + os.path.join(repo, "bench", "gen_grouped.py")))
config.substitutions.append(
    ("%examples", os.path.join(repo, "examples")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%gen", sys.executable + " " + os.path.join(repo, "bench", "gen_gemv.py")))

import subprocess

mode = os.environ.get("NVFP4_GPU_TESTS", "")
if mode == "force":
    config.available_features.update(["gpu", "gpu-sm_90a", "gpu-sm_100a"])
elif run:
    try:
        probe = subprocess.run([run, "--probe-gpu"], capture_output=True,
                               text=True, timeout=60)
        found, answer = probe.returncode == 0, probe.stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as e:
        found, answer = False, str(e)
    if found:
        config.available_features.add("gpu")
        # gpu: sm_90a NVIDIA H200 -> feature gpu-sm_90a
        config.available_features.add("gpu-" + answer.split()[1])
        lit_config.note("GPU tests on " + answer)
    elif mode == "1":
        lit_config.fatal("NVFP4_GPU_TESTS=1 but nvfp4-run found no GPU it "
                         "targets: " + answer)
elif mode == "1":
    lit_config.fatal("NVFP4_GPU_TESTS=1 but nvfp4-run was not found (set "
                     "NVFP4_RUN)")
