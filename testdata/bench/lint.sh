#!/bin/bash
# make bench-lint: files per second of `cute-lsp lint` (findings, C++/Python code reading
# included) and of `grep -r` over the same files, CUTLASS's include/cute + examples/cute,
# ROUNDS interleaved runs each (default 9), and the ratio of the medians, and lint's CPU
# time, from a separate run each round (a timer's start would count in the wall time): with perf (perf stat: task-clock in tenths of a millisecond, and the page faults),
# else with /usr/bin/time (10 ms steps). Skipped, with a message, when $CUTLASS holds no
# checkout.
# usage: CUTLASS=/work/cutlass ROUNDS=9 testdata/bench/lint.sh bin/cute-lsp
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=${CUTLASS:-/work/cutlass}
rounds=${ROUNDS:-9}
if [ ! -d "$root/include/cute" ] || [ ! -d "$root/examples/cute" ]; then
	echo "bench-lint: skipped: no CUTLASS checkout at $root (set CUTLASS=...)"
	exit 0
fi
cd "$root"
dirs="include/cute examples/cute"
files=$(find $dirs -type f | wc -l)
bytes=$(find $dirs -type f -exec cat {} + | wc -c)
# Microseconds from bash's clock, not a date process: at lint's 10-20 ms a
# fork of date is a measurable share of the figure.
now() { local t=$EPOCHREALTIME; echo "${t/./}"; }
lint_ms=""
grep_ms=""
# The CPU time (user + system) of each lint run too, where perf or
# /usr/bin/time is there: on a shared machine it is the steadier figure.
# perf stat gives it to a tenth of a millisecond (task-clock) and counts
# the page faults; /usr/bin/time in steps of 10 ms.
timer=""
lint_cpu_ms=""
lint_faults=""
if perf stat -x, -e task-clock,page-faults -o /dev/null true >/dev/null 2>&1; then
	timer=perf
elif [ -x /usr/bin/time ]; then
	timer=/usr/bin/time
fi
if [ -n "$timer" ]; then
	cpu_out=$(mktemp)
	trap 'rm -f "$cpu_out"' EXIT
fi
i=0
while [ "$i" -lt "$rounds" ]; do
	# Wall time: lint and grep alone, the same way, one after the other.
	t0=$(now)
	"$bin" lint $dirs >/dev/null 2>&1 || true
	t1=$(now)
	grep -r cute $dirs >/dev/null 2>&1 || true
	t2=$(now)
	lint_ms="$lint_ms $((t1 - t0))"
	grep_ms="$grep_ms $((t2 - t1))"
	# CPU time: a run of its own under the timer, whose start and whose
	# reading of its output would otherwise count in lint's wall time.
	case "$timer" in
	perf)
		perf stat -x, -e task-clock,page-faults -o "$cpu_out" "$bin" lint $dirs >/dev/null 2>&1 || true
		lint_cpu_ms="$lint_cpu_ms $(awk -F, '$3 == "task-clock" { printf "%.1f", $1 }' "$cpu_out")"
		lint_faults="$lint_faults $(awk -F, '$3 == "page-faults" { print $1 }' "$cpu_out")"
		;;
	/usr/bin/time)
		"$timer" -o "$cpu_out" -f '%U %S' "$bin" lint $dirs >/dev/null 2>&1 || true
		lint_cpu_ms="$lint_cpu_ms $(awk '{ printf "%.0f", ($1 + $2) * 1000 }' "$cpu_out")"
		;;
	esac
	i=$((i + 1))
done
# min, median and max of microsecond figures, as files/s (fastest first)
summary() {
	echo "$1" | tr ' ' '\n' | grep . | sort -n | awk -v f="$files" '
		{ t[NR] = $1 }
		END { printf "%.0f files/s (median; range %.0f-%.0f over %d runs)", f * 1e6 / t[int((NR + 1) / 2)], f * 1e6 / t[NR], f * 1e6 / t[1], NR }'
}
median() { echo "$1" | tr ' ' '\n' | grep . | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }
echo "bench-lint: $files files, $bytes bytes ($dirs of $root), $(nproc) cores"
echo "  cute-lsp lint: $(summary "$lint_ms")"
echo "  grep -r:       $(summary "$grep_ms")"
if [ "$timer" = perf ]; then
	echo "$lint_cpu_ms" | tr ' ' '\n' | grep . | sort -n | awk '{ t[NR] = $1 } END { printf "  cute-lsp lint CPU (perf stat task-clock): %.1f ms median (range %.1f-%.1f)\n", t[int((NR + 1) / 2)], t[1], t[NR] }'
	echo "$lint_faults" | tr ' ' '\n' | grep . | sort -n | awk '{ t[NR] = $1 } END { printf "  cute-lsp lint page faults: %d median (range %d-%d)\n", t[int((NR + 1) / 2)], t[1], t[NR] }'
elif [ -n "$lint_cpu_ms" ]; then
	echo "$lint_cpu_ms" | tr ' ' '\n' | grep . | sort -n | awk '{ t[NR] = $1 } END { printf "  cute-lsp lint CPU (user + system): %d ms median (range %d-%d; 10 ms steps)\n", t[int((NR + 1) / 2)], t[1], t[NR] }'
fi
awk -v l="$(median "$lint_ms")" -v g="$(median "$grep_ms")" 'BEGIN { printf "  cute-lsp lint reads at %.3f of grep'"'"'s speed (%.1fx slower)\n", g / l, l / g }'
