#!/bin/sh
# report-html-pair.sh: issue 20's row "chrono report --html of two
# 1,000,000-sample commands" against its anchor, a Go program that reads
# the same two documents and sorts their samples once
# (report-html-pair.go), whole processes in ABBA rounds (abba.py); then
# the same inside one process (BenchmarkHTMLPair: render against sorting
# the samples once, interleaved, median/min/max of the per-round ratios).
# The goal is a ratio of at most 10. Figures depend on the machine and its
# load (printed).
# Usage: scripts/report-html-pair.sh [ROUNDS]   (default 6)
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/chrono" ./cmd/chrono
go build -o "$tmp/anchor" scripts/report-html-pair.go
"$tmp/anchor" gen "$tmp"
"$tmp/anchor" sort "$tmp/old.json" "$tmp/new.json"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/abba.py --rounds "$rounds" --anchor sort \
	"sort=$tmp/anchor sort $tmp/old.json $tmp/new.json" \
	"html=$tmp/chrono report --html $tmp/page.html $tmp/old.json $tmp/new.json"
go test -c -o "$tmp/report.test" ./report
"$tmp/report.test" -test.run '^$' -test.bench '^BenchmarkHTMLPair$' -test.benchtime "${rounds}x"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
