#!/usr/bin/env bash
# pgo-gain.sh: measures by hand what go build -pgo gains on
# examples/interp, the figure `chrono pgo` must reproduce. Not a test:
# figures depend on the machine and its load; it prints the load average
# at the start and the end, so run it on a quiet machine, e.g. under
# `flock /tmp/chrono-measure.lock`.
#
#   scripts/pgo-gain.sh [ROUNDS] [RUNS] [PROFILE_REPS]   (defaults: 10 3 3500)
#
# 1. Builds examples/interp without a profile (-pgo=off), runs it once
#    with -r PROFILE_REPS under CHRONO_CPUPROFILE (the profiles/cpuprof
#    convention: 3500 interpretations are ~30 s of CPU, the 3000 samples
#    profiles.DefaultMinSamples asks for), and builds it again with
#    -pgo=PROFILE.
# 2. Runs both binaries with hyperfine (-N: no shell; one warm-up run;
#    RUNS runs each) ROUNDS times, in ABBA order (the plain build first in
#    odd rounds, the PGO build first in even ones), so that a drift of the
#    machine hits both alike.
# 3. Per round, the ratio PGO / plain of the median wall time and of the
#    mean user CPU time (less sensitive to other processes taking the
#    CPU); over the rounds, the min, median and max of each ratio. A
#    ratio below 1 is a gain: 0.85 is 15 % less time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-10}
RUNS=${2:-3}
REPS=${3:-3500}
command -v hyperfine >/dev/null || { echo "hyperfine not found: apt-get install hyperfine" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 not found: apt-get install python3" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)  $(go version | cut -d' ' -f3-)"
go build -pgo=off -o "$dir/plain" ./examples/interp
CHRONO_CPUPROFILE="$dir/interp.pprof" "$dir/plain" -r "$REPS" >/dev/null
go build -pgo="$dir/interp.pprof" -o "$dir/pgo" ./examples/interp
[ "$("$dir/plain")" = "$("$dir/pgo")" ] || { echo "the two builds disagree" >&2; exit 1; }
echo "sizes: plain $(stat -c %s "$dir/plain") B, pgo $(stat -c %s "$dir/pgo") B"
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) -eq 1 ]; then order=("$dir/plain" "$dir/pgo"); else order=("$dir/pgo" "$dir/plain"); fi
	hyperfine -N -w 1 -r "$RUNS" --style none --export-json "$dir/round$r.json" "${order[@]}" >/dev/null 2>>"$dir/warnings"
done
python3 - "$dir" "$ROUNDS" <<'PY'
import json, statistics, sys
d, rounds = sys.argv[1], int(sys.argv[2])
wall, user = [], []
for r in range(1, rounds + 1):
    res = {x["command"].rsplit("/", 1)[1]: x for x in json.load(open(f"{d}/round{r}.json"))["results"]}
    p, g = res["plain"], res["pgo"]
    wall.append(statistics.median(g["times"]) / statistics.median(p["times"]))
    user.append(g["user"] / p["user"])  # hyperfine exports the mean user time
    print(f"round {r:2}: plain {statistics.median(p['times']):.3f} s wall {p['user']:.3f} s user;"
          f" pgo {statistics.median(g['times']):.3f} s wall {g['user']:.3f} s user;"
          f" ratio wall {wall[-1]:.3f} user {user[-1]:.3f}")
for name, v in (("wall (median per round)", wall), ("user CPU (mean per round)", user)):
    print(f"pgo/plain {name}: median {statistics.median(v):.3f}, min {min(v):.3f}, max {max(v):.3f} over {len(v)} rounds")
PY
if [ -s "$dir/warnings" ]; then
	echo "hyperfine printed $(grep -c Warning "$dir/warnings") warnings (outliers, slow first runs): the machine was busy"
fi
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
