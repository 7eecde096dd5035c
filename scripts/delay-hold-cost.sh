#!/bin/sh
# delay-hold-cost.sh: what delay.Sleep's hold (the stretch before the spin
# slept in a blocking system call on the goroutine's thread, keeping its P
# unless the runtime takes it) costs the rest
# of the program, at GOMAXPROCS 1, 2 and 8: BenchmarkHoldCost in package
# delay (see its doc) runs back-to-back 10 ms waits with the hold
# (mech=hold), without it (the default, mech=nohold) and no waiter
# at all (mech=none) beside a neighbour goroutine, and reports
#   neighbor=wake: how late a goroutine parked in the netpoller for a random
#                  0.2-2 ms resumes (nb-p50/p99/max-ns), and
#   neighbor=gc:   how long each garbage collection's stop-the-world waited
#                  for every P to stop (stw-p99/max-ns, upper bucket edges of
#                  the runtime's /sched/pauses/stopping/gc:seconds), with a
#                  runtime.GC every random 0.5-3 ms,
# and the waiter's own p99 overshoot (wait-p99-ns). The mechanisms take
# turns ROUNDS times (-count), so load drifts hit each alike; the summary is
# the median of each metric over the rounds.
# Usage: scripts/delay-hold-cost.sh [ROUNDS [WAITS]]  (defaults: 5 rounds of 300 waits)
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-5}
waits=${2:-300}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of $waits waits of 10 ms"
go test -run '^$' -bench HoldCost -cpu 1,2,8 -benchtime "${waits}x" -count "$rounds" ./delay/ >"$out"
# Lines: BenchmarkHoldCost/neighbor=N/mech=M[-P] iters ns/op value unit value unit ...
awk '$1 ~ /^BenchmarkHoldCost\// {
	name = $1; procs = 1
	if (match(name, /-[0-9]+$/)) { procs = substr(name, RSTART + 1); name = substr(name, 1, RSTART - 1) }
	sub(/^BenchmarkHoldCost\//, "", name)
	key = name " GOMAXPROCS=" procs
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	for (i = 5; i + 1 <= NF; i += 2) {
		if ($(i + 1) == "ns/op") continue
		k = key SUBSEP $(i + 1)
		if (!(k in nv)) { units[key] = units[key] " " $(i + 1) }
		vals[k, ++nv[k]] = $i
	}
}
END {
	for (j = 1; j <= nk; j++) {
		key = order[j]; line = sprintf("%-36s", key)
		n = split(units[key], us, " ")
		for (u = 1; u <= n; u++) {
			k = key SUBSEP us[u]; m = nv[k]
			for (a = 1; a <= m; a++) s[a] = vals[k, a] + 0
			for (a = 2; a <= m; a++) { x = s[a]; for (b = a - 1; b >= 1 && s[b] > x; b--) s[b + 1] = s[b]; s[b + 1] = x }
			med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
			line = line sprintf("  %s %.0f [%.0f, %.0f]", us[u], med, s[1], s[m])
		}
		print line
	}
}' "$out"
echo "(median [min, max] over the rounds)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
