#!/bin/sh
# delay-latency.sh: chrono latency vs cyclictest (rt-tests) in the same
# session, -i 1000, LOOPS per tool (default 10000) split into BLOCKS
# (default 5) that alternate the two tools in ABBA order (chrono first in
# odd blocks, cyclictest first in even ones), so drifting machine state
# hits both alike; with and without -p 80. Prints each block and the
# overall average (mean of the block averages, equal loops per block) and
# maximum of both, and the ratio of averages. cyclictest holds
# /dev/cpu_dma_latency at 0 by default, so chrono gets --dma-latency 0 too.
# Needs root for -p 80 and /dev/cpu_dma_latency.
# Usage: scripts/delay-latency.sh [LOOPS [BLOCKS]]
set -eu
cd "$(dirname "$0")/.."
loops=${1:-10000}
blocks=${2:-5}
per=$((loops / blocks))
command -v cyclictest >/dev/null || { echo "cyclictest not found: apt-get install rt-tests" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/chrono" ./cmd/chrono
# field FILE NAME: the value after "NAME:" on thread 0's line (both tools
# print "T: 0 (tid) P:.. I:.. C:.. Min: a Act: b Avg: c Max: d", in µs).
field() { awk -v f="$2:" '/^T: *0/ { for (i=1;i<=NF;i++) if ($i==f) print $(i+1) }' "$1"; }
run_chrono() { "$out/chrono" latency -m --dma-latency 0 -i 1000 -l "$per" -q $prio >"$out/c.txt"; }
run_cyclic() { cyclictest -m -i 1000 -l "$per" -q $prio >"$out/y.txt" 2>&1; }
for prio in "" "-p 80"; do
	: >"$out/blocks.txt"
	b=1
	while [ "$b" -le "$blocks" ]; do
		if [ $((b % 2)) -eq 1 ]; then run_chrono; run_cyclic; else run_cyclic; run_chrono; fi
		echo "$(field "$out/c.txt" Avg) $(field "$out/c.txt" Max) $(field "$out/y.txt" Avg) $(field "$out/y.txt" Max)" >>"$out/blocks.txt"
		b=$((b + 1))
	done
	awk -v p="${prio:-SCHED_OTHER}" -v per="$per" '
	{ ca+=$1; ya+=$3; if ($2>cm) cm=$2; if ($4>ym) ym=$4; n++; bl=bl sprintf(" %s/%s", $1, $3) }
	END { printf "%-11s %d blocks x %d loops, avg chrono/cyclictest per block:%s\n", p, n, per, bl
	      printf "%-11s chrono avg %6.1f us max %6d us | cyclictest avg %6.1f us max %6d us | avg ratio %.2f\n", p, ca/n, cm, ya/n, ym, (ya>0 ? ca/ya : 0) }' "$out/blocks.txt"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
