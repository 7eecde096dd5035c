#!/usr/bin/env bash
# run-interrupt.sh: how soon `chrono run` honours SIGTERM, measured from
# outside (issue 20: a 100,000-value scan still used 60 % of a CPU 15 s
# after SIGTERM). Not a test: the figures depend on the machine and its
# load (printed at both ends). For each scenario, ROUNDS times: start
# chrono, send SIGTERM after a delay that moves through the benchmark
# (DELAY * (1 + round/ROUNDS), so the signal lands at different points),
# and measure
#   stop: signal -> the end of the benchmark's runs (the export's "end",
#         stamped when the loop of runs returns; wall clock, so the clock
#         of chrono and of this script): how soon the measuring stops;
#   exit: signal -> chrono has exited (the final document and exports
#         written, or killed by the default action when the signal comes
#         after the benchmark, during its final write);
#   cpu:  chrono's user + system CPU seconds after the signal;
# and checks the --export-json file: valid JSON, incomplete and
# interrupted when exit code 143 came from chrono's handler. Per scenario:
# min / median / max of each figure over the rounds.
#
#   scripts/run-interrupt.sh [ROUNDS] [DELAY]     (defaults: 5 1.0)
#
# Scenarios, each with and without --export-json (without it there is
# no "stop" figure): one long command (sleep 30); real runs of `true`
# (-N) in a 100,000-value scan (the signal lands in its first round of
# runs); the same scan signalled after DELAY/20 (while its commands are
# built or the environment captured: nothing measured, no export); one
# command of 100,000 runs; a --debug-mode scan of 100,000 values (runs
# nothing: the signal lands in its runs, the interim export or the final
# write); and, with the export, the scan with a second SIGTERM 20 ms
# after the first (it ends chrono at once, during the write).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
DELAY=${2:-1.0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/chrono" ./cmd/chrono
python3 - "$tmp" "$ROUNDS" "$DELAY" <<'EOF'
import json, os, signal, statistics, subprocess, sys, time
tmp, rounds, delay = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
chrono = os.path.join(tmp, "chrono")
hz = os.sysconf("SC_CLK_TCK")

def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])

def wall_of(stamp):
    """Seconds since the epoch of an RFC 3339 stamp with nanoseconds."""
    from datetime import datetime
    day, frac = stamp.rstrip("Z").split(".") if "." in stamp else (stamp.rstrip("Z"), "0")
    return datetime.fromisoformat(day + "+00:00").timestamp() + float("0." + frac)

scan = ["run", "-N", "--runs", "2", "-P", "x", "1", "100000", "true"]
# name, arguments, second signal after (s), delay factor, with --export-json
scenarios = []
for export in (True, False):
    scenarios += [
        ("one long command (sleep 30, 1 run)", ["run", "-N", "--runs", "1", "sleep 30"], 0, 1, export),
        ("scan of 100,000 values, -N true, 2 runs", scan, 0, 1, export),
        ("scan of 100,000 values, signal while the commands are built", scan, 0, 0.05, export),
        ("one command, 100,000 runs of -N true", ["run", "-N", "--runs", "100000", "true"], 0, 1, export),
        ("--debug-mode scan of 100,000 values", ["run", "--debug-mode", "--runs", "2", "-P", "x", "1", "100000", "sleep 0.001"], 0, 1, export),
    ]
scenarios.append(("scan of 100,000 values, second SIGTERM after 20 ms", scan, 0.020, 1, True))
print(f"== {os.cpu_count()} CPUs, load {load()}, {rounds} rounds, signal after {delay:g}..{2*delay:g} s")
for name, args, second, factor, export in scenarios:
    stops, exits, cpus, notes = [], [], [], []
    for r in range(rounds):
        out = os.path.join(tmp, "out.json")
        if os.path.exists(out):
            os.remove(out)
        p = subprocess.Popen([chrono] + args + ["--style", "none"] + (["--export-json", out] if export else []),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(factor * delay * (1 + r / rounds))
        with open(f"/proc/{p.pid}/stat") as f:
            st = f.read().rsplit(")", 1)[1].split()
        cpu0 = (int(st[11]) + int(st[12])) / hz
        t0, w0 = time.monotonic(), time.time()
        p.send_signal(signal.SIGTERM)
        if second:
            time.sleep(second)
            p.send_signal(signal.SIGTERM)
        cpu1 = cpu0
        while True:
            try:
                with open(f"/proc/{p.pid}/stat") as f:
                    st = f.read().rsplit(")", 1)[1].split()
            except OSError:
                break
            if st[0] in "ZX":
                break
            cpu1 = (int(st[11]) + int(st[12])) / hz
            time.sleep(0.001)
        t1 = time.monotonic()
        rc = p.wait()
        exits.append(t1 - t0)
        cpus.append(max(0.0, cpu1 - cpu0))
        if not export:
            notes.append(f"rc {rc}")
            continue
        try:
            d = json.load(open(out))
            stops.append(wall_of(d["end"]) - w0)
            runs = sum(len(m.get("values", [])) for ms in d.get("measurements", []) for m in ms.get("metrics", []) if m.get("name") == "wall")
            notes.append(f"rc {rc}, export: incomplete {d.get('incomplete', False)}, {len(d.get('measurements', []))} commands, {runs} runs")
        except (OSError, ValueError) as e:
            notes.append(f"rc {rc}, no valid export ({type(e).__name__})")
    fmt = lambda xs, u=1e3: f"{min(xs)*u:.0f} / {statistics.median(xs)*u:.0f} / {max(xs)*u:.0f}"
    print(f"-- {name}, {'with' if export else 'without'} --export-json")
    print(f"   stop (ms, min/median/max): {fmt(stops) if stops else 'no export'}   (negative: the runs had ended before the signal)")
    print(f"   exit (ms, min/median/max): {fmt(exits)}")
    print(f"   CPU after the signal (ms, min/median/max): {fmt(cpus)}   (clock ticks of {1000/hz:.0f} ms; the last read before the exit)")
    for n in notes:
        print(f"   {n}")
print(f"== load at the end {load()}")
EOF
