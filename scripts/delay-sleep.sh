#!/bin/sh
# delay-sleep.sh: delay.Sleep vs time.Sleep (and the raw kernel sleep) in the
# same run, 100us..100ms: median/p99 overshoot, CPU per wait, and the ratio
# of median |error| time.Sleep / delay.Sleep at each duration.
# Usage: scripts/delay-sleep.sh [BUDGET]   (default 20s; figures are only
# meaningful on an idle machine)
set -eu
cd "$(dirname "$0")/.."
budget=${1:-20s}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/chrono" ./cmd/chrono
"$out/chrono" sleep -q --durations 100us,1ms,10ms,100ms --budget "$budget" \
	--mechanisms 'time.Sleep,clock_nanosleep(ABS)+slack1ns,delay.Sleep,delay.Sleep(NoSpin)' \
	--csv "$out/sleep.csv" --json "$out/sleep.json"
echo
echo "ratio of median |overshoot|, time.Sleep / delay.Sleep (same run):"
awk -F, 'NR>1 { m[$1","$2]=($5<0?-$5:$5); p99[$1","$2]=$6; cpu[$1","$2]=$9; d[$2]=1 }
END { for (k in d) {
	t=m["time.Sleep,"k]; s=m["delay.Sleep,"k]
	printf "  %8.0f us: time.Sleep %10.0f ns, delay.Sleep %6.0f ns (p99 %8.0f ns, CPU/wait %8.0f ns) -> ratio %s\n", k/1000, t, s, p99["delay.Sleep,"k], cpu["delay.Sleep,"k], (s>0 ? sprintf("%.0fx", t/s) : "inf") } }' "$out/sleep.csv" | sort -n -k1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
