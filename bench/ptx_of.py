#!/usr/bin/env python3
"""Prints the PTX of every gpu.binary in nvfp4-opt's output (stdin), in
order: the `assembly = "..."` strings of the #gpu.objects, unescaped."""
import re
import sys


def main():
    text = sys.stdin.read()
    for m in re.finditer(r'assembly = "((?:[^"\\]|\\.)*)"', text):
        s = re.sub(r"\\([0-9A-Fa-f]{2})",
                   lambda h: chr(int(h.group(1), 16)), m.group(1))
        sys.stdout.write(s.replace("\\\\", "\\"))


if __name__ == "__main__":
    main()
