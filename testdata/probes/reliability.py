#!/usr/bin/env python3
"""Reliability probes: the reproducers of the reliability issue, run against a
built cute-lsp binary, each in a fresh process, with the CPU time and peak
resident memory that process used and whether it was still alive and
answering at the end.

    python3 testdata/probes/reliability.py bin/cute-lsp [PROBE...]

It prints one line per probe: name, verdict, CPU seconds, peak RSS in MB, and
what was seen. A probe passes when the server (or CLI) is alive, answered,
used under 2 s of CPU per request and under 500 MB, and read nothing it was
not given. Every process runs under a 4 GB address-space limit and a
time limit, so a probe of an old binary fails instead of taking the machine.
Run it by hand (it is not part of make test: the Go tests cover each case).
"""
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BIN = None
LIMIT_AS = 4 << 30
PROBE_SECONDS = 40


def limits():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))
    os.setsid()


def proc_stats(pid):
    """CPU seconds (user+system) and peak RSS (MB) of a live process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        cpu = (int(fields[11]) + int(fields[12])) / tick
        hwm = 0
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1]) / 1024
        return cpu, hwm
    except OSError:
        return None, None


class Server:
    def __init__(self, root, settings=None):
        self.p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, preexec_fn=limits)
        self.next_id = 0
        self.buf = b""
        self.notes = []
        self.cpu = self.rss = None
        folders = [{"uri": "file://" + root, "name": "w"}] if root else None
        init = {"processId": os.getpid(), "rootUri": folders[0]["uri"] if folders else None,
                "workspaceFolders": folders, "capabilities": {},
                "initializationOptions": settings}
        self.request("initialize", init, timeout=20)
        self.notify("initialized", {})

    def send(self, msg, raw_header=None):
        body = json.dumps(msg).encode()
        header = raw_header if raw_header is not None else f"Content-Length: {len(body)}\r\n\r\n".encode()
        try:
            self.p.stdin.write(header + body)
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=PROBE_SECONDS, wait=True):
        self.next_id += 1
        self.requests = getattr(self, "requests", 0) + 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        if not wait:
            return rid
        return self.wait_reply(rid, timeout)

    def wait_reply(self, rid, timeout=PROBE_SECONDS):
        deadline = time.time() + timeout
        while time.time() < deadline:
            msg = self.read(deadline - time.time())
            if msg is None:
                return None
            if msg.get("id") == rid and "method" not in msg:
                return msg
            self.notes.append(msg)
        return None

    def read(self, timeout):
        import select
        deadline = time.time() + timeout
        while True:
            if b"\r\n\r\n" in self.buf:
                head, rest = self.buf.split(b"\r\n\r\n", 1)
                n = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        n = int(line.split(b":")[1])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    return json.loads(rest[:n])
            left = deadline - time.time()
            if left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.p.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self.buf += chunk

    def alive(self):
        """Alive and answering: a hover on an unopened document is answered."""
        if self.p.poll() is not None:
            return False
        return self.request("textDocument/hover", {"textDocument": {"uri": "file:///nonexistent/x.cute"},
                                                   "position": {"line": 0, "character": 0}}, timeout=10) is not None

    def close(self):
        self.cpu, self.rss = proc_stats(self.p.pid)
        ok = self.alive()
        self.cpu, self.rss = proc_stats(self.p.pid) if ok else (self.cpu, self.rss)
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except OSError:
            pass
        self.p.wait()
        return ok


def open_doc(s, uri, text, lang="cute"):
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}})


def pos(line, ch):
    return {"line": line, "character": ch}


def doc(uri):
    return {"textDocument": {"uri": uri}}


# --- probes: each returns (ok, detail, server-or-None for cpu/rss) ---

def probe_edit_atoms(work):
    s = Server(work)
    uri = "file://" + work + "/atoms.cute"
    open_doc(s, uri, 'k = mma_atom("SM80_16x8x16_F32F16F16F32_TN")\n')
    s.request("textDocument/hover", {**doc(uri), "position": pos(0, 5)})
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": pos(0, 0), "end": pos(0, 0)}, "text": "x = 1:1\n"}]})
    time.sleep(0.5)
    r = s.request("textDocument/hover", {**doc(uri), "position": pos(1, 5)})
    ok = s.close()
    return ok and r is not None and "error" not in r, f"hover after the edit: {'answered' if r and 'error' not in r else r}", s


def doubling(n, op="({p},{p})", first="2"):
    lines = ["a0 = " + first] + [f"a{i} = " + op.format(p=f"a{i-1}") for i in range(1, n + 1)]
    return "\n".join(lines) + "\n"


def probe_doubling(work, n=30, op="({p},{p})", first="2"):
    s = Server(work)
    uri = "file://" + work + "/big.cute"
    text = doubling(n, op, first)
    open_doc(s, uri, text)
    replies = []
    for m, p in [("textDocument/documentSymbol", doc(uri)),
                 ("textDocument/inlayHint", {**doc(uri), "range": {"start": pos(0, 0), "end": pos(n + 1, 0)}}),
                 ("textDocument/hover", {**doc(uri), "position": pos(n, 1)}),
                 ("textDocument/completion", {**doc(uri), "position": pos(n, 5)})]:
        r = s.request(m, p, timeout=30)
        size = len(json.dumps(r)) if r else 0
        replies.append(f"{m.split('/')[-1]}:{'ok' if r and 'error' not in r else 'none' if r is None else 'error'}({size}B)")
    ok = s.close()
    return ok and all("none" not in x for x in replies), " ".join(replies), s


def probe_doubling_make_layout(work):
    return probe_doubling(work, 20, "make_layout({p},{p},{p})", "2:1")


def probe_outside_reads(work):
    outside = tempfile.mkdtemp(prefix="probe-outside-")
    secret = os.path.join(outside, "secret.cute")
    with open(secret, "w") as f:
        f.write("password = hunter2\n")
    os.symlink(secret, os.path.join(work, "link.cute"))
    s = Server(work)
    seen = []
    uris = ["file://" + secret, "file://" + work + "/../" + os.path.basename(outside) + "/secret.cute",
            "file://" + work + "/link.cute", "file://otherhost" + secret, "file://" + secret + "?.cute",
            "file:///etc/passwd?.cute"]
    leaked = False
    for u in uris:
        r = s.request("textDocument/diagnostic", doc(u), timeout=20)
        text = json.dumps(r)
        if "hunter2" in text or "root:" in text:
            leaked = True
        seen.append("leak" if ("hunter2" in text or "root:" in text) else ("error" if r and "error" in r else "none" if r is None else "ok"))
    r = s.request("textDocument/hover", {"textDocument": {"uri": "file:///proc/self/pagemap"}, "position": pos(0, 0)}, timeout=20)
    seen.append("pagemap:" + ("none" if r is None else "answered"))
    ok = s.close()
    shutil.rmtree(outside, ignore_errors=True)
    return ok and not leaked and r is not None, " ".join(seen), s


def probe_root_walk(work):
    s = Server("/")
    t0 = time.time()
    r = s.request("workspace/diagnostic", {"previousResultIds": []}, timeout=60)
    dt = time.time() - t0
    ok = s.close()
    return ok and r is not None and dt < 5, f"workspace diagnostics with root /: {dt:.1f}s, {'answered' if r else 'no reply'}", s


def probe_unopened_memory(work):
    d = os.path.join(work, "many")
    os.makedirs(d)
    body = "".join(f"l{i} = logical_divide((128,64):(64,1), [32:1;8:1])\n" for i in range(2000))
    n = 0
    while n * len(body) < 15 << 20:
        with open(os.path.join(d, f"s{n}.cute"), "w") as f:
            f.write(body)
        n += 1
    s = Server(work)
    r = s.request("workspace/diagnostic", {"previousResultIds": []}, timeout=120)
    one = os.path.join(d, "s0.cute")
    for i in range(100):
        s.request("textDocument/diagnostic", doc("file://" + d + "/" + "./" * (i + 1) + "s0.cute"), timeout=20)
    ok = s.close()
    return ok and r is not None, f"{n} sheets, {n * len(body) >> 20} MB, then 100 URIs of one file", s


def probe_table_cap(work):
    s = Server(work, {"cute": {"tableCap": 65536}})
    uri = "file://" + work + "/t.cute"
    open_doc(s, uri, "a = (65536,65536):(1,65536)\n")
    s.notify("workspace/didChangeConfiguration", {"settings": {"cute": {"tableCap": 65536}}})
    r = s.request("textDocument/hover", {**doc(uri), "position": pos(0, 5)}, timeout=30)
    ok = s.close()
    return ok and r is not None, f"hover with tableCap 65536: {'answered %dB' % len(json.dumps(r)) if r else 'no reply'}", s


def probe_huge_line(work):
    s = Server(work)
    uri = "file://" + work + "/h.cute"
    leaves = ",".join(["2"] * ((10 << 20) // 2))
    open_doc(s, uri, "a = (" + leaves[: 10 << 20] + ")\n")
    r = s.request("textDocument/hover", {**doc(uri), "position": pos(0, 5)}, timeout=60)
    ok = s.close()
    return ok and r is not None, "10 MB one-line descriptor, then a hover", s


def probe_parens(work):
    s = Server(work)
    uri = "file://" + work + "/p.cute"
    open_doc(s, uri, "a = " + "(" * (2 << 20) + "\n")
    r = s.request("textDocument/hover", {**doc(uri), "position": pos(0, 5)}, timeout=60)
    ok = s.close()
    return ok and r is not None, "2 MB of '('", s


def probe_cancel(work):
    s = Server(work)
    uri = "file://" + work + "/c.cute"
    open_doc(s, uri, doubling(19, "make_layout({p},{p},{p})", "2:1"))
    ids = [s.request("textDocument/hover", {**doc(uri), "position": pos(19, 1)}, wait=False) for _ in range(40)]
    for i in ids:
        s.notify("$/cancelRequest", {"id": i})
    r = s.wait_reply(ids[-1], timeout=60)
    ok = s.close()
    return ok, f"40 hovers cancelled: last reply {'error ' + str(r['error'].get('code')) if r and 'error' in r else 'result' if r else 'none'}", s


def probe_many_edits(work):
    s = Server(work)
    uri = "file://" + work + "/e.cute"
    line = "x = (4,8):(1,4)   # " + "y" * 80 + "\n"
    n = (1 << 20) // len(line)
    open_doc(s, uri, line * n)
    changes = [{"range": {"start": pos(i % n, 0), "end": pos(i % n, 1)}, "text": "x"} for i in range(20000)]
    t0 = time.time()
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes})
    r = s.request("textDocument/hover", {**doc(uri), "position": pos(0, 5)}, timeout=60)
    dt = time.time() - t0
    ok = s.close()
    return ok and r is not None, f"20k range edits on 1 MB, then a hover: {dt:.2f}s", s


def probe_framing(work):
    s = Server(work)
    body = json.dumps({"jsonrpc": "2.0", "id": 999, "method": "textDocument/hover", "params": {}}).encode()
    s.p.stdin.write(f"Content-Length: {len(body) + 7}\r\n\r\n".encode() + body)
    s.p.stdin.flush()
    time.sleep(0.3)
    a = s.alive()
    s.p.stdin.write(b"Content-Length: 9223372036854775807\r\n\r\n{}")
    s.p.stdin.flush()
    time.sleep(0.3)
    b = s.alive()
    ok = s.close()
    return ok and a and b, f"after a wrong length: {'answers' if a else 'silent'}; after 2^63-1: {'answers' if b else 'silent'}", s


def run_cli(args, cwd, timeout=60, fsize=None):
    def pre():
        limits()
        if fsize:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    t0 = time.time()
    try:
        p = subprocess.run([BIN] + args, cwd=cwd, capture_output=True, timeout=timeout, preexec_fn=pre)
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), time.time() - t0
    except subprocess.TimeoutExpired:
        return None, "", "timeout", time.time() - t0


def probe_fmt(work):
    lines = "".join(f"a{i} = (4,8):(1,4)\r\n" for i in range(8000))
    p = os.path.join(work, "f.cute")
    with open(p, "wb") as f:
        f.write(b"\xef\xbb\xbf" + lines.encode())
    before = open(p, "rb").read()
    code, out, err, _ = run_cli(["fmt", "-w", p], work, fsize=100 * 512)
    after = open(p, "rb").read()
    kept = after == before or after.count(b"\n") >= 8000
    code2, _, _, _ = run_cli(["fmt", "-w", p], work)
    final = open(p, "rb").read()
    crlf = final.count(b"\r\n") == final.count(b"\n")
    bom = final.startswith(b"\xef\xbb\xbf")
    target = os.path.join(work, "target.cute")
    with open(target, "w") as f:
        f.write("a =   (4,8):(1,4)\n")
    os.symlink(target, os.path.join(work, "via.cute"))
    code3, _, _, _ = run_cli(["fmt", "-w", os.path.join(work, "via.cute")], work)
    through = open(target).read() != "a =   (4,8):(1,4)\n"
    lost = "TEXT LOST (%d lines left)" % after.count(b"\n")
    return kept and crlf and bom and not through, f"write limit: {'text kept' if kept else lost}; CRLF {'kept' if crlf else 'mixed'}; BOM {'kept' if bom else 'dropped'}; symlink {'written through' if through else 'refused'}", None


def probe_lint(work):
    d = os.path.join(work, "lint")
    os.makedirs(d)
    with open(os.path.join(d, "good.cute"), "w") as f:
        f.write("a = composition((4,2):(1,4), (2,2):(1,2,3))\n")
    os.mkfifo(os.path.join(d, "x.cute"))
    os.symlink("/dev/zero", os.path.join(d, "z.cute"))
    with open(os.path.join(d, "sparse.cute"), "wb") as f:
        f.truncate(1 << 30)
    os.symlink("nowhere.cute", os.path.join(d, "dangling.cute"))
    os.symlink(".", os.path.join(d, "loop"))
    code, out, err, dt = run_cli(["lint", d], work, timeout=60)
    found = "good.cute" in out
    return code is not None and found, f"exit {code} in {dt:.1f}s, finding for the good file: {found}; stderr: {err.strip()[:160]!r}", None


PROBES = [
    ("1-edit-atoms", probe_edit_atoms),
    ("2-doubling-30", probe_doubling),
    ("2-make_layout-20", probe_doubling_make_layout),
    ("3-outside-reads", probe_outside_reads),
    ("3-root-walk", probe_root_walk),
    ("4-unopened-memory", probe_unopened_memory),
    ("5-fmt-w", probe_fmt),
    ("6-tablecap", probe_table_cap),
    ("6-10MB-line", probe_huge_line),
    ("6-2MB-parens", probe_parens),
    ("7-lint-bad-entries", probe_lint),
    ("8-cancel", probe_cancel),
    ("8-many-edits", probe_many_edits),
    ("8-framing", probe_framing),
]


def main():
    global BIN
    BIN = os.path.abspath(sys.argv[1])
    want = set(sys.argv[2:])
    for name, fn in PROBES:
        if want and name not in want:
            continue
        work = tempfile.mkdtemp(prefix="probe-")
        t0 = time.time()
        try:
            ok, detail, s = fn(work)
        except Exception as e:  # a probe that breaks is a failure, not a crash
            ok, detail, s = False, f"probe error: {e!r}", None
        cpu = f"{s.cpu:.2f}s" if s and s.cpu is not None else "-"
        rss = f"{s.rss:.0f}MB" if s and s.rss is not None else "-"
        # Under 500 MB, and under 2 s of CPU per request the probe made
        # (initialize and the final liveness hover included); cancelled
        # hovers count as none, since their work should stop.
        requests = max(1, getattr(s, "requests", 1) - (40 if name == "8-cancel" else 0))
        bounded = s is None or (s.rss is not None and s.rss < 500 and s.cpu is not None and s.cpu < 2 * requests)
        verdict = "PASS" if ok and bounded else "FAIL"
        print(f"{name:20s} {verdict}  cpu {cpu:>7s}  rss {rss:>7s}  {time.time() - t0:5.1f}s  {detail}", flush=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
