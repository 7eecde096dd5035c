#!/bin/sh
# delay-latency.sh: chrono latency vs cyclictest (rt-tests) in the same
# session, -i 1000 -l LOOPS (default 10000), with and without -p 80: average
# and max latency of both and the ratio of averages. cyclictest holds
# /dev/cpu_dma_latency at 0 by default, so chrono gets --dma-latency 0 too.
# Needs root for -p 80 and /dev/cpu_dma_latency.
set -eu
cd "$(dirname "$0")/.."
loops=${1:-10000}
command -v cyclictest >/dev/null || { echo "cyclictest not found: apt-get install rt-tests" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/chrono" ./cmd/chrono
for prio in "" "-p 80"; do
	# chrono: "T: 0 (tid) P: 0 I:1000 C: n Min: a Act: b Avg: c Max: d" (µs)
	"$out/chrono" latency -m --dma-latency 0 -i 1000 -l "$loops" -q $prio >"$out/chrono.txt"
	cyclictest -m -i 1000 -l "$loops" -q $prio >"$out/cyclic.txt" 2>&1
	ca=$(awk '/^T: 0/ { for (i=1;i<=NF;i++) if ($i=="Avg:") print $(i+1) }' "$out/chrono.txt")
	cm=$(awk '/^T: 0/ { for (i=1;i<=NF;i++) if ($i=="Max:") print $(i+1) }' "$out/chrono.txt")
	ya=$(awk '/^T: *0/ { for (i=1;i<=NF;i++) if ($i=="Avg:") print $(i+1) }' "$out/cyclic.txt")
	ym=$(awk '/^T: *0/ { for (i=1;i<=NF;i++) if ($i=="Max:") print $(i+1) }' "$out/cyclic.txt")
	p99=$(awk '$1=="0" { print $9 " " $10 }' "$out/chrono.txt")
	printf '%-8s chrono avg %5s us max %6s us (p99 %s) | cyclictest avg %5s us max %6s us | avg ratio %s\n' \
		"${prio:-SCHED_OTHER}" "$ca" "$cm" "$p99" "$ya" "$ym" "$(awk -v a="$ca" -v b="$ya" 'BEGIN { if (b>0) printf "%.2f", a/b; else print "n/a" }')"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
