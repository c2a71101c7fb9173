#!/usr/bin/env python3
"""Writes the code blocks of README.md that follow an
`<!-- file: DIR/NAME -->` marker to OUT/DIR/NAME, so the package test builds
exactly what the README tells an embedder to write.

usage: readme_blocks.py README.md OUT
"""
import os
import re
import sys

readme, out = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
pattern = re.compile(r"<!-- file: (\S+) -->\s*```[a-z+]*\n(.*?)```", re.S)
found = 0
for name, body in pattern.findall(text):
    path = os.path.join(out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(body)
    found += 1
if found == 0:
    sys.exit("readme_blocks.py: no `<!-- file: ... -->` code blocks in " + readme)
print(f"{found} files")
