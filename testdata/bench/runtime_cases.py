#!/usr/bin/env python3
"""Writes the cases of ../shared/bench/pycute_cases.json that CuTe C++ can take with run-time integers
in one fixed program, for composition, complement and logical_divide: flat layouts of rank 1 or 2,
where CuTe's complement (alone, and inside logical_divide on the tiler) takes rank 1 only ("Dynamic-
stride complement only for rank-1 layouts") and an integer target; and no stride 0 (with run-time
integers CuTe divides by it: a floating-point exception where static CuTe special-cases it); as runtime_cases.json (same format) and runtime_cases.txt (one case a
line, integers only, read by cute_runtime_bench.cpp).
Usage: python3 runtime_cases.py [pycute_cases.json] [outdir]"""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared", "bench", "pycute_cases.json")
out = sys.argv[2] if len(sys.argv) > 2 else here


def flat(text):
    """(shape list, stride list) of a flat layout of rank 1 or 2 written S:D, or None."""
    if not isinstance(text, str) or ":" not in text:
        return None
    s, d = text.replace("_", "").split(":")
    def ints(t):
        t = t.strip()
        if t.startswith("("):
            inner = t[1:-1]
            if "(" in inner:
                return None
            return [int(x) for x in inner.split(",")]
        return [int(t)]
    s, d = ints(s), ints(d)
    if s is None or d is None or len(s) != len(d) or not 1 <= len(s) <= 2:
        return None
    return s, d


cases = json.load(open(src))
kept, lines = {}, []
for op in ("composition", "complement", "logical_divide"):
    kept[op] = []
    for c in cases[op]:
        a = flat(c[0])
        if a is None:
            continue
        if op == "complement":
            if len(a[0]) != 1 or len(c) != 2 or not isinstance(c[1], int):
                continue
            rest = ["n", str(c[1])]
        else:
            b = flat(c[1])
            if b is None or op == "logical_divide" and len(b[0]) != 1:
                continue
            rest = [str(len(b[0]))] + [str(x) for x in b[0] + b[1]]
        if 0 in a[1] or op != "complement" and 0 in b[1]:
            continue
        kept[op].append(c)
        lines.append(" ".join([op, str(len(a[0]))] + [str(x) for x in a[0] + a[1]] + rest))

json.dump(kept, open(os.path.join(out, "runtime_cases.json"), "w"), indent=0)
open(os.path.join(out, "runtime_cases.txt"), "w").write("\n".join(lines) + "\n")
print(" ".join(f"{op}: {len(v)}" for op, v in kept.items()))
