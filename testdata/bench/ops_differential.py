#!/usr/bin/env python3
"""Behaviour unchanged, differentially: `cute-lsp run` of one seeded sheet of random calls of the
algebra's operations (coalesce, complement, composition, the inverses, the divides and products,
max_common_*, nullspace, filter), on layouts up to three levels deep with zero, negative and
scaled-basis strides, by this checkout's cute-lsp and another's; every line they print (values and
error messages alike) must agree. The golden corpora pin values CuTe computed; this pins everything
else a rewrite of a body may move, its errors' wording above all (a stale buffer in an error path
passed every test and fuzzer, and this found it).

    python3 testdata/bench/ops_differential.py OTHER_CHECKOUT [CALLS [SEED]]   (defaults 8000, 11)

Exit 0 when the outputs agree, 1 with the first differing lines when not.
"""
import os, random, subprocess, sys, tempfile

here = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
other = os.path.abspath(sys.argv[1])
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 11)

def stride(basis):
    if basis and rng.random() < 0.4:
        return f"{rng.choice([1, 2, 4])}@{rng.choice([0, 1])}"
    return str(rng.choice([0, 1, 1, 2, 3, 4, 8, 16, 32, -1, -2, 6, 12, 5]))

def tree(depth, basis):
    if depth == 0 or rng.random() < 0.45:
        return str(rng.choice([1, 1, 2, 2, 2, 3, 4, 4, 5, 6, 7, 8, 16])), stride(basis)
    kids = [tree(depth - 1, basis) for _ in range(rng.randint(1, 4))]
    return "(" + ",".join(k[0] for k in kids) + ")", "(" + ",".join(k[1] for k in kids) + ")"

def layout(basis=False):
    s, d = tree(3, basis)
    return s + ":" + d

ops = [("coalesce", 1), ("complement", 1), ("complement", 2), ("composition", 2), ("right_inverse", 1),
       ("left_inverse", 1), ("logical_divide", 2), ("logical_product", 2), ("zipped_divide", 2),
       ("tiled_divide", 2), ("flat_divide", 2), ("zipped_product", 2), ("blocked_product", 2),
       ("raked_product", 2), ("max_common_layout", 2), ("max_common_vector", 2), ("nullspace", 1),
       ("filter", 1)]
lines = []
for i in range(calls):
    op, n = rng.choice(ops)
    if op == "complement" and n == 2:
        args = [layout(), rng.choice(["1", "4", "8", "12", "16", "32", "256", "0", "3", "24", "(4,8)", "(2,3,4)", "(16,1)"])]
    elif op in ("coalesce", "composition"):
        args = [layout(rng.random() < 0.3)] + [layout(rng.random() < 0.2) for _ in range(n - 1)]
    else:
        args = [layout() for _ in range(n)]
    lines.append(f"x{i} = {op}({', '.join(args)})")

with tempfile.TemporaryDirectory() as tmp:
    sheet = os.path.join(tmp, "calls.cute")
    with open(sheet, "w") as f:
        f.write("\n".join(lines) + "\n")
    outs = []
    for k, checkout in enumerate([here, other]):
        binary = os.path.join(tmp, f"cute-lsp-{k}")
        subprocess.run(["go", "build", "-o", binary, "./cmd/cute-lsp"], cwd=checkout, check=True)
        run = subprocess.run([binary, "run", sheet], capture_output=True, text=True)
        outs.append((run.stdout + run.stderr).splitlines())
ours, theirs = outs
bad = [(i, a, b) for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
print(f"ops_differential: {calls} calls, {len(ours)} lines here, {len(theirs)} in {other}, {len(bad)} differ")
for i, a, b in bad[:5]:
    print(f"  line {i + 1}:\n    here:  {a}\n    other: {b}")
sys.exit(1 if bad or len(ours) != len(theirs) else 0)
