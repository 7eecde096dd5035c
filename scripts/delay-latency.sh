#!/bin/sh
# delay-latency.sh: chrono latency vs cyclictest (rt-tests) side by side,
# each with its own defaults (chrono mimics cyclictest's: /dev/cpu_dma_latency
# held at 0, SCHED_OTHER, no mlockall unless -m, ...), under each load mode
# given (see scripts/delay-load.sh: idle, hog = one `yes` per CPU, mixed,
# gobuild).
#
# For each mode, and each setting of the same flags given to both tools
#   -m                SCHED_OTHER, threads left where each tool puts them
#                     (cyclictest 2.4 with libnuma binds thread 0 to CPU 0,
#                     chrono does not pin)
#   -m -a 0           SCHED_OTHER, both pinned to CPU 0
#   -m -p 80          SCHED_FIFO 80
#   -m -p 80 -a 0     SCHED_FIFO 80, pinned to CPU 0
# it runs ROUNDS rounds of LOOPS loops of -i 1000 per tool, in ABBA order
# (chrono first in odd rounds, cyclictest first in even ones), and prints
# per round both tools' average and maximum (thread 0, whole µs as both
# print them) and the ratios chrono / cyclictest; then, per setting, the
# min, median and max of each ratio over the rounds (the spread). Needs
# root for -p 80, -m and /dev/cpu_dma_latency.
# Usage: scripts/delay-latency.sh [MODES [ROUNDS [LOOPS]]]
#   MODES is a comma-separated list (default: idle,hog); defaults: 6 rounds,
#   2000 loops per tool and round.
set -eu
cd "$(dirname "$0")/.."
modes=${1:-idle,hog}
rounds=${2:-6}
loops=${3:-2000}
[ "$rounds" -ge 5 ] || { echo "use at least 5 rounds" >&2; exit 2; }
command -v cyclictest >/dev/null || { echo "cyclictest not found: apt-get install rt-tests" >&2; exit 1; }
. scripts/delay-load.sh
out=$(mktemp -d)
trap 'stop_load; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
go build -o "$out/chrono" ./cmd/chrono
echo "cyclictest: $(cyclictest --help 2>/dev/null | head -1); chrono: $("$out/chrono" version 2>/dev/null | head -1)"
# field FILE NAME: thread 0's figure NAME (Avg:, Max:) in µs; both tools
# print "T: 0 (tid) P:.. I:.. C:.. Min: a Act: b Avg: c Max: d".
field() { awk -v f="$2" '/^T: *0/ { for (i=1;i<=NF;i++) if ($i==f) print $(i+1) }' "$1"; }
ratio() { awk -v c="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.3f", c / y; else print "nan" }'; }
run_chrono() { "$out/chrono" latency -i 1000 -l "$loops" -q $flags >"$out/c.txt" 2>"$out/c.err"; }
run_cyclic() { cyclictest -i 1000 -l "$loops" -q $flags >"$out/y.txt" 2>&1; }
for mode in $(echo "$modes" | tr ',' ' '); do
	start_load "$mode"
	echo
	echo "load: $mode; $rounds ABBA rounds x $loops loops of 1 ms per tool; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
	for flags in "-m" "-m -a 0" "-m -p 80" "-m -p 80 -a 0"; do
		: >"$out/avg.txt"
		: >"$out/max.txt"
		r=1
		while [ "$r" -le "$rounds" ]; do
			if [ $((r % 2)) -eq 1 ]; then run_chrono; run_cyclic; else run_cyclic; run_chrono; fi
			ca=$(field "$out/c.txt" Avg:)
			ya=$(field "$out/y.txt" Avg:)
			cm=$(field "$out/c.txt" Max:)
			ym=$(field "$out/y.txt" Max:)
			[ -n "$ca" ] && [ -n "$ya" ] || { echo "round $r ($flags): no result:"; cat "$out/c.err" "$out/c.txt" "$out/y.txt"; exit 1; }
			printf "%-14s round %d: avg chrono %4s us, cyclictest %4s us, ratio %s; max chrono %5s us, cyclictest %5s us, ratio %s\n" \
				"$flags" "$r" "$ca" "$ya" "$(ratio "$ca" "$ya")" "$cm" "$ym" "$(ratio "$cm" "$ym")"
			ratio "$ca" "$ya" >>"$out/avg.txt"
			echo >>"$out/avg.txt"
			ratio "$cm" "$ym" >>"$out/max.txt"
			echo >>"$out/max.txt"
			r=$((r + 1))
		done
		summarize "$mode, $flags: avg chrono / cyclictest" <"$out/avg.txt" >>"$out/summary.txt"
		summarize "$mode, $flags: max chrono / cyclictest" <"$out/max.txt" >>"$out/summary.txt"
	done
	stop_load
done
echo
cat "$out/summary.txt"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
