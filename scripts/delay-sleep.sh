#!/bin/sh
# delay-sleep.sh: delay.Sleep vs its C anchor side by side, under a load
# mode (see scripts/delay-load.sh: idle, hog, mixed, gobuild). The anchor,
# scripts/delay-sleepspin.c (compiled here with gcc), waits as delay.Sleep
# does without the Go runtime: clock_nanosleep(TIMER_ABSTIME) to the
# deadline minus the same adaptive margin, then a spin.
# Each round runs `chrono sleep --mechanisms delay.Sleep` at 100us, 1ms
# and 10ms and the anchor (the same time per duration) in ABBA order, and
# prints per duration the p99 overshoot of both and their ratio
# delay.Sleep / C; at the end, per duration, the ratio's min/median/max
# over the rounds, then one more chrono sleep run for context: time.Sleep
# and a pure busy-spin (the floor of any wait that ends in a spin) beside
# delay.Sleep. A p99 needs samples: at 10ms the default gives 200 a round.
# Usage: scripts/delay-sleep.sh [MODE [ROUNDS [BUDGET]]]
#   (defaults: idle, 6 rounds, 6s per tool and round = 2s per duration)
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
durs="100000 1000000 10000000"
# chrono splits its budget over the 3 durations.
cell_ns=$(awk -v b="$budget" 'BEGIN { v = b + 0; u = substr(b, length(v "") + 1);
	f = (u == "ms") ? 1e6 : (u == "us") ? 1e3 : (u == "m") ? 60e9 : 1e9; printf "%.0f", v * f / 3 }')
run_chrono() {
	"$out/chrono" sleep -q --durations 100us,1ms,10ms --budget "$budget" \
		--mechanisms delay.Sleep --export-csv "$out/chrono.csv" >/dev/null
}
run_c() { "$out/sleepspin" "$cell_ns" 10000 $durs >"$out/c.txt"; }
start_load "$mode"
echo "load: $mode; $rounds ABBA rounds, $budget of chrono sleep and $((cell_ns / 1000000)) ms of the C anchor per duration and round; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$out/ratios.txt"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then run_chrono; run_c; else run_c; run_chrono; fi
	# chrono's CSV (--export-csv): mechanism,requested_ns,n,...,overshoot_median_ns($5),overshoot_p99_ns($6), exact ns
	for d in $durs; do
		g=$(awk -F, -v d="$d" '$1 == "delay.Sleep" && $2 == d { print $6 }' "$out/chrono.csv")
		c=$(awk -v d="$d" '$1 == d { print $4 }' "$out/c.txt")
		ratio=$(awk -v g="$g" -v c="$c" 'BEGIN { if (c > 0) printf "%.3f", g / c; else print "nan" }')
		printf "round %d, %5d us: p99 overshoot delay.Sleep %9.0f ns, C %9.0f ns, ratio %s\n" "$r" $((d / 1000)) "$g" "$c" "$ratio"
		echo "$d $ratio" >>"$out/ratios.txt"
	done
	r=$((r + 1))
done
echo
for d in $durs; do
	awk -v d="$d" '$1 == d { print $2 }' "$out/ratios.txt" | summarize "$mode, $((d / 1000)) us, p99 overshoot delay.Sleep / C"
done
"$out/chrono" sleep -q --durations 100us,1ms --budget "$budget" \
	--mechanisms 'time.Sleep,busy-spin,delay.Sleep' --export-csv "$out/context.csv" >/dev/null
echo "context (one more run): overshoot median / p99 (CPU per wait):"
awk -F, 'NR > 1 { printf "  %-12s %6.0f us: %9.0f / %9.0f ns (%.0f ns %s CPU)\n", $1, $2 / 1000, $5, $6, $9, $10 }' "$out/context.csv"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
