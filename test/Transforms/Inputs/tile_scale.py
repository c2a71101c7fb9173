#!/usr/bin/env python3
"""Checks that planning and tiling a module of many ops (with the verifier
and printing) grows linearly: the time for 4N ops is below 7x the time for
N (linear: about 4x; the quadratic kernel naming and single gpu.module of
before took 10x and more). Best of three runs each.

  tile_scale.py NVFP4_OPT WORKDIR N
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import many_gemvs  # noqa: E402


def best_time(tool, path):
    best = None
    for _ in range(3):
        start = time.monotonic()
        subprocess.run([tool, path, "--nvfp4-plan=target=sm_90a",
                        "--nvfp4-tile=target=sm_90a", "-o", os.devnull],
                       check=True)
        t = time.monotonic() - start
        best = t if best is None else min(best, t)
    return best


def main():
    tool, work, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    times = []
    for count in (n, 4 * n):
        path = os.path.join(work, "many%d.mlir" % count)
        sys.argv = ["many_gemvs.py", str(count), path]
        many_gemvs.main()
        times.append(best_time(tool, path))
    ratio = times[1] / times[0]
    print("ops %d: %.3f s, ops %d: %.3f s, ratio %.2f" %
          (n, times[0], 4 * n, times[1], ratio))
    if ratio >= 7:
        print("superlinear: 4x the ops took %.1fx the time" % ratio)
        sys.exit(1)
    print("linear")


if __name__ == "__main__":
    main()
