#!/usr/bin/env python3
"""Prints the PTX of the first gpu.binary object in MLIR text on stdin
(gpu-module-to-binary with format=isa), undoing MLIR's string escapes, so
that ptxas can assemble PTX written by hand in NVVM ops."""
import re
import sys

text = sys.stdin.read()
# The PTX is the object's string that starts with the backend's "//" header.
match = re.search(r'"(//(?:[^"\\]|\\.)*)"', text)
if not match:
    sys.exit("extract-ptx.py: no gpu.object with PTX on stdin")
body = match.group(1)
# MLIR prints non-printable and special characters as \XX (two hex digits).
ptx = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), body)
sys.stdout.write(ptx)
