#!/usr/bin/env bash
# numbers-vs-numpy.sh: `chrono numbers FILE` of 1,000,000 log-normal numbers
# side by side with its anchor, issue 20's numpy program (numpy.loadtxt,
# then percentile([50, 90, 99, 99.9]), mean and std), as whole processes in
# ABBA order, printing wall time, own CPU time and peak RSS of each and
# their ratios chrono / numpy with min, median and max over the rounds
# (goal: <= 1.0 for wall time). Not a test: run it on a quiet machine.
#
#   scripts/numbers-vs-numpy.sh [ROUNDS] [N]     (defaults: 7 1000000)
#
# The input is made once by numpy with a fixed seed (default_rng(20),
# lognormal(0, 1), written by savetxt with %.6g: ~8.4 MB for a million), so
# every run of the script reads the same numbers; its SHA-256 is printed.
# The anchor is Debian's python3-numpy (apt-get install python3-numpy);
# $PYTHON names another interpreter with numpy. Before timing, both print
# their p50, p90, p99, p99.9 and mean once, which must agree (chrono's
# default percentile method is numpy's linear). $CHRONO names a chrono
# binary to measure instead of one built from this checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
N=${2:-1000000}
py=${PYTHON:-}
if [ -z "$py" ]; then
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import numpy' 2>/dev/null; then
			py=$p
			break
		fi
	done
fi
[ -n "$py" ] || { echo "no python3 with numpy: apt-get install python3-numpy (or set PYTHON)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chrono=${CHRONO:-}
if [ -z "$chrono" ]; then
	go build -o "$tmp/chrono" ./cmd/chrono
	chrono=$tmp/chrono
fi
in=$tmp/lognormal.txt
"$py" -c '
import sys, numpy as np
x = np.random.default_rng(20).lognormal(0.0, 1.0, int(sys.argv[2]))
np.savetxt(sys.argv[1], x, fmt="%.6g")
' "$in" "$N"
anchor='import numpy as np, sys; x = np.loadtxt(sys.argv[1]); print(np.percentile(x, [50, 90, 99, 99.9]), x.mean(), x.std())'
echo "input: $N log-normal numbers, $(wc -c <"$in") bytes, sha256 $(sha256sum "$in" | cut -c1-16)…; numpy $("$py" -c 'import numpy; print(numpy.__version__)')"
echo "numpy:  $("$py" -c "$anchor" "$in")"
"$chrono" numbers --json "$in" | "$py" -c '
import json, sys
m = json.load(sys.stdin)["measurements"][0]["metrics"][0]
p = m["percentiles"]
print("chrono: [" + " ".join(repr(p[k]) for k in ("p50", "p90", "p99", "p99.9")) + "]", m["summary"]["mean"], m["summary"]["stddev_population"])'
echo
"$py" scripts/abba.py --rounds "$ROUNDS" --anchor numpy \
	"chrono=$chrono numbers $in" \
	"numpy=$py -c '$anchor' $in"
