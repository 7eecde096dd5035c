#!/usr/bin/env bash
# examples-refresh.sh: remakes the example documents in docs/examples that
# are measurements of this machine (clocks, env, gzip-levels, sleep-study,
# sortsearch, pipeline-trace) with a chrono built from this checkout, then
# refreshes the README's example outputs (scripts/readme-refresh.py). Run it
# on a quiet machine: it refuses when the 1-minute load average is half the
# CPU count or more, unless FORCE=1 (issue 18: documents made under load
# told readers the machine's load, not the code's). Afterwards update the goldens
# that render these documents (go test ./report ./cmd/chrono -update) and
# read the diffs before committing.
#
# Kept as they are: numbers.json (a fixed input's statistics), hyperfine.json
# (the anchor tool's own export) and history.db (runs over past commits).
set -euo pipefail
cd "$(dirname "$0")/.."
cpus=$(nproc)
load=$(cut -d' ' -f1 /proc/loadavg)
if [ "${FORCE:-0}" != 1 ] && awk -v l="$load" -v c="$cpus" 'BEGIN { exit !(l >= c / 2) }'; then
	echo "examples-refresh: load average $load on $cpus CPUs: quiet the machine first (or FORCE=1)" >&2
	exit 1
fi
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/chrono" ./cmd/chrono
export PATH=$bin:$PATH
ex=docs/examples
chrono clocks --redact --json >"$ex/clocks.json"
chrono env --redact --json >"$ex/env.json"
chrono run -N -L level 1,9 --runs 20 --redact --export-json "$ex/gzip-levels.json" --style none 'gzip -{level} -c README.md' >/dev/null
chrono sleep --durations 10us,100us,1ms,10ms --mechanisms 'time.Sleep,delay.Sleep,clock_nanosleep(ABS),busy-spin,nanosleep' --budget 2s --redact --json >"$ex/sleep-study.json"
go run ./examples/sortsearch -o "$ex/sortsearch.json" >/dev/null
go run ./examples/pipeline -n 100 -o "$ex/pipeline-trace.json" >/dev/null
echo "load average at end:   $(cut -d' ' -f1-3 /proc/loadavg)"
scripts/readme-refresh.py
