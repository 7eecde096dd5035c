#!/usr/bin/env bash
# run-vs-hyperfine.sh: benchmarks `chrono run` side by side with hyperfine
# (Debian's package) in one session and prints ratios chrono / hyperfine
# with their spread over the rounds. Not a test: figures depend on the
# machine and its load; run it on a quiet machine (it prints the load
# average at the start and the end), e.g. under
# `flock /tmp/chrono-measure.lock` so that no other measurement runs.
#
#   scripts/run-vs-hyperfine.sh [ROUNDS] [RUNS]     (defaults: 10 20)
#
# Like for like: both tools run the same commands directly (-N, no shell,
# so neither measures nor subtracts a shell), sequentially, their output
# discarded, and both tools' figures are read from the same format:
# hyperfine's JSON export (hyperfine --export-json, chrono run
# --export-hyperfine-json), by the same code. Every round runs both tools
# once each, in ABBA order (chrono first in odd rounds, hyperfine first in
# even ones), so that a drift of the machine hits both alike; a ratio is
# computed per round, and the summary gives the min, median and max of the
# ratios over the rounds.
#
# 1. Per-run overhead: `-N --runs 200 true`, ratio of the medians
#    (target: <= 1.05).
# 2. `sleep 0.05`, RUNS runs each: ratio of the medians (target:
#    0.98..1.02).
# 3. A ~20 ms CPU-bound program (a compiled C loop, calibrated here; a
#    shell loop drifted by 10-20 % between rounds), RUNS runs each (after
#    1 warm-up run): ratio statistic for statistic, mean, median, min, max,
#    stddev (target 0.98..1.02 for mean, median and min; max and stddev are
#    single extreme values and spreads, printed for information).
# 4. Own CPU time per process started, not the children's, for chrono and
#    for hyperfine: the CPU time of the tool and everything it waited for
#    (RUSAGE_CHILDREN of the python3 driver) minus its children's CPU times
#    (from each tool's JSON export), for 50 and for 1050 runs of `true`;
#    the difference per process is the cost between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-10}
RUNS=${2:-20}
command -v hyperfine >/dev/null || { echo "hyperfine not found: apt-get install hyperfine" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 not found: apt-get install python3" >&2; exit 1; }
command -v cc >/dev/null || { echo "cc not found (needed for the CPU-bound command): apt-get install gcc" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/chrono" ./cmd/chrono

# The CPU-bound command: N steps of a chain of dependent multiply-adds in a
# register (latency-bound; the empty asm keeps the compiler from removing
# or folding it). A loop through memory (volatile) varied 20-45 ms from run
# to run on this VM; this one varies by a few %.
cat >"$tmp/busy.c" <<'EOF'
#include <stdlib.h>
int main(int argc, char **argv) {
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000, x = 1;
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ volatile("" : "+r"(x));
	}
	return 0;
}
EOF
cc -O2 -o "$tmp/busy" "$tmp/busy.c"

python3 - "$tmp" "$ROUNDS" "$RUNS" <<'PY'
import json, os, resource, statistics, subprocess, sys, time

tmp, rounds, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
C, BUSY = os.path.join(tmp, "chrono"), os.path.join(tmp, "busy")
DEVNULL = subprocess.DEVNULL

def export(argv, f):
    """Runs a tool and reads its hyperfine-format export: the first
    result's times in seconds, and the whole result."""
    subprocess.run(argv, check=True, stdout=DEVNULL, stderr=DEVNULL)
    r = json.load(open(f))["results"][0]
    return r["times"], r

def chrono(cmd, n, warmup=0):
    f = os.path.join(tmp, "c.json")
    return export([C, "run", "-N", "--runs", str(n), "--warmup", str(warmup), "--style", "none",
                   "--export-hyperfine-json", f, cmd], f)

def hyperfine(cmd, n, warmup=0):
    f = os.path.join(tmp, "h.json")
    return export(["hyperfine", "-N", "--runs", str(n), "--warmup", str(warmup), "--style", "none",
                   "--export-json", f, cmd], f)

def abba(cmd, n, warmup):
    """ROUNDS rounds, ABBA: per round (chrono times, hyperfine times)."""
    out = []
    for r in range(rounds):
        if r % 2 == 0:
            c, _ = chrono(cmd, n, warmup); h, _ = hyperfine(cmd, n, warmup)
        else:
            h, _ = hyperfine(cmd, n, warmup); c, _ = chrono(cmd, n, warmup)
        out.append((c, h))
    return out

STATS = {"mean": statistics.fmean, "median": statistics.median, "min": min, "max": max, "stddev": statistics.stdev}
summary = []

def spread(label, ratios, target):
    s = sorted(ratios)
    line = f"{label:28s} min {s[0]:.4f}  median {statistics.median(s):.4f}  max {s[-1]:.4f}   ({len(s)} rounds; target {target})"
    summary.append(line)
    print("  " + line)

def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])

hv = subprocess.run(["hyperfine", "--version"], capture_output=True, text=True).stdout.split()[-1]
print(f"== {os.cpu_count()} CPUs, load {load()}, hyperfine {hv}, {rounds} rounds ABBA")

# Calibrate the busy loop to ~20 ms: the fastest of 5 tries per step.
def busy_ms(n):
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter(); subprocess.run([BUSY, str(n)], check=True); best = min(best, time.perf_counter() - t)
    return best * 1e3
n = 10_000_000
for _ in range(3):
    n = int(n * 20 / busy_ms(n))
CPU = f"{BUSY} {n}"
print(f"CPU-bound command: busy loop of {n} iterations ({busy_ms(n):.1f} ms at best, spawn included)")

def ms(s): return f"{s * 1e3:.3f} ms"

print("== 1. per-run overhead: -N --runs 200 true; chrono median / hyperfine median")
res = abba("true", 200, 0)
for i, (c, h) in enumerate(res):
    print(f"  round {i + 1:2d}: chrono {ms(statistics.median(c))}  hyperfine {ms(statistics.median(h))}")
spread("true: median ratio", [statistics.median(c) / statistics.median(h) for c, h in res], "<= 1.05")

print(f"== 2. sleep 0.05, {runs} runs each; chrono median / hyperfine median")
res = abba("sleep 0.05", runs, 0)
for i, (c, h) in enumerate(res):
    print(f"  round {i + 1:2d}: chrono {ms(statistics.median(c))}  hyperfine {ms(statistics.median(h))}")
spread("sleep 0.05: median ratio", [statistics.median(c) / statistics.median(h) for c, h in res], "0.98..1.02")

print(f"== 3. CPU-bound ~20 ms, {runs} runs each (+1 warm-up); chrono / hyperfine, statistic for statistic")
res = abba(CPU, runs, 1)
for i, (c, h) in enumerate(res):
    print(f"  round {i + 1:2d}: chrono mean {ms(statistics.fmean(c))} median {ms(statistics.median(c))}  "
          f"hyperfine mean {ms(statistics.fmean(h))} median {ms(statistics.median(h))}")
for name, f in STATS.items():
    target = "0.98..1.02" if name in ("mean", "median", "min") else "information"
    spread(f"cpu ~20ms: {name} ratio", [f(c) / f(h) for c, h in res], target)

print("== 4. own CPU time per process started (excluding the children's), -N true, 50 and 1050 runs")
def own(tool, n):
    """CPU time of the tool and everything it waited for (RUSAGE_CHILDREN of
    this driver) minus its children's CPU times from its export."""
    f = os.path.join(tmp, "own.json")
    if tool == "chrono":
        argv = [C, "run", "-N", "--runs", str(n), "--style", "none", "--export-hyperfine-json", f, "true"]
    else:
        argv = ["hyperfine", "-N", "--runs", str(n), "--style", "none", "--export-json", f, "true"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=DEVNULL, stderr=DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    tot = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    r = json.load(open(f))["results"][0]
    # chrono also starts its overhead runs (`true`, at most one every other
    # run): counted as processes, their CPU time is the same as a run's.
    procs = n + (min(500, 10 + n // 2) if tool == "chrono" else 0)
    return tot - procs * (r["user"] + r["system"]), procs
for tool in ("chrono", "hyperfine"):
    (o1, p1), (o2, p2) = own(tool, 50), own(tool, 1050)
    per = (o2 - o1) / (p2 - p1)
    line = f"{tool}: own CPU {per * 1e6:.0f} µs per process started, {(o1 - per * p1) * 1e3:.1f} ms fixed"
    summary.append(line)
    print("  " + line)

print(f"== summary (load at the end {load()})")
for line in summary:
    print("  " + line)
PY
