#!/usr/bin/env bash
# run-vs-hyperfine.sh: benchmarks `chrono run` side by side with hyperfine
# (Debian's package) in one session and prints ratios. Not a test: figures
# depend on the machine and its load; run it on a quiet machine (it prints
# the load average first). Takes about a minute.
#
#   scripts/run-vs-hyperfine.sh [ROUNDS] [BLOCKS]     (defaults: 10 40)
#
# Like for like: both tools run the same commands directly (-N, no shell,
# so neither measures nor subtracts a shell), with their stdout and stderr
# discarded, and the figures are each tool's own export (JSON).
#
# 1. Per-run overhead: `chrono run -N --runs 200 true` against
#    `hyperfine -N --runs 200 true`, ROUNDS rounds in ABBA order (chrono
#    first in odd rounds, hyperfine first in even ones). Per round the ratio
#    of medians, then the ratio of the medians of all runs pooled
#    (target: <= 1.05).
# 2. Agreement: `sleep 0.05` and a ~20 ms CPU-bound command (a compiled C
#    busy loop, calibrated here; a shell loop drifted by 10-20 % between
#    blocks), interleaved at a fine grain: BLOCKS blocks of 5 runs (after 1
#    warm-up run) per tool, alternating ABBA, so that drift of the machine
#    hits both tools alike. Compared: chrono's median of all its runs pooled
#    vs hyperfine's mean of all its runs pooled (target: 0.98..1.02); the
#    other two figures are printed too.
# 3. Own CPU time per process started, not the children's, for chrono and
#    for hyperfine: the CPU time of the tool and everything it waited for
#    (RUSAGE_CHILDREN of the python3 driver) minus its children's CPU times
#    (from each tool's JSON export), for 50 and for 1050 runs of `true`; the
#    difference per process is the cost between runs (the rest is start-up,
#    statistics and export). chrono's own report (RUSAGE_SELF over the
#    runs, in its JSON export) is printed beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-10}
BLOCKS=${2:-40}
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

python3 - "$tmp" "$ROUNDS" "$BLOCKS" <<'PY'
import json, os, resource, statistics, subprocess, sys, time

tmp, rounds, blocks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
C, BUSY = os.path.join(tmp, "chrono"), os.path.join(tmp, "busy")
DEVNULL = subprocess.DEVNULL

def chrono(cmd, runs, warmup=0):
    f = os.path.join(tmp, "c.json")
    subprocess.run([C, "run", "-N", "--runs", str(runs), "--warmup", str(warmup),
                    "--style", "none", "--export-json", f, cmd], check=True, stdout=DEVNULL)
    m = json.load(open(f))["measurements"][0]
    return next(x for x in m["metrics"] if x["name"] == "wall")["values"]  # ns

def hyperfine(cmd, runs, warmup=0):
    f = os.path.join(tmp, "h.json")
    subprocess.run(["hyperfine", "-N", "--runs", str(runs), "--warmup", str(warmup),
                    "--style", "none", "--export-json", f, cmd], check=True, stdout=DEVNULL, stderr=DEVNULL)
    return [t * 1e9 for t in json.load(open(f))["results"][0]["times"]]

def ms(ns): return f"{ns / 1e6:.3f} ms"
def med(xs): return statistics.median(xs)
def mean(xs): return statistics.fmean(xs)

def interleave(cmd, n, runs, warmup):
    """n rounds, ABBA; returns per-round (chrono, hyperfine) samples."""
    out = []
    for r in range(n):
        if r % 2 == 0:
            c = chrono(cmd, runs, warmup); h = hyperfine(cmd, runs, warmup)
        else:
            h = hyperfine(cmd, runs, warmup); c = chrono(cmd, runs, warmup)
        out.append((c, h))
    return out

with open("/proc/loadavg") as f:
    load = " ".join(f.read().split()[:3])
print(f"== {os.cpu_count()} CPUs, load {load}, hyperfine "
      + subprocess.run(["hyperfine", "--version"], capture_output=True, text=True).stdout.split()[-1])

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

print(f"== 1. per-run overhead: -N --runs 200 true, {rounds} rounds ABBA (medians; target <= 1.05)")
res = interleave("true", rounds, 200, 0)
ratios = [med(c) / med(h) for c, h in res]
for i, (c, h) in enumerate(res):
    print(f"  round {i + 1:2d}: chrono {ms(med(c))}  hyperfine {ms(med(h))}  ratio {ratios[i]:.3f}")
allc = [x for c, _ in res for x in c]; allh = [x for _, h in res for x in h]
print(f"  pooled ({len(allc)} runs each): chrono median {ms(med(allc))}  hyperfine median {ms(med(allh))}  "
      f"ratio {med(allc) / med(allh):.3f}; median of round ratios {med(ratios):.3f}")

print(f"== 2. agreement: {blocks} blocks ABBA of 5 runs (+1 warm-up) per tool; "
      "chrono median / hyperfine mean (target 0.98..1.02)")
for label, cmd in (("sleep 0.05", "sleep 0.05"), ("cpu ~20ms ", CPU)):
    res = interleave(cmd, blocks, 5, 1)
    allc = [x for c, _ in res for x in c]; allh = [x for _, h in res for x in h]
    print(f"  {label}: chrono median {ms(med(allc))} (mean {ms(mean(allc))})  "
          f"hyperfine mean {ms(mean(allh))} (median {ms(med(allh))})  "
          f"ratio {med(allc) / mean(allh):.4f}  (medians {med(allc) / med(allh):.4f})")

print("== 3. own CPU time per process started (excluding the children's), -N true, 50 and 1050 runs")
def own(tool, runs):
    """CPU time of the tool and everything it waited for (RUSAGE_CHILDREN of
    this driver) minus its children's CPU times from its JSON export."""
    f = os.path.join(tmp, "own.json")
    if tool == "chrono":
        argv = [C, "run", "-N", "--runs", str(runs), "--style", "none", "--export-json", f, "true"]
    else:
        argv = ["hyperfine", "-N", "--runs", str(runs), "--style", "none", "--export-json", f, "true"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=DEVNULL, stderr=DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    tot = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    d = json.load(open(f))
    if tool == "chrono":
        m, run = d["measurements"][0], d["run"]["command"]
        v = {x["name"]: x["values"] for x in m["metrics"]}
        kids = (sum(v["user"]) + sum(v["sys"])) / 1e9
        ov = {x["name"]: x["values"] for x in run["overhead"]["metrics"]}
        kids += (sum(ov["user"]) + sum(ov["sys"])) / 1e9
        own = run["own_cpu"]
        procs, selfrep = runs + len(ov["wall"]), own["ns"] / own["processes"]
    else:
        r = d["results"][0]
        kids, procs, selfrep = runs * (r["user"] + r["system"]), runs, None
    return tot - kids, procs, selfrep
for tool in ("chrono", "hyperfine"):
    (o1, p1, _), (o2, p2, rep) = own(tool, 50), own(tool, 1050)
    per = (o2 - o1) / (p2 - p1)
    line = (f"  {tool:9s}: {per * 1e6:4.0f} µs per process between the runs (difference of 1050 and 50 runs), "
            f"{(o1 - per * p1) * 1e3:5.1f} ms fixed (start-up, statistics, export)")
    if rep is not None:
        line += f"; chrono's own report (RUSAGE_SELF over the runs): {rep / 1e3:.0f} µs per process"
    print(line)
print("  (children's CPU times come from per-process rusage)")
PY
