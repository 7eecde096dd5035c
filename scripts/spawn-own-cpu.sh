#!/usr/bin/env bash
# spawn-own-cpu.sh: chrono run's own CPU time per process it starts,
# against hyperfine's (issue 20's anchor: goal <= 1.05x), side by side.
# Not a test: the figures depend on the machine and its load (printed at
# both ends); run it on a quiet machine.
#
#   scripts/spawn-own-cpu.sh [ROUNDS] [RUNS]     (defaults: 6 2000)
#
# Own CPU is the tool's user + system time, the processes it started
# excluded: this driver's RUSAGE_CHILDREN around one call of the tool
# (the tool and every process it waited for) minus the processes' own
# CPU times, which each tool exports (hyperfine --export-json, chrono run
# --export-hyperfine-json: the mean user and system time of a run; chrono
# also starts overhead runs of the same `true`, counted as processes).
# Each tool runs `-N --runs 50 true` and `-N --runs RUNS+50 true`; the
# difference divided by the difference in processes is the own CPU per
# process started, without the fixed cost of a call (start-up,
# environment capture, the output). A round runs both tools in ABBA order
# (chrono first in odd rounds); per round the ratio chrono / hyperfine,
# then the min / median / max over the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-6}
RUNS=${2:-2000}
command -v hyperfine >/dev/null || { echo "hyperfine not found: apt-get install hyperfine" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/chrono" ./cmd/chrono
python3 - "$tmp" "$ROUNDS" "$RUNS" <<'EOF'
import json, os, resource, statistics, subprocess, sys
tmp, rounds, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
C = os.path.join(tmp, "chrono")

def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])

def own(tool, n):
    """The tool's own CPU seconds for n runs of true, and the processes."""
    f = os.path.join(tmp, "own.json")
    if tool == "chrono":
        argv = [C, "run", "-N", "--runs", str(n), "--style", "none", "--export-hyperfine-json", f, "true"]
    else:
        argv = ["hyperfine", "-N", "--runs", str(n), "--style", "none", "--export-json", f, "true"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    tot = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    r = json.load(open(f))["results"][0]
    # chrono's overhead runs: 10, then one every other run, at most 500.
    procs = n + (min(500, 10 + n // 2) if tool == "chrono" else 0)
    return tot - procs * (r["user"] + r["system"]), procs

def per_process(tool):
    (o1, p1), (o2, p2) = own(tool, 50), own(tool, 50 + runs)
    return (o2 - o1) / (p2 - p1)

hv = subprocess.run(["hyperfine", "--version"], capture_output=True, text=True).stdout.strip()
print(f"== {os.cpu_count()} CPUs, load {load()}, {hv}, {rounds} rounds ABBA, {runs} runs of true more in the long call")
ratios, cs, hs = [], [], []
for r in range(rounds):
    order = ("chrono", "hyperfine") if r % 2 == 0 else ("hyperfine", "chrono")
    got = {t: per_process(t) for t in order}
    cs.append(got["chrono"]); hs.append(got["hyperfine"])
    ratios.append(got["chrono"] / got["hyperfine"])
    print(f"  round {r + 1}: chrono {got['chrono'] * 1e6:.1f} µs, hyperfine {got['hyperfine'] * 1e6:.1f} µs per process: {ratios[-1]:.3f}x")
mmm = lambda xs, f: " / ".join(f(x) for x in (min(xs), statistics.median(xs), max(xs)))
us = lambda x: f"{x * 1e6:.1f}"
print(f"== min / median / max over {rounds} rounds (load at the end {load()})")
print(f"  chrono    own CPU per process: {mmm(cs, us)} µs")
print(f"  hyperfine own CPU per process: {mmm(hs, us)} µs")
print(f"  ratio chrono / hyperfine:      {mmm(ratios, lambda x: f'{x:.3f}')} (goal <= 1.05)")
EOF
