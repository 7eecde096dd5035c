#!/usr/bin/env bash
# fuzz.sh runs every native Go fuzz target of the module (func FuzzXxx(f
# *testing.F) in any *_test.go) for DURATION each, one `go test -fuzz` per
# target, and prints a table of targets, durations, executions and results.
#
#   scripts/fuzz.sh [-j JOBS] [-p WORKERS] [-m MINIMIZE] DURATION [REGEXP]
#
#   DURATION  fuzzing time per target, as go test -fuzztime takes it (10m, 90s)
#   REGEXP    only the targets whose "package/FuzzName" matches (grep -E)
#   -j JOBS   targets fuzzed at the same time (default 1)
#   -p N      fuzzing workers per target (go test -parallel; default GOMAXPROCS)
#   -m TIME   time to minimize a new failing or interesting input (default 10s;
#             go test's 60s default eats short runs)
#
# CI does not run this: `go test ./...` runs every target's seed corpus
# (f.Add seeds and testdata/fuzz/FuzzXxx/*) as ordinary tests. A failure found
# here is written to PKG/testdata/fuzz/FuzzXxx/ by go test: fix its cause and
# commit the file as a regression case. On a shared machine, run it under
# `nice -n 19` with -j 2 -p 1 at most. Logs go to $FUZZ_LOGS (default a new
# directory under ${TMPDIR:-/tmp}). Exit status 1 when a target failed.
set -euo pipefail

jobs=1 workers="" minimize=10s
while getopts "j:p:m:h" opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	p) workers=$OPTARG ;;
	m) minimize=$OPTARG ;;
	*)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 [-j JOBS] [-p WORKERS] [-m MINIMIZE] DURATION [REGEXP]   (e.g. $0 10m, $0 30s 'stats/')" >&2
	exit 2
fi
duration=$1 filter=${2:-.}
case $jobs in '' | *[!0-9]* | 0) echo "fuzz.sh: -j wants a positive number, not '$jobs'" >&2; exit 2 ;; esac

cd "$(dirname "$0")/.."
logs=${FUZZ_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/chrono-fuzz.XXXXXX")}
mkdir -p "$logs"

# Every target as "pkgdir/FuzzName", sorted.
mapfile -t targets < <(
	grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+\(f \*testing\.F\)' . |
		sed -E 's#^\./(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]+)\(.*#\1/\2#' |
		sort | grep -E -- "$filter" || true
)
if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz.sh: no fuzz target matches '$filter'" >&2
	exit 2
fi
echo "fuzz.sh: ${#targets[@]} targets, $duration each, $jobs at a time, logs in $logs" >&2

# run_one fuzzes one target and appends "pkg target seconds execs result" to
# $logs/results.
run_one() {
	local dir=$1 name=$2
	local log="$logs/${dir//\//_}.$name.log"
	local start end rc=0
	start=$(date +%s)
	# -timeout 0: go test's default 10m timeout would kill a 10m run.
	go test -run '^$' -fuzz "^$name\$" -fuzztime "$duration" -fuzzminimizetime "$minimize" -timeout 0 \
		${workers:+-parallel "$workers"} "./$dir" >"$log" 2>&1 || rc=$?
	end=$(date +%s)
	# The fuzzer's last progress line holds the executions so far.
	local execs
	execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | awk '{print $2}' || true)
	local result=ok
	if [ $rc -ne 0 ]; then
		result="FAIL (see $log"
		local found
		found=$(grep -oE 'testdata/fuzz/[A-Za-z0-9_]+/[0-9a-f]+' "$log" | head -1 || true)
		[ -n "$found" ] && result+="; input $dir/$found"
		result+=")"
	fi
	printf '%s %s %s %s %s\n' "$dir" "$name" "$((end - start))" "${execs:-?}" "$result" >>"$logs/results"
	printf 'fuzz.sh: %-16s %-22s %5ss %12s execs  %s\n' "$dir" "$name" "$((end - start))" "${execs:-?}" "$result" >&2
}

: >"$logs/results"
running=0
for t in "${targets[@]}"; do
	run_one "${t%/*}" "${t##*/}" &
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
done
wait

echo
printf '%-16s %-22s %8s %14s  %s\n' package target seconds executions result
sort "$logs/results" | while read -r dir name secs execs result; do
	printf '%-16s %-22s %8s %14s  %s\n' "$dir" "$name" "$secs" "$execs" "$result"
done
failed=$(grep -c ' FAIL' "$logs/results" || true)
total=$(wc -l <"$logs/results")
echo "$total targets, $duration each (go test -fuzztime), $failed failed; $(go env GOVERSION), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
[ "$failed" -eq 0 ]
