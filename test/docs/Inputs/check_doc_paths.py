#!/usr/bin/env python3
"""Checks that the files README.md and docs/*.md name exist.

  check_doc_paths.py REPO_ROOT

Every `path` in backquotes that ends in a source or doc suffix must exist
relative to the repository root or docs/ (a bare file name anywhere in the
tree); `a/{b,c}.mlir` is expanded. Paths under build/ or .carry/ (made by
the build or on the GPU machine) are skipped. A document may not cite a
file that is not in the repository (DESIGN.md was). Prints what is missing
and exits 1, else prints "ok".
"""
import glob
import os
import re
import sys

SUFFIXES = "md|mlir|cpp|h|td|py|sh|test|c"


def expand(path):
    m = re.search(r"\{([^{}]*)\}", path)
    if not m:
        return [path]
    out = []
    for alt in m.group(1).split(","):
        out += expand(path[:m.start()] + alt + path[m.end():])
    return out


def main():
    root = sys.argv[1]
    names = set()
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs
                   if not d.startswith(".") and not d.startswith("build")]
        names.update(files)
    docs = [os.path.join(root, "README.md")] + sorted(
        glob.glob(os.path.join(root, "docs", "*.md")))
    missing = []
    for doc in docs:
        text = open(doc, encoding="utf-8").read()
        for m in re.finditer(r"`([A-Za-z0-9_./{},-]+\.(?:%s))`" % SUFFIXES,
                             text):
            for path in expand(m.group(1)):
                if path.startswith(("build", ".carry/", "/")):
                    continue
                here = [os.path.join(root, path),
                        os.path.join(root, "docs", path)]
                if any(os.path.exists(p) for p in here):
                    continue
                if "/" not in path and path in names:
                    continue
                missing.append("%s: `%s`" % (os.path.relpath(doc, root), path))
    for line in missing:
        print("missing:", line)
    if missing:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
