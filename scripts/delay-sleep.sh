#!/bin/sh
# delay-sleep.sh: delay.Sleep vs its C anchor side by side, under a load
# mode (see scripts/delay-load.sh: idle, hog, mixed, gobuild). The anchor,
# scripts/delay-sleepspin.c (compiled here with gcc), waits as delay.Sleep
# does without the Go runtime: clock_nanosleep(TIMER_ABSTIME) to the
# deadline minus the same adaptive margin, then a spin.
# Each round runs `chrono sleep --mechanisms delay.Sleep,delay.Sleep(hold)`
# (delay.Sleep as it is, and as it waited before it held its P for the
# stretch before the spin; $MECHS overrides the list) at 100us, 1ms and
# 10ms and the anchor (the same time per duration and mechanism) in ABBA
# order, and prints per duration and mechanism the p99 overshoot of both
# and their ratio mechanism / C; at the end, per duration and mechanism,
# the ratio's min/median/max over the rounds, then one more chrono sleep
# run for context: time.Sleep and a pure busy-spin (the floor of any wait
# that ends in a spin) beside delay.Sleep. A p99 needs samples: at 10ms the
# default gives 200 a round.
# Each round prints the p50, p99 and max overshoot of both and their
# ratios, with the load average; the summary gives each ratio's min,
# median and max over the rounds.
# Usage: scripts/delay-sleep.sh [MODE [ROUNDS [BUDGET]]]
#   (defaults: idle, 6 rounds, 6s per mechanism, tool and round = 2s per
#   duration)
# Environment: DURS the durations in ns (default "100000 1000000
# 10000000"); MECHS as above; PRIO=N runs both programs under
# SCHED_FIFO priority N (chrt -f, needs root or CAP_SYS_NICE), so that
# other processes on a shared machine cannot delay their wake-ups and
# what remains is each one's own path from the kernel's wake-up to the
# return.
set -eu
cd "$(dirname "$0")/.."
mode=${1:-idle}
rounds=${2:-6}
budget=${3:-6s}
[ "$rounds" -ge 5 ] || { echo "use at least 5 rounds" >&2; exit 2; }
command -v gcc >/dev/null || { echo "gcc not found: apt-get install gcc" >&2; exit 1; }
. scripts/delay-load.sh
out=$(mktemp -d)
trap 'stop_load; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
go build -o "$out/chrono" ./cmd/chrono
gcc -O2 -Wall -o "$out/sleepspin" scripts/delay-sleepspin.c
durs=${DURS:-100000 1000000 10000000}
ndur=$(echo "$durs" | wc -w)
durlist=$(echo "$durs" | awk '{ for (i = 1; i <= NF; i++) printf "%s%dns", (i > 1 ? "," : ""), $i }')
mechs=${MECHS:-delay.Sleep,delay.Sleep(hold)}
nmech=$(echo "$mechs" | awk -F, '{ print NF }')
# chrono splits its budget over the durations and the mechanisms; the
# anchor runs as long as one mechanism.
chrono_budget=$(awk -v b="$budget" -v n="$nmech" 'BEGIN { v = b + 0; u = substr(b, length(v "") + 1); printf "%g%s", v * n, u }')
cell_ns=$(awk -v b="$budget" -v n="$ndur" 'BEGIN { v = b + 0; u = substr(b, length(v "") + 1);
	f = (u == "ms") ? 1e6 : (u == "us") ? 1e3 : (u == "m") ? 60e9 : 1e9; printf "%.0f", v * f / n }')
prio=${PRIO:-}
rt=
if [ -n "$prio" ]; then
	command -v chrt >/dev/null || { echo "chrt not found: apt-get install util-linux" >&2; exit 1; }
	rt="chrt -f $prio"
fi
run_chrono() {
	$rt "$out/chrono" sleep -q --durations "$durlist" --budget "$chrono_budget" \
		--mechanisms "$mechs" --export-csv "$out/chrono.csv" >/dev/null
}
run_c() { $rt "$out/sleepspin" "$cell_ns" 10000 $durs >"$out/c.txt"; }
start_load "$mode"
echo "load: $mode${prio:+, both at SCHED_FIFO $prio}; $rounds ABBA rounds, $budget of chrono sleep per mechanism ($mechs) and $((cell_ns / 1000000)) ms of the C anchor per duration and round; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$out/ratios.txt"
# The figures compared, as name:column in chrono's CSV (--export-csv:
# mechanism,requested_ns,n,achieved_median_ns,overshoot_median_ns,
# overshoot_p99_ns,overshoot_max_ns,..., exact ns):column in the anchor's
# output (d_ns n median p99 max).
stats="p50:5:3 p99:6:4 max:7:5"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then run_chrono; run_c; else run_c; run_chrono; fi
	load=$(cut -d' ' -f1 /proc/loadavg)
	for d in $durs; do
		for m in $(echo "$mechs" | tr , ' '); do
			line=$(printf "round %d (load %s), %5d us, %-20s" "$r" "$load" $((d / 1000)) "$m")
			for st in $stats; do
				name=${st%%:*}; gc=${st#*:}; gc=${gc%%:*}; cc=${st##*:}
				g=$(awk -F, -v d="$d" -v m="$m" -v f="$gc" '$1 == m && $2 == d { print $f }' "$out/chrono.csv")
				c=$(awk -v d="$d" -v f="$cc" '$1 == d { print $f }' "$out/c.txt")
				ratio=$(awk -v g="$g" -v c="$c" 'BEGIN { if (c > 0) printf "%.3f", g / c; else print "nan" }')
				line=$(printf "%s  %s %.0f/%.0f ns = %s" "$line" "$name" "$g" "$c" "$ratio")
				echo "$d $m $name $ratio" >>"$out/ratios.txt"
			done
			echo "$line"
		done
	done
	r=$((r + 1))
done
echo "(per round: overshoot of the mechanism / of C, and their ratio)"
echo
for d in $durs; do
	for m in $(echo "$mechs" | tr , ' '); do
		for st in $stats; do
			name=${st%%:*}
			awk -v d="$d" -v m="$m" -v s="$name" '$1 == d && $2 == m && $3 == s { print $4 }' "$out/ratios.txt" |
				summarize "$mode, $((d / 1000)) us, $name overshoot $m / C"
		done
	done
done
"$out/chrono" sleep -q --durations 100us,1ms --budget "$budget" \
	--mechanisms "time.Sleep,busy-spin,$mechs" --export-csv "$out/context.csv" >/dev/null
echo "context (one more run): overshoot median / p99 (CPU per wait):"
awk -F, 'NR > 1 { printf "  %-20s %6.0f us: %9.0f / %9.0f ns (%.0f ns %s CPU)\n", $1, $2 / 1000, $5, $6, $9, $10 }' "$out/context.csv"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
