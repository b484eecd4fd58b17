#!/usr/bin/env bash
# Instructions per call of coalesce, complement, composition, right_inverse, logical_divide and
# logical_product through the table (analysis's BenchmarkTableOps: ApplyOp on the cases of
# ../shared/bench/pycute_cases.json), counted by valgrind's cachegrind: a figure that load on a
# shared machine barely moves, where times swing by a factor of two. With another checkout (main's,
# say) its figures are printed beside this one's.
#
#   bash testdata/bench/ops_instructions.sh [OTHER_CHECKOUT]      (N=calls, default 100000)
#
# Each figure is (least of 3 runs of N calls - least of 3 runs of 1 call) / (N-1), the collector
# off (GOGC=off), so it counts the operation and its allocations but not the collection they cause
# (allocs/op from benchops stands for that). GOMAXPROCS=1: with more, the runtime's idle threads
# spin in the scheduler under valgrind, and one figure moved by a quarter from run to run
# (right_inverse 1,450 vs 1,908); with one, the same figures agree within about 1%.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
N="${N:-100000}"
command -v valgrind >/dev/null || { echo "ops_instructions: valgrind not found" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
names=()
for dir in "$here" "$@"; do
	name="$(basename "$(cd "$dir" && pwd)")"
	(cd "$dir" && go test -c -o "$tmp/$name.test" ./analysis)
	names+=("$name")
done
count() { # binary op calls: the instructions of one run
	(cd "$here/analysis" && GOGC=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		"$1" -test.run '^$' -test.bench "TableOps/$2\$" -test.benchtime "$3x" 2>&1) |
		awk '/I[ ]+refs/ { gsub(",", "", $NF); print $NF }'
}
least() { # binary op calls: the least of 3 runs
	local m="" v
	for _ in 1 2 3; do
		v="$(count "$@")"
		if [ -z "$m" ] || [ "$v" -lt "$m" ]; then m="$v"; fi
	done
	echo "$m"
}
for op in coalesce complement composition right_inverse logical_divide logical_product; do
	line="$op:"
	for name in "${names[@]}"; do
		one="$(least "$tmp/$name.test" "$op" 1)"
		all="$(least "$tmp/$name.test" "$op" "$N")"
		line="$line $name $(((all - one) / (N - 1))) instructions/op"
	done
	echo "$line"
done
