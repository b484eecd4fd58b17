#!/bin/bash
# Assembles and runs the probes that `cute-lsp ptx --probe DIR` wrote: ptxas
# -arch=sm_90a on each module (16 at a time; errors to OUTDIR/probe_ptxas.txt),
# then run_probe on each, one process per probe, 8 at a time, every line of
# their output gathered in order into OUTDIR/probed_raw.tsv, which
# `cute-lsp ptx --probe-results` reads.
# Usage: probe.sh DIR OUTDIR
set -u
dir=$1 out=$2
export PATH=$PATH:/usr/local/cuda/bin
here=$(dirname "$0")
nvcc -O2 -o /tmp/run_probe "$here/run_probe.cu" -lcuda > "$out/probe_build.txt" 2>&1 &
build=$!
n=$(wc -l < "$dir/probes.tsv")
one() {
	f=$(cut -f1 <(sed -n "$(($1 + 1))p" "$dir/probes.tsv"))
	ptxas -arch=sm_90a "$dir/$f.ptx" -o "$dir/$f.cubin" > "$dir/$f.ptxas" 2>&1 || { echo "$f"; head -5 "$dir/$f.ptxas"; }
}
export -f one
export dir
time (seq 0 $((n - 1)) | xargs -P 16 -I{} bash -c 'one {}' > "$out/probe_ptxas.txt")
wait $build || { cat "$out/probe_build.txt"; exit 1; }
mkdir -p /tmp/probe_res
time (seq 0 $((n - 1)) | xargs -P 8 -I{} sh -c "timeout 60 /tmp/run_probe '$dir' {} > /tmp/probe_res/{}.tsv 2>&1 || echo '{}	-	ERROR exit status' \$? >> /tmp/probe_res/{}.tsv")
for i in $(seq 0 $((n - 1))); do cat "/tmp/probe_res/$i.tsv"; done > "$out/probed_raw.tsv"
echo "probes: $n, output lines: $(wc -l < "$out/probed_raw.tsv"), errors: $(grep -c ERROR "$out/probed_raw.tsv")"
grep ERROR "$out/probed_raw.tsv" | head -20
head -c 2000 "$out/probe_ptxas.txt"
