#!/usr/bin/env bash
# clocks-vs-c.sh: the read cost of package clock's readers next to C's
# clock_gettime (glibc, through the vDSO) for the same clocks, on the same
# CPU, in ABBA order.
#
#   scripts/clocks-vs-c.sh [ROUNDS] [READS]
#
#   ROUNDS  ABBA rounds (default 5): each round runs C, Go, Go, C (odd rounds)
#           or Go, C, C, Go (even rounds); a round's ratio per clock is the
#           mean of its two Go runs over the mean of its two C runs.
#   READS   reads per clock per run (default 2000000).
#   CPU=N   the CPU both programs are pinned to (default: the first allowed).
#
# C: a program compiled here with gcc -O2 times READS calls of clock_gettime
# per clock (one CLOCK_MONOTONIC read before and after the loop). Go:
# `go test -bench` runs the clock package's benchmarks of the readers
# (BenchmarkReaders, BenchmarkThreadCPU, BenchmarkProcessCPU, BenchmarkCPU)
# with -benchtime READSx. getcpu compares clock.CPU with glibc's
# sched_getcpu. The CPU-time clocks are system calls in both (the vDSO
# makes the system call for them). Prints per round, then per clock the
# ratio ours/C as min / median / max over the rounds, and the median ns.
set -euo pipefail
rounds=${1:-5}
reads=${2:-2000000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpu=${CPU:-$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')}
pin=(taskset -c "$cpu")

cat >"$work/clocks.c" <<'EOF'
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
	long n = atol(argv[1]);
	struct { const char *name; clockid_t id; } c[] = {
		{"REALTIME", CLOCK_REALTIME}, {"REALTIME_COARSE", CLOCK_REALTIME_COARSE},
		{"MONOTONIC", CLOCK_MONOTONIC}, {"MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE},
		{"MONOTONIC_RAW", CLOCK_MONOTONIC_RAW}, {"BOOTTIME", CLOCK_BOOTTIME}, {"TAI", CLOCK_TAI},
		{"PROCESS_CPUTIME_ID", CLOCK_PROCESS_CPUTIME_ID}, {"THREAD_CPUTIME_ID", CLOCK_THREAD_CPUTIME_ID},
	};
	struct timespec ts;
	volatile long sink = 0;
	for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
		long m = c[i].id == CLOCK_PROCESS_CPUTIME_ID || c[i].id == CLOCK_THREAD_CPUTIME_ID ? n / 20 : n;
		for (long k = 0; k < 10000; k++) clock_gettime(c[i].id, &ts);
		double t0 = now();
		for (long k = 0; k < m; k++) {
			clock_gettime(c[i].id, &ts);
			sink += ts.tv_nsec;
		}
		printf("%s %.3f\n", c[i].name, (now() - t0) / m);
	}
	double t0 = now();
	for (long k = 0; k < n; k++) sink += sched_getcpu();
	printf("getcpu %.3f\n", (now() - t0) / n);
	return 0;
}
EOF
gcc -O2 -o "$work/clocks" "$work/clocks.c"
(cd "$root" && go test -c -o "$work/clock.test" ./clock)

runC() { "${pin[@]}" "$work/clocks" "$reads"; }
runGo() {
	# The CPU-time clocks are 20x dearer: fewer reads, as in C.
	"${pin[@]}" "$work/clock.test" -test.run '^$' -test.cpu 1 -test.bench '^BenchmarkReaders$|^BenchmarkCPU$' \
		-test.benchtime "${reads}x" | awk '/^Benchmark/ {print $1, $3}'
	"${pin[@]}" "$work/clock.test" -test.run '^$' -test.cpu 1 -test.bench '^Benchmark(Thread|Process)CPU$' \
		-test.benchtime "$((reads / 20))x" | awk '/^Benchmark/ {print $1, $3}'
}

echo "clocks-vs-c: $rounds ABBA rounds, $reads reads per clock per run, pinned to CPU $cpu; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then order=(C Go Go C); else order=(Go C C Go); fi
	i=0
	for who in "${order[@]}"; do
		i=$((i + 1))
		if [[ $who == C ]]; then runC; else runGo; fi | sed "s/^/$r $who $i /"
	done
done >"$work/raw.txt"

python3 - "$work/raw.txt" <<'EOF'
import collections, statistics, sys

# Go benchmark names to the C program's clock names.
names = {
    "BenchmarkReaders/Realtime": "REALTIME", "BenchmarkReaders/RealtimeCoarse": "REALTIME_COARSE",
    "BenchmarkReaders/Monotonic": "MONOTONIC", "BenchmarkReaders/MonotonicCoarse": "MONOTONIC_COARSE",
    "BenchmarkReaders/MonotonicRaw": "MONOTONIC_RAW", "BenchmarkReaders/Boottime": "BOOTTIME",
    "BenchmarkReaders/TAI": "TAI", "BenchmarkProcessCPU": "PROCESS_CPUTIME_ID",
    "BenchmarkThreadCPU": "THREAD_CPUTIME_ID", "BenchmarkCPU": "getcpu",
}
order = list(names.values())
runs = collections.defaultdict(list)  # (round, who, clock) -> [ns]
for line in open(sys.argv[1]):
    rnd, who, _, name, ns = line.split()
    clock = names.get(name, name) if who == "Go" else name
    runs[(int(rnd), who, clock)].append(float(ns))
rounds = sorted({k[0] for k in runs})
ratio = collections.defaultdict(list)
cns, gons = collections.defaultdict(list), collections.defaultdict(list)
print("\nper round, ours/C (mean of the two runs of each):")
print("round " + " ".join(f"{c[:10]:>10}" for c in order))
for r in rounds:
    row = []
    for c in order:
        a, b = runs.get((r, "C", c)), runs.get((r, "Go", c))
        if not a or not b:
            row.append(f"{'-':>10}")
            continue
        q = statistics.mean(b) / statistics.mean(a)
        ratio[c].append(q)
        cns[c].append(statistics.mean(a))
        gons[c].append(statistics.mean(b))
        row.append(f"{q:10.3f}")
    print(f"{r:5} " + " ".join(row))
print(f"\nsummary over {len(rounds)} rounds (ratio = ours/C; 1.3 is the target's limit):")
print(f"{'clock':<20} {'C ns':>8} {'ours ns':>8} {'min':>7} {'median':>7} {'max':>7}")
for c in order:
    q = ratio[c]
    if not q:
        print(f"{c:<20} not measured")
        continue
    print(f"{c:<20} {statistics.median(cns[c]):8.2f} {statistics.median(gons[c]):8.2f} "
          f"{min(q):7.3f} {statistics.median(q):7.3f} {max(q):7.3f}")
EOF
