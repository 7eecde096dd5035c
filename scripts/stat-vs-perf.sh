#!/usr/bin/env bash
# stat-vs-perf.sh: counts the software events of the same commands with
# `chrono stat` and with `perf stat` side by side in one session and prints
# chrono/perf ratios. Not a test: figures depend on the machine and its
# load; it prints the load average first. Takes about half a minute with
# the defaults.
#
#   scripts/stat-vs-perf.sh [ROUNDS] [RUNS]     (defaults: 7 30)
#   CHRONO=/path/to/chrono scripts/stat-vs-perf.sh   (another build, e.g. an older one)
#
# Commands: `true` and a ~20 ms CPU-bound program (a compiled C loop,
# calibrated here with perf stat's task-clock). Events: task-clock,
# context-switches, cpu-migrations, page-faults (software events: they work
# in a VM without a PMU). Per command, ROUNDS rounds in ABBA order (chrono
# first in odd rounds, perf first in even ones); per round each tool counts
# RUNS runs: `chrono stat -r RUNS --export-json` (its per-run values), and
# `perf stat -v -r RUNS`, whose -v lines give each run's count. Not
# perf's own -r figure: Debian 12's perf 6.1 prints the LAST run's count
# there, not the mean (checked: runs of 46.1, 1.9 and 1.7 ms of task-clock
# printed as "1.69 msec task-clock ... ( +-873.09% )"), so the script
# takes the mean of the -v counts. One perf invocation per run is no
# substitute: the first run after perf starts takes ~10-20 % more
# task-clock for `true` (cold caches), which -r's later runs do not.
#
# Per event: the medians over the rounds of both tools' means per run, and
# the ratio chrono/perf of each round's means with its min, median and max
# (target: within 0.95..1.05), then the same ratio of the medians of all
# runs pooled. For an event that perf counts less than once per run on
# average (context switches and migrations of `true`), a ratio means
# nothing: the difference chrono - perf of the means per run is printed
# instead (an extra context switch in every run would show as +1).
#
# TRACE=1 adds the cause, measured directly and hardly disturbed by other
# load: each tool counts RUNS runs of both commands under
# `perf record -a -e sched:sched_switch,...` (root or
# kernel.perf_event_paranoid=-1), and for each run of the command, from its
# exec to its exit, the script counts how often a thread of the tool
# preempted it on its CPU and how long the tool's threads ran on that CPU
# (the tool's own work counted in the command's task-clock and
# context-switches), and how long they ran on other CPUs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
RUNS=${2:-30}
command -v perf >/dev/null || { echo "perf not found: apt-get install linux-perf" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 not found: apt-get install python3" >&2; exit 1; }
command -v cc >/dev/null || { echo "cc not found (needed for the CPU-bound command): apt-get install gcc" >&2; exit 1; }
[ "$ROUNDS" -ge 1 ] && [ "$RUNS" -ge 2 ] || { echo "usage: $0 [ROUNDS>=1] [RUNS>=2]" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${CHRONO:-}" ]; then
	cp "$CHRONO" "$tmp/chrono"
else
	go build -o "$tmp/chrono" ./cmd/chrono
fi

# The CPU-bound command: N steps of a chain of dependent multiply-adds in a
# register (the empty asm keeps the compiler from removing or folding it).
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
import json, os, re, statistics, subprocess, sys

tmp, rounds, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
C, BUSY = os.path.join(tmp, "chrono"), os.path.join(tmp, "busy")
EVENTS = ["task-clock", "context-switches", "cpu-migrations", "page-faults"]

def perf(argv, events=EVENTS, n=runs):
    """perf stat -v -r n: {event: [count per run]} from the -v lines
    ("task-clock: VAL ENABLED RUNNING", task-clock in ns), scaled by
    enabled/running as perf scales."""
    p = subprocess.run(["perf", "stat", "-v", "-r", str(n), "-e", ",".join(events), "--"] + argv,
                       capture_output=True, text=True)
    out = {e: [] for e in events}
    for line in p.stderr.splitlines():
        name, _, rest = line.partition(": ")
        f = rest.split()
        if name in out and len(f) == 3 and all(x.isdigit() for x in f):
            val, ena, run = map(int, f)
            if run == 0:
                sys.exit(f"perf did not count {name} in a run:\n{p.stderr}")
            out[name].append(val * ena / run)
    bad = [e for e in events if len(out[e]) != int(n)]
    if p.returncode != 0 or bad:
        sys.exit(f"perf stat -v -r {n} gave no per-run count for {bad} (exit {p.returncode}):\n{p.stderr}")
    return out

def chrono(argv):
    """chrono stat -r runs: {event: [value per run]} from its JSON."""
    f = os.path.join(tmp, "c.json")
    p = subprocess.run([C, "stat", "-r", runs, "-e", ",".join(EVENTS), "--export-json", f, "--"] + argv,
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"chrono stat exited {p.returncode}:\n{p.stderr}")
    m = json.load(open(f))["measurements"][0]
    out = {x["name"]: x["values"] for x in m["metrics"]}
    missing = [e for e in EVENTS if e not in out]
    if missing:
        events = m.get("detail", {}).get("counters", {}).get("events", [])
        sys.exit(f"chrono stat did not count {missing}: {[e for e in events if e['name'] in missing]}")
    return out

def mean(xs): return statistics.fmean(xs)
def med(xs): return statistics.median(xs)

with open("/proc/loadavg") as f:
    load = " ".join(f.read().split()[:3])
try:
    cs = open("/sys/devices/system/clocksource/clocksource0/current_clocksource").read().strip()
except OSError:
    cs = "?"
pv = subprocess.run(["perf", "--version"], capture_output=True, text=True).stdout.strip()
print(f"== {os.cpu_count()} CPUs, load {load}, kernel {os.uname().release}, clocksource {cs}, {pv}")

# Calibrate the busy loop to ~20 ms of task-clock.
n = 10_000_000
for _ in range(3):
    tc = statistics.median(perf([BUSY, str(n)], ["task-clock"], 5)["task-clock"])
    n = max(1, int(n * 20e6 / tc))
print(f"CPU-bound command: busy loop of {n} iterations (~20 ms of task-clock)")
print(f"{rounds} rounds ABBA per command, {runs} runs per tool and round; per event the medians of the "
      "rounds' means, chrono/perf of each round's means (target 0.95..1.05), and of the pooled medians")

for label, argv in (("true", ["true"]), ("busy ~20 ms", [BUSY, str(n)])):
    res = []  # per round: (chrono values, perf values) by event
    for r in range(rounds):
        if r % 2 == 0:
            c = chrono(argv); p = perf(argv)
        else:
            p = perf(argv); c = chrono(argv)
        res.append((c, p))
    print(f"== {label}")
    print(f"  {'event':17s} {'chrono':>12s} {'perf':>12s}   chrono/perf: min    median max      pooled medians")
    for ev in EVENTS:
        cm = [mean(c[ev]) for c, _ in res]; pm = [mean(p[ev]) for _, p in res]
        unit, scale = (" µs", 1e-3) if ev == "task-clock" else ("", 1)
        line = f"  {ev:17s} {med(cm) * scale:10.2f}{unit:3s}{med(pm) * scale:10.2f}{unit:3s}"
        if med(pm) >= 1 and min(pm) > 0:
            q = [a / b for a, b in zip(cm, pm)]
            line += f"   ratio        {min(q):6.3f} {med(q):6.3f} {max(q):6.3f}"
            pc = med([x for c, _ in res for x in c[ev]]); pp = med([x for _, p in res for x in p[ev]])
            line += f"   {pc / pp:6.3f}" if pp > 0 else "   -"
        else:
            d = [a - b for a, b in zip(cm, pm)]
            line += f"   diff per run {min(d):+6.2f} {med(d):+6.2f} {max(d):+6.2f}  (perf < 1 per run: no ratio)"
        print(line)

def trace(tool, argv):
    """Runs tool (chrono stat or perf stat, -r runs) under perf record of
    the scheduler's tracepoints; per run of argv: preemptions by the
    tool's threads, and their run time on the child's CPU and elsewhere."""
    data = os.path.join(tmp, "sched.data")
    cmd = ([C, "stat", "-r", runs, "-e", "task-clock"] if tool == "chrono"
           else ["perf", "stat", "-r", runs, "-e", "task-clock"]) + ["--"] + argv
    rec = subprocess.run(["perf", "record", "-q", "-a", "-o", data, "-e",
                          "sched:sched_switch,sched:sched_process_exec,sched:sched_process_exit", "--"] + cmd,
                         capture_output=True, text=True)
    if rec.returncode != 0:
        sys.exit(f"perf record failed (needs root or kernel.perf_event_paranoid=-1):\n{rec.stderr}")
    out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,cpu,time,event,trace"],
                         capture_output=True, text=True).stdout
    child = os.path.basename(argv[0])
    tool_pid = None          # the tool: the first process to exec in the trace
    threads = set()          # its threads, as seen switching out
    alive = {}               # child pid -> cpu it last ran on
    last = {}                # cpu -> time of its last switch
    pre = same = other = 0.0
    n = 0
    line_re = re.compile(r"^\s*(.*?)\s+(\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+)\s*(.*)$")
    for line in out.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        comm, pid, tid, cpu, t, ev, rest = m.groups()
        pid, tid, cpu, t = int(pid), int(tid), int(cpu), float(t)
        if ev == "sched:sched_process_exec:" and tool_pid is None:
            tool_pid = pid
            continue
        if ev == "sched:sched_process_exec:" and comm == child:
            alive[tid] = cpu
            n += 1
        elif ev == "sched:sched_process_exit:" and tid in alive:
            del alive[tid]
        elif ev == "sched:sched_switch:":
            if pid == tool_pid:
                threads.add(tid)
            kv = dict(x.split("=", 1) for x in rest.split() if "=" in x)
            prev, nxt = int(kv["prev_pid"]), int(kv["next_pid"])
            if prev in threads and cpu in last:
                for c, ccpu in alive.items():
                    if ccpu == cpu:
                        same += t - last[cpu]
                    else:
                        other += t - last[cpu]
            if prev in alive and kv["prev_state"].startswith("R") and nxt in threads:
                pre += 1
            for pid in (prev, nxt):
                if pid in alive:
                    alive[pid] = cpu
            last[cpu] = t
    if n == 0:
        sys.exit(f"no run of {child} seen in the trace of {tool}")
    return pre / n, same / n * 1e6, other / n * 1e6, n

if os.environ.get("TRACE") == "1":
    print("== TRACE: the tool's own threads while the command runs (per run, from exec to exit)")
    print(f"  {'command':12s} {'tool':7s} {'preempts it':>12s} {'on its CPU':>12s} {'on other CPUs':>14s}")
    for label, argv in (("true", ["true"]), ("busy ~20 ms", [BUSY, str(n)])):
        for tool in ("chrono", "perf"):
            p, same, other, k = trace(tool, argv)
            print(f"  {label:12s} {tool:7s} {p:12.2f} {same:9.1f} µs {other:11.1f} µs   ({k} runs)")
with open("/proc/loadavg") as f:
    print("== load at the end " + " ".join(f.read().split()[:3]))
PY
