#!/bin/sh
# trace-bench.sh: the overhead of scope timers and of the tracer, measured
# next to their anchors in one session, in ABBA order (the benchmarks of a
# round run forward, the next round backward, one process each), and
# printed as ratios with min/median/max over the rounds:
#   scope   Start+Stop / a time.Now()+time.Since() pair       target <= 1.5x, 0 allocs
#           by-name Start("x").Stop() / the same pair
#   scope   throughput lost per goroutine when 2 record at once instead of 1
#           (1 - ns(1)/ns(2)), for scope, for the anchor pair (what the machine
#           itself loses: nothing is shared) and for one shared atomic counter
#           (what sharding avoids)                             target < 20 %
#   tracer  Instant (own lane / per-P) / a bare TSC read + store  target <= 1.5x
#           span (Begin+End) / two TSC reads + store; absolute ns per event
#           (target <= 15 ns median on amd64); runtime/trace's region cost with
#           and without an execution trace running; Tracy's 2.25 ns per zone
# Usage: scripts/trace-bench.sh [rounds] [benchtime]   (defaults: 5 200ms)
set -eu
rounds=${1:-5}
bt=${2:-200ms}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/tracer.test" ./tracer
go test -c -o "$tmp/scope.test" ./scope

echo "== $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $rounds rounds, benchtime $bt, $(go version | cut -d' ' -f3-)"
# name binary pattern: one benchmark per line.
cat >"$tmp/list" <<'LIST'
anchor-tsc+store tracer ^BenchmarkEvent$/^anchor-tsc\+store$
lane-instant tracer ^BenchmarkEvent$/^lane-instant$
p-instant tracer ^BenchmarkEvent$/^p-instant$
anchor-2tsc+store tracer ^BenchmarkEvent$/^anchor-2tsc\+store$
lane-span tracer ^BenchmarkEvent$/^lane-span$
p-span tracer ^BenchmarkEvent$/^p-span$
region-off tracer ^BenchmarkEvent$/^region-off$
region-on tracer ^BenchmarkEvent$/^region-on$
span+regions tracer ^BenchmarkEvent$/^span\+regions$
anchor-now+since scope ^BenchmarkStartStop$/^anchor-now\+since$
scope scope ^BenchmarkStartStop$/^scope$
by-name scope ^BenchmarkStartStop$/^by-name$
par-anchor-1 scope ^BenchmarkParallel$/^anchor$/^goroutines=1$
par-anchor-2 scope ^BenchmarkParallel$/^anchor$/^goroutines=2$
par-scope-1 scope ^BenchmarkParallel$/^scope$/^goroutines=1$
par-scope-2 scope ^BenchmarkParallel$/^scope$/^goroutines=2$
par-unsharded-1 scope ^BenchmarkParallel$/^unsharded$/^goroutines=1$
par-unsharded-2 scope ^BenchmarkParallel$/^unsharded$/^goroutines=2$
LIST
tac "$tmp/list" >"$tmp/list.rev"
r=1
while [ "$r" -le "$rounds" ]; do
	list="$tmp/list"
	[ $((r % 2)) -eq 0 ] && list="$tmp/list.rev"
	while read -r name bin pat; do
		"$tmp/$bin.test" -test.run='^$' -test.bench="$pat" -test.benchtime="$bt" -test.count=1 -test.benchmem |
			awk -v n="$name" -v r="$r" '$1 ~ /^Benchmark/ && $4 == "ns/op" { print r, n, $3, $7 }' >>"$tmp/results"
	done <"$list"
	r=$((r + 1))
done

# stat EXPR-per-round → "min median max" over the rounds. Each line of
# $tmp/results is: round name ns/op allocs/op.
awk -v rounds="$rounds" '
function sort(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
function med(a, n) { return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function show(label, kind, target,   i, n, v) {
	n = 0
	for (i = 1; i <= rounds; i++) if ((i, label) in val) v[++n] = val[i, label]
	if (n == 0) { printf "  %-46s (not measured)\n", label; return }
	sort(v, n)
	if (kind == "pct") printf "  %-46s %7.1f %% %7.1f %% %7.1f %%   %s\n", label, 100 * v[1], 100 * med(v, n), 100 * v[n], target
	else if (kind == "ns") printf "  %-46s %7.2f ns %6.2f ns %6.2f ns  %s\n", label, v[1], med(v, n), v[n], target
	else printf "  %-46s %8.3fx %8.3fx %8.3fx  %s\n", label, v[1], med(v, n), v[n], target
}
{ ns[$1, $2] = $3; allocs[$2] = (allocs[$2] > $4 ? allocs[$2] : $4) }
END {
	for (i = 1; i <= rounds; i++) {
		val[i, "Start+Stop / Now+Since"] = ns[i, "scope"] / ns[i, "anchor-now+since"]
		val[i, "Start(name).Stop() / Now+Since"] = ns[i, "by-name"] / ns[i, "anchor-now+since"]
		val[i, "loss, 2 goroutines: scope"] = 1 - ns[i, "par-scope-1"] / ns[i, "par-scope-2"]
		val[i, "loss, 2 goroutines: anchor Now+Since"] = 1 - ns[i, "par-anchor-1"] / ns[i, "par-anchor-2"]
		val[i, "loss, 2 goroutines: one shared atomic"] = 1 - ns[i, "par-unsharded-1"] / ns[i, "par-unsharded-2"]
		val[i, "Lane.Instant / TSC+store"] = ns[i, "lane-instant"] / ns[i, "anchor-tsc+store"]
		val[i, "Tracer.Instant (per-P) / TSC+store"] = ns[i, "p-instant"] / ns[i, "anchor-tsc+store"]
		val[i, "Lane span / 2 TSC+store"] = ns[i, "lane-span"] / ns[i, "anchor-2tsc+store"]
		val[i, "Tracer span (per-P) / 2 TSC+store"] = ns[i, "p-span"] / ns[i, "anchor-2tsc+store"]
		val[i, "Lane.Instant / Tracy 2.25 ns"] = ns[i, "lane-instant"] / 2.25
		val[i, "Tracer.Instant / Tracy 2.25 ns"] = ns[i, "p-instant"] / 2.25
		for (k in ns) { split(k, p, SUBSEP); if (p[1] == i) val[i, "ns " p[2]] = ns[k] }
	}
	print "== scope timers          (over rounds)             min      median       max    target"
	show("Start+Stop / Now+Since", "x", "<= 1.5x")
	show("Start(name).Stop() / Now+Since", "x", "")
	show("loss, 2 goroutines: scope", "pct", "< 20 %")
	show("loss, 2 goroutines: anchor Now+Since", "pct", "(the machine)")
	show("loss, 2 goroutines: one shared atomic", "pct", "(no sharding)")
	show("ns anchor-now+since", "ns", ""); show("ns scope", "ns", ""); show("ns by-name", "ns", "")
	printf "  allocs/op: scope %d, by-name %d (target 0)\n", allocs["scope"], allocs["by-name"]
	print "== tracer"
	show("Lane.Instant / TSC+store", "x", "<= 1.5x")
	show("Tracer.Instant (per-P) / TSC+store", "x", "<= 1.5x")
	show("Lane span / 2 TSC+store", "x", "")
	show("Tracer span (per-P) / 2 TSC+store", "x", "")
	show("ns lane-instant", "ns", "<= 15 ns"); show("ns p-instant", "ns", "<= 15 ns")
	show("ns anchor-tsc+store", "ns", ""); show("ns anchor-2tsc+store", "ns", "")
	show("ns lane-span", "ns", ""); show("ns p-span", "ns", "")
	show("ns region-off", "ns", "runtime/trace, no trace running")
	show("ns region-on", "ns", "runtime/trace, tracing")
	show("ns span+regions", "ns", "span with Options.RuntimeRegions, no trace running")
	show("Lane.Instant / Tracy 2.25 ns", "x", "(far anchor)")
	show("Tracer.Instant / Tracy 2.25 ns", "x", "")
	printf "  allocs/op: lane-instant %d, p-instant %d, p-span %d, region-on %d\n", allocs["lane-instant"], allocs["p-instant"], allocs["p-span"], allocs["region-on"]
}' "$tmp/results"
