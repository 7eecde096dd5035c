#!/usr/bin/env bash
# startup-cpu.sh: chrono's own CPU time per invocation of the commands that
# measure nothing on this host — chrono report DOC, chrono numbers FILE,
# chrono history list, chrono trace FILE — against chrono --version (the
# anchor: start-up alone) and chrono env (the measuring capture: the
# CPU-speed loop on every CPU and the counters' probe), as whole
# processes in ABBA order (scripts/abba.py), RUNS runs of each per round;
# then, under strace, how many threads each pins (sched_setaffinity: the
# CPU-speed loop) and how many perf events it opens (the counters' probe):
# none but in chrono env (issue 20: report, history, numbers and trace run
# none of it). Not a test: figures depend on the machine and its load.
#
#   scripts/startup-cpu.sh [ROUNDS] [RUNS]     (defaults: 6 20)
#
# $CHRONO names a chrono binary to measure instead of one built from this
# checkout (e.g. an older build, to compare).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-6}
RUNS=${2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chrono=${CHRONO:-}
if [ -z "$chrono" ]; then
	go build -o "$tmp/chrono" ./cmd/chrono
	chrono=$tmp/chrono
fi
# The inputs: a command document, a history store holding it, 1000
# numbers, a known trace.
"$chrono" run -N --runs 5 true --export-json "$tmp/doc.json" >/dev/null
"$chrono" history add --db "$tmp/h.db" "$tmp/doc.json" 2>/dev/null
seq 1 1000 >"$tmp/numbers.txt"
trace=cmd/chrono/testdata/trace-known.json

cmds=(
	"version=$chrono --version"
	"report=$chrono report $tmp/doc.json"
	"numbers=$chrono numbers $tmp/numbers.txt"
	"history=$chrono history list --db $tmp/h.db"
	"trace=$chrono trace $trace"
	"env=$chrono env"
)
python3 scripts/abba.py --rounds "$ROUNDS" --runs "$RUNS" --anchor version "${cmds[@]}"

if command -v strace >/dev/null; then
	echo
	echo "system calls of one run (strace -f): sched_setaffinity (threads pinned: the CPU-speed loop), perf_event_open (the counters' probe)"
	for c in "${cmds[@]}"; do
		label=${c%%=*}
		read -r -a argv <<<"${c#*=}"
		strace -f -qq -c -e trace=sched_setaffinity,perf_event_open -o "$tmp/strace.txt" "${argv[@]}" >/dev/null 2>&1
		awk -v l="$label" '$NF == "sched_setaffinity" { s = $4 } $NF == "perf_event_open" { p = $4 }
			END { printf "  %-8s sched_setaffinity %d, perf_event_open %d\n", l, s, p }' "$tmp/strace.txt"
	done
else
	echo "(strace not found: apt-get install strace, to count the pinned threads and perf events)"
fi
