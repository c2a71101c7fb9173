#!/usr/bin/env python3
"""Writes the inputs that crashed the MLIR parser or printer (stack
overflows) into DIR, one file each, plus a few that must still parse.

  gen_parser_inputs.py DIR
"""
import os
import sys

MEMREF_FN = "func.func private @f(memref<4xf32, #m>)\n"


def alias_chain(name, first, wrap, sep="\n", n=100000):
    """n alias definitions, each nesting the one before: name % 0 = first,
    name % i = wrap % (name % (i - 1))."""
    return sep.join([(name % 0) + " = " + first] +
                    ["%s = %s" % (name % i, wrap % (name % (i - 1)))
                     for i in range(1, n)])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = {
        # 10,000 unary minuses: one parser recursion each.
        "crash-minus.mlir":
            "#m = affine_map<(d0) -> (" + "-" * 10000 + "d0)>\n" + MEMREF_FN,
        # A 100,000-term sum.
        "crash-sum.mlir":
            "#m = affine_map<(d0) -> (" + " + ".join(["d0"] * 100000) +
            ")>\n" + MEMREF_FN,
        # A 100,000-factor product (symbols keep it affine).
        "crash-product.mlir":
            "#m = affine_map<(d0)[s0] -> (d0" + " * 2" * 100000 + ")>\n" +
            "func.func private @f(memref<4xf32, #m>)\n",
        # Attributes nested 100,000 deep through aliases: the brackets of
        # each line nest one level, the printer recurses through all.
        "crash-alias.mlir":
            alias_chain("#a%d", "[0]", "[%s]")
            + "\nfunc.func private @f() attributes {x = #a99999}\n",
        # The same through type aliases.
        "crash-type-alias.mlir":
            alias_chain("!t%d", "tuple<i32>", "tuple<%s>")
            + "\nfunc.func private @f(!t99999)\n",
        # An integer set's `>=` is not a closing bracket: it must not end
        # the operator count early.
        "crash-set.mlir":
            "#s = affine_set<(d0) : (d0 >= 0, d0 >= 0, " + "-" * 10000 +
            "d0 >= 0)>\nfunc.func private @f() attributes {x = #s}\n",
        # Alias names with `-`, and definitions on one line.
        "crash-alias-dash.mlir":
            alias_chain("#a-%d", "[0]", "[%s]")
            + "\nfunc.func private @f() attributes {x = #a-99999}\n",
        "crash-alias-one-line.mlir":
            alias_chain("#a%d", "[0]", "[%s]", sep=" ")
            + "\nfunc.func private @f() attributes {x = #a99999}\n",
        # A blank between affine_map and its bracket.
        "crash-minus-spaced.mlir":
            "#m = affine_map <(d0) -> (" + "-" * 10000 + "d0)>\n" +
            MEMREF_FN,
        # Brackets nested 100,000 deep.
        "crash-brackets.mlir":
            "func.func private @f() attributes {x = " + "[" * 100000 +
            "]" * 100000 + "}\n",
        # Binary data.
        "binary.mlir": "\x7fELF\x02\x01\x01\x00" + "\x00" * 64,
        # Not UTF-8.
        "latin1.mlir": "func.func private @f() // caf\xe9\n",
        # Within the limits: a 1000-term sum, 200 alias levels.
        "ok-sum.mlir":
            "#m = affine_map<(d0) -> (" + " + ".join(["d0"] * 1000) +
            ")>\n" + MEMREF_FN,
        "ok-alias.mlir":
            alias_chain("#a%d", "[0]", "[%s]", n=200)
            + "\nfunc.func private @f() attributes {x = #a199}\n",
    }
    for name, text in cases.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(text.encode("latin1"))


if __name__ == "__main__":
    main()
