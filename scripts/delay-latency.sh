#!/bin/sh
# delay-latency.sh: chrono latency vs cyclictest (rt-tests) side by side,
# under a load mode (see scripts/delay-load.sh: idle, hog, mixed, gobuild).
# Each round runs both tools for LOOPS loops of -i 1000 -m, in ABBA order
# (chrono first in odd rounds, cyclictest first in even ones), once with
# SCHED_OTHER and once with -p 80; cyclictest holds /dev/cpu_dma_latency at
# 0 by default, so chrono gets --dma-latency 0 too. Per round it prints
# both averages (µs, as both tools print them) and their ratio chrono /
# cyclictest; at the end, per policy, the ratio's min/median/max over the
# rounds. Needs root for -p 80, -m and /dev/cpu_dma_latency.
# Usage: scripts/delay-latency.sh [MODE [ROUNDS [LOOPS]]]
#   (defaults: idle, 6 rounds, 2000 loops per tool and round)
set -eu
cd "$(dirname "$0")/.."
mode=${1:-idle}
rounds=${2:-6}
loops=${3:-2000}
[ "$rounds" -ge 5 ] || { echo "use at least 5 rounds" >&2; exit 2; }
command -v cyclictest >/dev/null || { echo "cyclictest not found: apt-get install rt-tests" >&2; exit 1; }
. scripts/delay-load.sh
out=$(mktemp -d)
trap 'stop_load; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
go build -o "$out/chrono" ./cmd/chrono
# avg FILE: the Avg of thread 0 (both tools print "T: 0 (tid) P:.. I:..
# C:.. Min: a Act: b Avg: c Max: d", in µs).
avg() { awk '/^T: *0/ { for (i=1;i<=NF;i++) if ($i=="Avg:") print $(i+1) }' "$1"; }
run_chrono() { "$out/chrono" latency -m --dma-latency 0 -i 1000 -l "$loops" -q $prio >"$out/c.txt"; }
run_cyclic() { cyclictest -m -i 1000 -l "$loops" -q $prio >"$out/y.txt" 2>&1; }
start_load "$mode"
echo "load: $mode; $rounds ABBA rounds x $loops loops of 1 ms per tool; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
for prio in "" "-p 80"; do
	policy=${prio:-SCHED_OTHER}
	: >"$out/ratios.txt"
	r=1
	while [ "$r" -le "$rounds" ]; do
		if [ $((r % 2)) -eq 1 ]; then run_chrono; run_cyclic; else run_cyclic; run_chrono; fi
		c=$(avg "$out/c.txt")
		y=$(avg "$out/y.txt")
		ratio=$(awk -v c="$c" -v y="$y" 'BEGIN { if (y > 0) printf "%.3f", c / y; else print "nan" }')
		printf "%-11s round %d: chrono avg %4s us, cyclictest avg %4s us, ratio %s\n" "$policy" "$r" "$c" "$y" "$ratio"
		echo "$ratio" >>"$out/ratios.txt"
		r=$((r + 1))
	done
	summarize "$policy, $mode, avg chrono / cyclictest" <"$out/ratios.txt" >>"$out/summary.txt"
done
echo
cat "$out/summary.txt"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
