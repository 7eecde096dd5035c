#!/bin/sh
# valgrind-counts.sh: are instruction counts under callgrind exact and
# independent of load, and what does valgrind cost? (issue 22)
#
# It builds internal/valgrind/internal/demo, which measures regions of
# itself with package valgrind (re-executed under callgrind, collection
# toggled around the measured loop), and runs it twice: as the machine
# is, then with one `yes >/dev/null` per CPU. Each prints, over RUNS runs:
#   instructions/op   the count per iteration of a //go:noinline sum of 1024 uint64s
#                     (goal: the same in every run, CV 0) and the fixed count per region
#   wall, CPU         the time of each callgrind run, and the native ns/op, with their CV
#   slowdown          CPU ns/op under callgrind over native CPU ns/op (the loop alone),
#                     and a whole callgrind run's CPU time over the native time of its iterations
#   cache simulation  estimated cycles and D1 misses per iteration, run after run
#   goroutine, alloc  regions whose counts are not exact, and why (see the package doc)
# Usage: scripts/valgrind-counts.sh [runs] [iterations]   (defaults: 10 20000)
set -eu
runs=${1:-10}
n=${2:-20000}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/demo" ./internal/valgrind/internal/demo
valgrind --version

echo "== as the machine is: $(uptime)"
"$tmp/demo" -runs "$runs" -n "$n"

for _ in $(seq "$(nproc)"); do
	yes >/dev/null &
	pids="$pids $!"
done
sleep 1
echo "== with one yes per CPU ($(nproc)): $(uptime)"
"$tmp/demo" -runs "$runs" -n "$n"
