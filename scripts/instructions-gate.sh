#!/bin/sh
# instructions-gate.sh: does the regression gate on instruction counts
# (bench/benchtest's CHRONO_BENCH=instructions) catch a 1 % change in work
# every time without false alarms, where the gate on wall time cannot?
# (issue 22)
#
# It makes a throwaway module with two packages that differ only in the
# work of one benchmark (a //go:noinline sum of 1024 uint64s, and of 1034:
# 1 % more), then RUNS times: counts the base package twice and the
# changed one once in instruction mode, and times them the same way
# (go test -bench, benchtest's default mode), and gates each pair with
# chrono report --baseline OLD NEW --fail-on regression: base against
# base (a false alarm if it fails), base against the change (a detection if
# it fails). The instruction gate uses --threshold 0% (exact), the wall
# gate --threshold 0.5% (below the planted change). It prints every run's
# instructions/op and ns/op, their CV over the runs, and the gates' tallies.
# LOAD=1 runs one `yes >/dev/null` per CPU meanwhile.
# Usage: scripts/instructions-gate.sh [runs]   (default 10; needs valgrind, jq)
set -eu
runs=${1:-10}
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
(cd "$repo" && go build -o "$tmp/chrono" ./cmd/chrono)
cat >go.mod <<EOF
module example.com/gate

go 1.26

require github.com/chronograph/chronograph v0.0.0

replace github.com/chronograph/chronograph => $repo
EOF
cp "$repo/go.sum" .
for pkg in base:1024 change:1034; do
	dir=${pkg%:*}
	mkdir "$dir"
	cat >"$dir/sum.go" <<EOF
package $dir

var n = ${pkg#*:}

//go:noinline
func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}
EOF
	cat >"$dir/sum_test.go" <<EOF
package $dir

import (
	"testing"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/bench/benchtest"
)

var sink uint64

func BenchmarkSum(b *testing.B) {
	xs := make([]uint64, n)
	benchtest.Run(b, func(b *bench.B) {
		for b.Loop() {
			sink += sum(xs)
		}
	}, nil)
}
EOF
done
GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || true

if [ "${LOAD:-0}" = 1 ]; then
	for _ in $(seq "$(nproc)"); do
		yes >/dev/null &
		pids="$pids $!"
	done
	sleep 1
fi
valgrind --version
echo "== $(nproc) CPUs, LOAD=${LOAD:-0}: $(uptime)"

count() { # mode package output
	CHRONO_BENCH=$1 CHRONO_BENCH_JSON=$3 go test -run '^$' -bench . "./$2" >"$3.log" 2>&1 || { cat "$3.log" >&2; exit 1; }
}
gate() { # threshold old new: prints 1 when the gate fails (a regression)
	if "$tmp/chrono" report --baseline "$2" "$3" --fail-on regression --threshold "$1" >"$3.gate" 2>&1; then
		echo 0
	else
		code=$?
		[ "$code" = 1 ] || { cat "$3.gate" >&2; exit 1; }
		echo 1
	fi
}
median() { jq -r '[.measurements[0].metrics[] | select(.name == "'"$1"'") | .values[]] | sort | .[length/2|floor]' "$2"; }

ins_false=0 ins_found=0 wall_false=0 wall_found=0
: >ins.txt
: >wall.txt
for i in $(seq "$runs"); do
	count instructions base "$tmp/ib$i.json"
	count instructions base "$tmp/is$i.json"
	count instructions change "$tmp/ic$i.json"
	count time base "$tmp/tb$i.json"
	count time base "$tmp/ts$i.json"
	count time change "$tmp/tc$i.json"
	ins_false=$((ins_false + $(gate 0% "$tmp/ib$i.json" "$tmp/is$i.json")))
	ins_found=$((ins_found + $(gate 0% "$tmp/ib$i.json" "$tmp/ic$i.json")))
	wall_false=$((wall_false + $(gate 0.5% "$tmp/tb$i.json" "$tmp/ts$i.json")))
	wall_found=$((wall_found + $(gate 0.5% "$tmp/tb$i.json" "$tmp/tc$i.json")))
	ib=$(median instructions "$tmp/ib$i.json") is=$(median instructions "$tmp/is$i.json") ic=$(median instructions "$tmp/ic$i.json")
	tb=$(median wall "$tmp/tb$i.json") ts=$(median wall "$tmp/ts$i.json") tc=$(median wall "$tmp/tc$i.json")
	echo "$ib $is" >>ins.txt
	echo "$tb $ts" >>wall.txt
	printf 'run %2d  instructions/op base %s %s change %s   ns/op (median) base %.1f %.1f change %.1f\n' "$i" "$ib" "$is" "$ic" "$tb" "$ts" "$tc"
done
cv() { tr ' ' '\n' <"$1" | awk '{s+=$1; q+=$1*$1; n++} END {m=s/n; v=(q-n*m*m)/(n-1); if (v<0) v=0; printf "mean %.2f, CV %.2f %% (n-1, %d invocations)", m, 100*sqrt(v)/m, n}'; }
echo "instructions/op of the base over its invocations: $(cv ins.txt)"
echo "ns/op (median of each) of the base over its invocations: $(cv wall.txt)"
echo "gate on instructions (--threshold 0%):  detected the 1 % change $ins_found/$runs, false alarms $ins_false/$runs"
echo "gate on wall time (--threshold 0.5%):   detected the 1 % change $wall_found/$runs, false alarms $wall_false/$runs"
