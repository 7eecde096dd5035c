#!/bin/sh
# bench-vs-testingb.sh: runs four workloads (empty function, ~300 ns sum of
# 1000 uint64, ~10 µs sum of 16000, map lookup) side by side under testing.B
# (b.Loop) and under bench (bench/benchtest.Run), in one session, and prints:
#   agreement  bench median ns/op / testing.B median ns/op over N processes each, run
#              interleaved in one session in alternating order (goal: within 3 %); the
#              loop bodies are the same source and compile to the same machine code
#              (b.Keep and testing.B.Loop's keep-alive are both one store)
#   precision  run-to-run CV of bench over N separate processes vs testing.B's CV over -count N
#              (each run gets the same -benchtime; goal: bench's CV <= half of testing.B's)
#   overhead   bench's empty-loop ns per iteration (goal: < 1 ns) and the latency mode's read overhead
# Usage: scripts/bench-vs-testingb.sh [count] [benchtime]   (defaults: 10 500ms)
set -eu
count=${1:-10}
bt=${2:-500ms}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/vs.test" ./bench/internal/vs

echo "== $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), count $count, benchtime $bt"
# Same session, interleaved: each repetition runs one testing.B process and
# one bench process, in alternating order (ABBA), so that drift of the
# machine hits both alike. Both processes get the same -benchtime per
# workload; their wall times are recorded and printed to show that each
# tool got about the same total time.
now() { date +%s%N; }
run() { # run TOOL: one process of BenchmarkTOOL, appended to $tmp/TOOL.txt, its ns to $tmp/TOOL.ns
	t0=$(now)
	"$tmp/vs.test" -test.run='^$' -test.bench="^Benchmark$1\$" -test.benchtime="$bt" -test.count=1 >>"$tmp/$1.txt"
	echo $(($(now) - t0)) >>"$tmp/$1.ns"
}
i=0
while [ "$i" -lt "$count" ]; do
	if [ $((i % 2)) -eq 0 ]; then run TB; run Bench; else run Bench; run TB; fi
	i=$((i + 1))
done
# testing.B's own -count (one process) for its run-to-run CV.
"$tmp/vs.test" -test.run='^$' -test.bench='^BenchmarkTB$' -test.benchtime="$bt" -test.count="$count" >"$tmp/tbcount.txt"
"$tmp/vs.test" -test.run='^$' -test.bench='^BenchmarkOverhead$' -test.count=1 >"$tmp/over.txt"

# stats NAME-PREFIX FILE: prints "workload median cv%" of ns/op per workload.
stats() {
	awk -v pre="$1" '$1 ~ "^"pre"/" && $4 == "ns/op" {
		split($1, p, "/"); w = p[2]; sub(/-[0-9]+$/, "", w)
		n[w]++; v[w, n[w]] = $3
	}
	END {
		for (w in n) {
			m = n[w]
			for (i = 1; i <= m; i++) a[i] = v[w, i]
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
			s = 0; for (i = 1; i <= m; i++) s += a[i]; mean = s / m
			ss = 0; for (i = 1; i <= m; i++) ss += (a[i] - mean) ^ 2
			cv = (m > 1) ? 100 * sqrt(ss / (m - 1)) / mean : 0
			printf "%s %.4f %.3f\n", w, med, cv
		}
	}' "$2" | sort
}
stats BenchmarkTB "$tmp/TB.txt" >"$tmp/tb.s"
stats BenchmarkBench "$tmp/Bench.txt" >"$tmp/bench.s"
stats BenchmarkTB "$tmp/tbcount.txt" >"$tmp/tbcount.s"

awk '{ s += $1 } END { printf "== time per process (4 workloads): testing.B %.2f s", s / NR / 1e9 }' "$tmp/TB.ns"
awk '{ s += $1 } END { printf ", bench %.2f s (mean of %d processes each)\n", s / NR / 1e9, NR }' "$tmp/Bench.ns"
echo "== agreement (median ns/op over $count runs, interleaved in one session)"
printf '%-8s %12s %12s %8s\n' workload testing.B bench ratio
join "$tmp/tb.s" "$tmp/bench.s" | awk '{ printf "%-8s %12.3f %12.3f %8.4f %s\n", $1, $2, $4, $4 / $2, (($4/$2 > 1.03 || $4/$2 < 0.97) ? "OUTSIDE 3%" : "ok") }'
echo "== precision (run-to-run CV of the reported ns/op)"
printf '%-8s %16s %16s %16s %8s\n' workload "tb -count CV%" "tb procs CV%" "bench procs CV%" ratio
join "$tmp/tbcount.s" "$tmp/tb.s" | join - "$tmp/bench.s" | awk '{ r = ($3 > 0) ? $7 / $3 : 0; printf "%-8s %16.2f %16.2f %16.2f %8.2f %s\n", $1, $3, $5, $7, r, (r <= 0.5 ? "ok" : "NOT <= 0.5") }'
echo "== overhead"
grep "^BenchmarkOverhead" "$tmp/over.txt" | awk '{ for (i = 5; i < NF; i += 2) printf "  %-18s %s\n", $(i+1), $i }'
