#!/bin/bash
# Assembles every module that `cute-lsp ptx --all DIR` wrote, with ptxas for
# each module's target, writing one line per atom (atom, target, ok or the
# error) to OUTDIR/assembled.tsv; then builds run_mma and runs the mma.sync
# atoms with their reference fragments (OUTDIR/ran.tsv).
# Usage: assemble.sh DIR OUTDIR
set -u
dir=$1 out=$2
export PATH=$PATH:/usr/local/cuda/bin
{ ptxas --version; nvcc --version | tail -2; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$out/tools.txt" 2>&1
one() {
	file=$1 target=$2 name=$3
	if msg=$(ptxas -arch="$target" "$dir/$file" -o /dev/null 2>&1); then
		printf '%s\t%s\tok\n' "$name" "$target"
	else
		printf '%s\t%s\t%s\n' "$name" "$target" "$(echo "$msg" | grep -v '^$' | head -3 | tr '\t\n' '  ')"
	fi
}
export -f one
export dir
time (cut -f1,2,3 "$dir/manifest.tsv" | tr '\t' '\n' | xargs -d '\n' -n 3 -P 16 bash -c 'one "$@"' _ | sort > "$out/assembled.tsv")
awk -F'\t' '$3=="ok"{ok++} $3!="ok"{bad++} END{printf "assembled: %d ok, %d failed\n", ok, bad}' "$out/assembled.tsv"
awk -F'\t' '$3!="ok"' "$out/assembled.tsv" | head -20
here=$(dirname "$0")
nvcc -O2 -o /tmp/run_mma "$here/run_mma.cu" -lcuda > "$out/run_mma_build.txt" 2>&1 && /tmp/run_mma "$dir" > "$out/ran.tsv"
tail -3 "$out/run_mma_build.txt"; grep -v '	ok$' "$out/ran.tsv" | head -20
