#!/usr/bin/env python3
"""Side-by-side latency and memory of cute-lsp and mlir-lsp-server (`make bench-lsp`).

Runs the shared client ../shared/bench/lsp_peer.py (one JSON line per run) against both servers
at each document size, the two servers interleaved round by round so that a busy spell of a shared
machine falls on both, and prints per size the range (min..max over rounds) of each figure and the
ratio cute/mlir of the medians. Wall-clock figures on a loaded machine include waiting for a core;
server CPU seconds do not, so they are printed too.

Environment: CUTE (cute-lsp binary), MLIR (peer binary), PEER (lsp_peer.py), SIZES
("lines:rounds:edits,..."), RAW (a file that gets every JSON line, for later comparison),
BASE (optional: another cute-lsp binary, say main's, run in the same rounds, so that a change is
measured before and after under the same load; its column and its own ratio to mlir are printed
beside).
"""
import json
import os
import statistics
import subprocess
import sys

DEFAULT_SIZES = "500:3:20,5000:3:20,50000:2:10,200000:1:5"
FIGURES = [  # (key in lsp_peer.py's line, printed name, format)
    ("open_ms", "open->diags ms", "{:.1f}"),
    ("edit_p50", "edit p50 ms", "{:.1f}"),
    ("edit_p99", "edit p99 ms", "{:.1f}"),
    ("hover_p99", "hover p99 ms", "{:.2f}"),
    ("peak_rss_mb", "peak RSS MB", "{:.0f}"),
    ("server_cpu_s", "server CPU s", "{:.2f}"),
]


def parse_sizes(spec):
    sizes = []
    for item in spec.split(","):
        lines, rounds, edits = (int(x) for x in item.split(":"))
        sizes.append((lines, rounds, edits))
    return sizes


def run_one(peer, kind, server, lines, edits):
    env = dict(os.environ, LINES=str(lines), EDITS=str(edits))
    proc = subprocess.run([sys.executable, peer, kind, server], env=env, capture_output=True, text=True, timeout=1800)
    out = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if proc.returncode != 0 or not out:
        raise RuntimeError(f"{kind} at {lines} lines failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
    rec = json.loads(out[-1])
    rec["peak_rss_mb"] = rec["peak_rss_kb"] / 1024
    return rec


def fmt_range(vals, f):
    lo, hi = min(vals), max(vals)
    return f.format(lo) if len(vals) == 1 or f.format(lo) == f.format(hi) else f"{f.format(lo)}..{f.format(hi)}"


def ratio(a, b):
    return f"{a / b:.2f}x" if b > 0 else "-"


def report(lines, runs):
    base = "base" in runs
    print(f"\n== {lines:,} lines: {len(runs['cute'])} round(s), min..max; ratio = median cute / median mlir")
    head = f"{'':16} {'cute-lsp':>20} {'mlir-lsp-server':>20} {'cute/mlir':>10}"
    print(head + (f" {'base':>20} {'base/mlir':>10}" if base else ""))
    for key, name, f in FIGURES:
        c = [r[key] for r in runs["cute"]]
        m = [r[key] for r in runs["mlir"]]
        mc, mm = statistics.median(c), statistics.median(m)
        line = f"{name:16} {fmt_range(c, f):>20} {fmt_range(m, f):>20} {ratio(mc, mm):>10}"
        if base:
            b = [r[key] for r in runs["base"]]
            line += f" {fmt_range(b, f):>20} {ratio(statistics.median(b), mm):>10}"
        print(line)
    sys.stdout.flush()
    return {name: statistics.median(r["open_ms"] for r in rs) for name, rs in runs.items()}


def report_growth(opens):
    """opens: [(lines, {server: median open ms})], in the order run."""
    if len(opens) < 2:
        return
    big, at_big = max(opens, key=lambda o: o[0])
    print(f"\n== open->diags growth to {big:,} lines (median open ms; linear: no more than the lines' growth)")
    for lines, at in sorted(opens, key=lambda o: o[0]):
        if lines == big:
            continue
        parts = [f"{name} {at[name]:.1f} -> {at_big[name]:.1f} ms = {at_big[name] / at[name]:.1f}x" for name in at if at[name] > 0]
        print(f"from {lines:,} ({big / lines:.0f}x lines): " + ", ".join(parts))


def main():
    cute = os.environ.get("CUTE", "bin/cute-lsp")
    mlir = os.environ.get("MLIR", "mlir-lsp-server-22")
    peer = os.environ.get("PEER", "../shared/bench/lsp_peer.py")
    raw = os.environ.get("RAW")
    base = os.environ.get("BASE")
    sizes = parse_sizes(os.environ.get("SIZES", DEFAULT_SIZES))
    if not os.path.exists(peer):
        sys.exit(f"bench-lsp: no client at {peer} (set PEER)")
    rawf = open(raw, "a") if raw else None
    opens = []
    for lines, rounds, edits in sizes:
        servers = [("cute", "cute", cute), ("mlir", "mlir", mlir)] + ([("base", "cute", base)] if base else [])
        runs = {name: [] for name, _, _ in servers}
        for r in range(rounds):
            # Alternate which server goes first, so none always gets the warmer caches.
            order = servers if r % 2 == 0 else servers[::-1]
            for name, kind, server in order:
                rec = run_one(peer, kind, server, lines, edits)
                rec["name"] = name
                runs[name].append(rec)
                if rawf:
                    rawf.write(json.dumps(rec) + "\n")
                    rawf.flush()
        opens.append((lines, report(lines, runs)))
    report_growth(opens)


if __name__ == "__main__":
    main()
