#!/usr/bin/env bash
# run-vs-hyperfine.sh: benchmarks `chrono run` side by side with hyperfine
# (Debian's package) and prints ratios. Not a test: figures depend on the
# machine and its load; run it on a quiet machine.
#
#   scripts/run-vs-hyperfine.sh [ROUNDS]
#
# 1. Per-run overhead: median of `chrono run -N --runs 200 true` vs that of
#    `hyperfine -N --runs 200 true` (target: ratio <= 1.05). The two tools
#    alternate, ROUNDS times each (default 3), in one session.
# 2. Agreement: `sleep 0.05` and a ~20 ms CPU-bound command: chrono's median
#    vs hyperfine's mean (target: within 2 %).
# 3. chrono's own CPU use: the CPU time of chrono and everything it waited
#    for (RUSAGE_CHILDREN of a python3 parent) minus its children's own
#    CPU times (from chrono's per-run rusage in the JSON export), per run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
command -v hyperfine >/dev/null || { echo "hyperfine not found: apt-get install hyperfine" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/chrono" ./cmd/chrono
C="$tmp/chrono"

# CPU-bound command of ~20 ms: a busy loop in the shell, calibrated on the
# fastest of 5 tries (the machine may be loaded).
cal() { # n -> fastest ms of 5 runs
  local best=999999 s e ms
  for _ in 1 2 3 4 5; do
    s=$(date +%s%N); sh -c "i=0; while [ \$i -lt $1 ]; do i=\$((i+1)); done"; e=$(date +%s%N)
    ms=$(( (e - s) / 1000000 )); [ "$ms" -lt "$best" ] && best=$ms
  done
  echo "$best"
}
n=20000
ms=$(cal $n)
n=$(( n * 20 / (ms > 0 ? ms : 1) ))
echo "calibrated busy loop: $n iterations (~$(cal $n) ms at best)"
CPU="i=0; while [ \$i -lt $n ]; do i=\$((i+1)); done"

# median/mean in ns from either tool's JSON export
stat() { python3 - "$@" <<'PY'
import json, sys, statistics
path, tool, what = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(path))
if tool == "hyperfine":
    r = d["results"][0]
    print(r[what] * 1e9)
else:
    m = d["measurements"][0]["metrics"]
    w = next(x for x in m if x["name"] == "wall")
    print(statistics.median(w["values"]) if what == "median" else statistics.mean(w["values"]))
PY
}

ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{a/b:.3f}')" "$1" "$2"; }
fmt() { python3 -c "import sys; v=float(sys.argv[1]); print(f'{v/1e6:.3f} ms')" "$1"; }

echo "== 1. per-run overhead: -N --runs 200 true (medians), $ROUNDS alternating rounds"
for r in $(seq "$ROUNDS"); do
  "$C" run -N --runs 200 --style none --export-json "$tmp/c.json" true
  hyperfine -N --runs 200 --style none --export-json "$tmp/h.json" true >/dev/null 2>&1
  cm=$(stat "$tmp/c.json" chrono median); hm=$(stat "$tmp/h.json" hyperfine median)
  echo "  round $r: chrono $(fmt "$cm")  hyperfine $(fmt "$hm")  ratio $(ratio "$cm" "$hm")  (target <= 1.05)"
done

agree() { # name, hyperfine args..., -- chrono args...
  local label=$1; shift
  for r in $(seq "$ROUNDS"); do
    "$C" run --runs 30 --style none --export-json "$tmp/c.json" "$@"
    hyperfine --runs 30 --style none --export-json "$tmp/h.json" "$@" >/dev/null 2>&1
    cm=$(stat "$tmp/c.json" chrono median); hm=$(stat "$tmp/h.json" hyperfine mean)
    echo "  $label round $r: chrono median $(fmt "$cm")  hyperfine mean $(fmt "$hm")  ratio $(ratio "$cm" "$hm")  (target 0.98..1.02)"
  done
}
echo "== 2. agreement (shell, 30 runs each)"
agree "sleep 0.05" "sleep 0.05"
agree "cpu ~20ms " "$CPU"

echo "== 3. chrono's own CPU time per run (excluding its children), -N --runs 500 true"
python3 - "$C" <<'PY'
import os, resource, subprocess, sys
c = sys.argv[1]
import json, tempfile
f = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
before = resource.getrusage(resource.RUSAGE_CHILDREN)
subprocess.run([c, "run", "-N", "--runs", "500", "--style", "none", "--export-json", f, "true"], check=True)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
tot = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
d = json.load(open(f)); os.unlink(f)
m = d["measurements"][0]
ms = {x["name"]: x["values"] for x in m["metrics"]}
kids = (sum(ms["user"]) + sum(ms["sys"])) / 1e9
ov = m["details"]["spawn_overhead"]
nov = ov["runs"]
kids += nov * (ov["user_median_ns"] + ov["sys_median_ns"]) / 1e9
runs = 500 + nov
own = tot - kids
print(f"  total CPU {tot*1e3:.1f} ms for {runs} processes; children {kids*1e3:.1f} ms; "
      f"chrono itself {own*1e3:.1f} ms = {own/runs*1e6:.0f} us per run "
      f"(includes start-up, env capture, statistics and the JSON export)")
PY
