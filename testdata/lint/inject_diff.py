#!/usr/bin/env python3
"""Lint's findings on real code, two builds compared: a differential check for changes to lint's read.

A CUTLASS checkout yields no finding, so comparing lint's output over it before and after a change
to what lint reads (the runs it leaves out, the files it skips) shows nothing of the findings path.
This copies CUTLASS's include/cute and examples/cute into a scratch folder and writes, after a few
statement lines of every C++ file (chosen by SEED), one statement that CuTe rejects at compile time
(the cases of analysis/code_findings_test.go: a stride divisibility failure, a non-injective
complement, too many tiler modes, ...). It runs `lint --hints` of each binary over the copy and
prints how many statements it wrote and how many findings each binary reports; the outputs must be
byte for byte the same, or it prints the first differing lines and exits 1.

Not every statement written yields a finding: one lands in a class body, after a return, or in code
lint does not trust (code_trust.go), and lint reports none there; both builds must agree on which.

  python3 testdata/lint/inject_diff.py OLD_BIN NEW_BIN [SEED ...]     (CUTLASS=/work/cutlass)

A run over include/cute + examples/cute with three seeds takes about 10 s.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

# Statements CuTe rejects at compile time, each with its own name ({n}).
REJECTED = [
    "auto zz_composition{n} = composition(Layout<Shape<_4,_4>, Stride<_4,_1>>{{}}, Layout<_2,_6>{{}});",
    "auto zz_complement{n} = complement(Layout<Shape<_2,_4>, Stride<_2,_1>>{{}}, _16{{}});",
    "auto zz_divide{n} = logical_divide(Layout<Shape<_4,_4>>{{}}, make_tile(_2{{}}, _2{{}}, _2{{}}));",
    "auto zz_upcast{n} = upcast<4>(Layout<Shape<_4,_8>, Stride<_6,_1>>{{}});",
    "auto zz_take{n} = take<1,4>(Layout<Shape<_4,_8>>{{}});",
    "if constexpr (true) {{ auto zz_tile{n} = tile_to_shape(Layout<Shape<_8,_8>>{{}}, make_shape(_64{{}}, _12{{}})); }}",
]

CPP = (".hpp", ".h", ".cuh", ".cu", ".cpp")
PER_FILE = 4  # statements written into each C++ file (fewer where it has fewer statement lines)


def inject(cutlass, out, seed):
    """Copies CUTLASS's CuTe folders into out with statements written in; returns how many."""
    rng = random.Random(seed)
    written = 0
    for top in ("include/cute", "examples/cute"):
        for folder, _, names in os.walk(os.path.join(cutlass, top)):
            for name in sorted(names):
                src = os.path.join(folder, name)
                dst = os.path.join(out, os.path.relpath(src, cutlass))
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                if not name.endswith(CPP):
                    shutil.copyfile(src, dst)
                    continue
                with open(src, encoding="utf-8", errors="surrogateescape") as f:
                    lines = f.read().split("\n")
                # Indented lines that end a statement: most are in a body.
                sites = [i for i, line in enumerate(lines)
                         if line.startswith("  ") and line.rstrip().endswith(";")
                         and not line.lstrip().startswith(("//", "#", "*"))]
                for i in sorted(rng.sample(sites, min(len(sites), PER_FILE)), reverse=True):
                    written += 1
                    lines.insert(i + 1, "  " + rng.choice(REJECTED).format(n=written))
                with open(dst, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write("\n".join(lines))
    return written


def lint(binary, tree):
    run = subprocess.run([binary, "lint", "--hints", "include", "examples"], cwd=tree,
                         capture_output=True, text=True, errors="surrogateescape")
    return run.returncode, run.stdout + run.stderr


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = (os.path.abspath(b) for b in sys.argv[1:3])
    seeds = [int(s) for s in sys.argv[3:]] or [1, 2, 3]
    cutlass = os.environ.get("CUTLASS", "/work/cutlass")
    if not os.path.isdir(os.path.join(cutlass, "include", "cute")):
        print(f"inject_diff: skipped: no CUTLASS checkout at {cutlass} (set CUTLASS=...)")
        return
    differ = False
    for seed in seeds:
        with tempfile.TemporaryDirectory(prefix="inject-diff-") as tree:
            written = inject(cutlass, tree, seed)
            (old_rc, old_out), (new_rc, new_out) = lint(old, tree), lint(new, tree)
        count = lambda out: sum(": error: " in line for line in out.splitlines())
        print(f"seed {seed}: {written} statements written; findings {count(old_out)} (exit {old_rc}) "
              f"and {count(new_out)} (exit {new_rc})")
        if (old_rc, old_out) != (new_rc, new_out):
            differ = True
            a, b = old_out.splitlines(), new_out.splitlines()
            for i in range(max(len(a), len(b))):
                x, y = a[i] if i < len(a) else "", b[i] if i < len(b) else ""
                if x != y:
                    print(f"  first difference, line {i + 1}:\n  - {x}\n  + {y}")
                    break
    if differ:
        print("inject_diff: the outputs differ")
        sys.exit(1)
    print("inject_diff: the same findings")


if __name__ == "__main__":
    main()
