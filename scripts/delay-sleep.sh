#!/bin/sh
# delay-sleep.sh: delay.Sleep vs time.Sleep (and the raw kernel sleep, and a
# pure busy-spin: the floor any wait ending in a spin can reach on this
# machine) in the same run, 100us..100ms: median/p99 overshoot, CPU per wait
# (with the clock it was read on: "process" = every thread of the process,
# so it includes the Go runtime threads a wait wakes), and the ratio of
# median |error| time.Sleep / delay.Sleep at each duration.
# Usage: scripts/delay-sleep.sh [BUDGET]   (default 20s; figures are only
# meaningful on an idle machine)
set -eu
cd "$(dirname "$0")/.."
budget=${1:-20s}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/chrono" ./cmd/chrono
"$out/chrono" sleep -q --durations 100us,1ms,10ms,100ms --budget "$budget" \
	--mechanisms 'time.Sleep,clock_nanosleep(ABS)+slack1ns,busy-spin,delay.Sleep,delay.Sleep(NoSpin)' \
	--csv "$out/sleep.csv" --json "$out/sleep.json"
echo
echo "ratio of median |overshoot|, time.Sleep / delay.Sleep (same run); busy-spin p99 = this machine's floor:"
awk -F, 'NR>1 { m[$1","$2]=($5<0?-$5:$5); p99[$1","$2]=$6; cpu[$1","$2]=$9; clk[$1","$2]=$10; d[$2]=1 }
END { for (k in d) {
	t=m["time.Sleep,"k]; s=m["delay.Sleep,"k]
	printf "  %6.0f us: time.Sleep %9.0f ns, delay.Sleep %5.0f ns (p99 %7.0f ns; busy-spin p99 %7.0f ns) CPU/wait %8.0f ns (%s), NoSpin %7.0f ns (%s) -> ratio %s\n", k/1000, t, s, p99["delay.Sleep,"k], p99["busy-spin,"k], cpu["delay.Sleep,"k], clk["delay.Sleep,"k], cpu["delay.Sleep(NoSpin),"k], clk["delay.Sleep(NoSpin),"k], (s>0 ? sprintf("%.0fx", t/s) : "inf") } }' "$out/sleep.csv" | sort -n -k1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
