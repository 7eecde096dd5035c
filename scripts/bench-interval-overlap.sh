#!/bin/sh
# bench-interval-overlap.sh: is the 95 % interval that bench reports honest
# across invocations? (issue 9, item 2)
#
# It runs the same benchmark (bench.Run with default options on a
# //go:noinline sum of 1024 uint64: bench/internal/overlap) as separate
# processes, one after the other, and for each sequence of invocations
# counts
#   overlap    consecutive pairs whose intervals overlap (an honest interval: ~99 %;
#              issue 9's target: >= 19 of 20 pairs)
#   holds      pairs where an interval holds the next invocation's median
# Sequences, in each round:
#   free       PAIRS+1 invocations as the scheduler places them (the target's case)
#   cpu N      PAIRS+1 invocations under taskset -c N for each CPU of CPUS, interleaved
#              across the CPUs in ABBA order, so that the per-CPU levels are measured
#              side by side: their ratio to the first CPU shows whether CPUs differ now
# and prints, per round, each sequence's counts, the range of its medians and the median
# half-width of its intervals; at the end min/median/max over the rounds.
# Usage: scripts/bench-interval-overlap.sh [pairs] [rounds]   (defaults: 20 1)
#        CPUS="0 1" to choose the pinned CPUs (default: the first two allowed CPUs)
set -eu
pairs=${1:-20}
rounds=${2:-1}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/overlap" ./bench/internal/overlap
if [ -z "${CPUS:-}" ]; then
	CPUS=$(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | head -2 | tr '\n' ' ')
fi
n=$((pairs + 1))
echo "== $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $pairs pairs ($n invocations) per sequence, $rounds rounds, pinned CPUs: $CPUS"
echo "== git $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo '+dirty')"

# summary FILE NAME: one line for a sequence of "median lo hi [per-CPU]" lines:
# NAME overlap holds min-median median-median max-median median-halfwidth%
summary() {
	awk -v name="$2" '
	{ m[NR] = $1; lo[NR] = $2; hi[NR] = $3; if (NF > 3) { $1 = $2 = $3 = ""; pc[NR] = $0 } }
	END {
		ov = 0; hd = 0
		for (i = 1; i < NR; i++) {
			if (lo[i] <= hi[i+1] && lo[i+1] <= hi[i]) ov++
			if (lo[i] <= m[i+1] && m[i+1] <= hi[i]) hd++
		}
		for (i = 1; i <= NR; i++) { s[i] = m[i]; w[i] = (m[i] > 0) ? 50 * (hi[i] - lo[i]) / m[i] : 0 }
		for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
			if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
			if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
		}
		med = (NR % 2) ? s[(NR + 1) / 2] : (s[NR / 2] + s[NR / 2 + 1]) / 2
		wm = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
		printf "%-8s overlap %2d/%d  holds next median %2d/%d  medians %.1f %.1f %.1f ns/op  half-width %.2f%%\n", name, ov, NR - 1, hd, NR - 1, s[1], med, s[NR], wm
	}' "$1"
}

r=1
while [ "$r" -le "$rounds" ]; do
	: >"$tmp/free"
	i=0
	while [ "$i" -lt "$n" ]; do
		"$tmp/overlap" >>"$tmp/free"
		i=$((i + 1))
	done
	for c in $CPUS; do : >"$tmp/cpu$c"; done
	i=0
	while [ "$i" -lt "$n" ]; do
		if [ $((i % 2)) -eq 0 ]; then order=$CPUS; else order=$(echo "$CPUS" | tr ' ' '\n' | sed '/^$/d' | tac | tr '\n' ' '); fi
		for c in $order; do taskset -c "$c" "$tmp/overlap" >>"$tmp/cpu$c"; done
		i=$((i + 1))
	done
	echo "-- round $r (load $(cut -d' ' -f1 /proc/loadavg))"
	summary "$tmp/free" free | tee -a "$tmp/free.sum"
	first=""
	for c in $CPUS; do
		summary "$tmp/cpu$c" "cpu $c" | tee -a "$tmp/cpu.sum"
		lvl=$(awk '{ print $1 }' "$tmp/cpu$c" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
		if [ -z "$first" ]; then first=$lvl; fi
		echo "$c $lvl $first" | awk '{ printf "         level of CPU %s: %.1f ns/op, %.3f x CPU '"${CPUS%% *}"'\n", $1, $2, $2 / $3 }'
		echo "$c $lvl $first" | awk '{ print $1, $2 / $3 }' >>"$tmp/ratio"
	done
	if grep -q ' cpu=' "$tmp/free"; then
		echo "         per-CPU medians reported by the free invocations (first 3):"
		grep ' cpu=' "$tmp/free" | head -3 | sed 's/^/           /'
	fi
	r=$((r + 1))
done

# mmm: min/median/max of column $1 of stdin
mmm() {
	sort -g | awk '{ a[NR] = $1 } END { printf "min %s median %s max %s", a[1], (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2, a[NR] }'
}
echo "== summary over $rounds rounds"
printf 'free   overlapping pairs (of %d): %s\n' "$pairs" "$(awk '{ print $3 }' "$tmp/free.sum" | sed 's:/.*::' | mmm)"
printf 'free   intervals holding the next median: %s\n' "$(awk '{ print $7 }' "$tmp/free.sum" | sed 's:/.*::' | mmm)"
for c in $CPUS; do
	printf 'cpu %s  overlapping pairs: %s; holding the next median: %s\n' "$c" \
		"$(grep "^cpu $c " "$tmp/cpu.sum" | awk '{ print $4 }' | sed 's:/.*::' | mmm)" \
		"$(grep "^cpu $c " "$tmp/cpu.sum" | awk '{ print $8 }' | sed 's:/.*::' | mmm)"
	printf 'cpu %s  level / CPU %s: %s\n' "$c" "${CPUS%% *}" "$(awk -v c="$c" '$1 == c { print $2 }' "$tmp/ratio" | mmm)"
done
