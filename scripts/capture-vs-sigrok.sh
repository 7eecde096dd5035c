#!/usr/bin/env bash
# capture-vs-sigrok.sh: reads one large generated VCD with package capture
# and with sigrok-cli (Debian's 0.7.2, libsigrok 0.5.2) side by side and
# prints the time ratios capture / sigrok-cli with their spread over the
# rounds, the edges per second and the peak memory of each. Not a test:
# figures depend on the machine and its load (printed at the start and
# the end); run it on a quiet machine.
#
#   scripts/capture-vs-sigrok.sh [ROUNDS] [MIB]     (defaults: 5 300)
#
# The file: MIB MiB of VCD as sigrok-cli writes one (8 one-bit wires, 1 us
# ticks, a line per tick with changes: BenchmarkReadVCD's generator, run
# from the test binary with -capture.gen-vcd), in a temp dir, removed at
# the end. Three programs read it, each a whole process timed by
# /usr/bin/time (wall seconds and max RSS), output discarded:
#
#   read     capture.test -test.bench BenchmarkReadVCD -test.benchtime 1x
#            (Open, then Next to io.EOF: every change)
#   analyze  the same with BenchmarkAnalyzeVCD (Analyze of all 8 channels:
#            what `chrono pulses` will do; it keeps every width)
#   sigrok   sigrok-cli -I vcd -i FILE -O csv > /dev/null, the anchor
#            (it also expands the changes into one CSV row per tick)
#
# Every round runs the three once, in ABBA order (read, analyze, sigrok in
# odd rounds; sigrok, analyze, read in even ones), so that a drift of the
# machine hits them alike; a ratio is computed per round, and the summary
# gives the min, median and max over the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
MIB=${2:-300}
command -v sigrok-cli >/dev/null || { echo "sigrok-cli not found: apt-get install sigrok-cli" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found: apt-get install time" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 not found: apt-get install python3" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "load at start: $(uptime)"
go test -c -o "$tmp/capture.test" ./capture
edges=$("$tmp/capture.test" -capture.gen-vcd "$tmp/bench.vcd" -capture.gen-mb "$MIB")
size=$(stat -c %s "$tmp/bench.vcd")
echo "file: $size bytes, $edges value changes (edges), $(sigrok-cli --version | head -1)"

# timed NAME CMD...: runs CMD, appends "NAME seconds maxrss-KiB" to $tmp/runs.
timed() {
	local name=$1
	shift
	/usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	echo "$round $name $(cat "$tmp/t")" >>"$tmp/runs"
}
read_() { timed read "$tmp/capture.test" -test.run '^$' -test.bench '^BenchmarkReadVCD$' -test.benchtime 1x -capture.vcd "$tmp/bench.vcd"; }
analyze() { timed analyze "$tmp/capture.test" -test.run '^$' -test.bench '^BenchmarkAnalyzeVCD$' -test.benchtime 1x -capture.vcd "$tmp/bench.vcd"; }
sigrok() { timed sigrok sigrok-cli -I vcd -i "$tmp/bench.vcd" -O csv; }

: >"$tmp/runs"
for round in $(seq 1 "$ROUNDS"); do
	if [ $((round % 2)) -eq 1 ]; then
		read_; analyze; sigrok
	else
		sigrok; analyze; read_
	fi
	echo "round $round: $(grep "^$round " "$tmp/runs" | cut -d' ' -f2- | tr '\n' ';')" >&2
done

python3 - "$tmp/runs" "$edges" "$ROUNDS" <<'EOF'
import statistics, sys
runs, edges, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t, rss = {}, {}
for line in open(runs):
    r, name, sec, kib = line.split()
    t.setdefault(name, {})[int(r)] = float(sec)
    rss.setdefault(name, []).append(int(kib))
def mmm(xs):
    return "min %.3g  median %.3g  max %.3g" % (min(xs), statistics.median(xs), max(xs))
print()
for name in ("read", "analyze", "sigrok"):
    secs = list(t[name].values())
    print("%-8s seconds   %s;  edges/s %s;  max RSS %s MiB" % (
        name, mmm(secs), mmm([edges / s for s in secs]), mmm([k / 1024 for k in rss[name]])))
for name in ("read", "analyze"):
    ratios = [t[name][r] / t["sigrok"][r] for r in range(1, rounds + 1)]
    print("ratio %s / sigrok-cli (time, per round): %s  (%d rounds)" % (name, mmm(ratios), rounds))
EOF
echo "load at end: $(uptime)"
