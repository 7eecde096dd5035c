#!/bin/sh
# report-html-bench.sh: how long the HTML report of a document of
# 1,000,000 samples takes to render, and how large the page is
# (BenchmarkHTMLMillion), against an anchor measured in the same run:
# sorting the million samples once (BenchmarkSortMillion). The goal is
# under 2 s and under 5 MB. Rounds alternate the two benchmarks (ABBA);
# the summary gives min/median/max of each and of their ratio.
# Usage: scripts/report-html-bench.sh [ROUNDS]   (default 5)
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/report.test" ./report
i=0
while [ "$i" -lt "$rounds" ]; do
	if [ $((i % 2)) -eq 0 ]; then order="SortMillion HTMLMillion"; else order="HTMLMillion SortMillion"; fi
	for b in $order; do
		"$tmp/report.test" -test.run '^$' -test.bench "^Benchmark$b\$" -test.benchtime 3x >>"$tmp/out.txt"
	done
	i=$((i + 1))
done
awk '
/^BenchmarkSortMillion/ { sort[++ns] = $3 }
/^BenchmarkHTMLMillion/ { html[++nh] = $3; bytes = $5 }
function sorted(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
function med(a, n) { return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
END {
	for (i = 1; i <= nh; i++) r[i] = html[i] / sort[i]
	sorted(sort, ns); sorted(html, nh); sorted(r, nh)
	printf "rounds: %d (ABBA)\n", nh
	printf "render 1,000,000 samples: min %.3f s, median %.3f s, max %.3f s (goal < 2 s)\n", html[1]/1e9, med(html, nh)/1e9, html[nh]/1e9
	printf "anchor, sort them once:    min %.3f s, median %.3f s, max %.3f s\n", sort[1]/1e9, med(sort, ns)/1e9, sort[ns]/1e9
	printf "ratio render/sort:         min %.1f, median %.1f, max %.1f\n", r[1], med(r, nh), r[nh]
	printf "page size: %.2f MB (goal < 5 MB)\n", bytes/1e6
}' "$tmp/out.txt"
