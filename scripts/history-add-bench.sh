#!/bin/sh
# history-add-bench.sh: what chrono history add costs per document,
# against the anchor chrono --version (the start-up of the same binary),
# measured side by side (issue 20: 80 ms a document against 8 ms; the
# goal is at most 2x per document). Three phases a round:
#   single:  N documents one after another, one chrono history add each,
#            into a fresh store;
#   version: N chrono --version, in the same shell loop;
#   batch:   one chrono history add of the N documents, into a fresh store.
# Rounds alternate the order (single version batch, then batch version
# single: ABBA). Each round gives, per document, single/version and
# batch/version in wall time and in CPU time (user + system of the
# processes, git's included); the summary gives min/median/max over the
# rounds, with the load average at both ends.
#
# The commands run in the repository, so that every add reads its git
# state as in CI (GIT=0: in a directory outside any repository). The
# stores are SQLite files in a temporary directory (STORE_DIR=DIR: in DIR,
# e.g. /dev/shm to leave the disk's fsync out), or, with
# DSN=postgres://USER:PASSWORD@HOST:5432/DB, fresh schemas on that server
# (created and dropped with psql). CHRONO=BINARY measures that binary
# instead of one built from the working tree (a before/after comparison).
# Usage: scripts/history-add-bench.sh [ROUNDS] [N]   (default 5 rounds, 120 documents)
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
rounds=${1:-5}
n=${2:-120}
tmp=$(mktemp -d)
store_dir=${STORE_DIR:-$tmp}
dsn=${DSN:-}
prefix=history_add_bench_$$
cleanup() {
	if [ -n "$dsn" ]; then
		for s in $(psql "$dsn" -qAtc "SELECT nspname FROM pg_namespace WHERE nspname LIKE '${prefix}_%'"); do
			psql "$dsn" -qc "DROP SCHEMA $s CASCADE" >/dev/null 2>&1
		done
	fi
	rm -rf "$tmp" "$store_dir/$prefix"-*.db*
}
trap cleanup EXIT
bin=${CHRONO:-}
if [ -z "$bin" ]; then
	go build -o "$tmp/chrono" ./cmd/chrono
	bin=$tmp/chrono
fi
workdir=$repo
if [ "${GIT:-1}" = 0 ]; then
	workdir=$tmp/work
	mkdir "$workdir"
fi

# N command documents that differ in their start time (so that none is a
# duplicate of another), from one real run.
mkdir "$tmp/docs"
(cd "$tmp" && "$bin" run -N --runs 20 --warmup 2 true --export-json base.json >/dev/null 2>&1)
i=0
while [ "$i" -lt "$n" ]; do
	awk -v i="$i" '!done && /^  "start": / { printf "  \"start\": \"2026-11-%02dT%02d:%02d:00Z\",\n", 1 + int(i / 1440), int(i / 60) % 24, i % 60; done = 1; next } { print }' \
		"$tmp/base.json" >"$tmp/docs/d$(printf %05d "$i").json"
	i=$((i + 1))
done

# store NAME prints the address of a fresh store.
store() {
	if [ -n "$dsn" ]; then
		psql "$dsn" -qc "CREATE SCHEMA ${prefix}_$1" >/dev/null
		case $dsn in *\?*) echo "$dsn&search_path=${prefix}_$1" ;; *) echo "$dsn?search_path=${prefix}_$1" ;; esac
	else
		echo "$store_dir/$prefix-$1.db"
	fi
}

# cpu FILE writes the user and system CPU time of this shell's children so
# far (the second line of times; in this shell, not a subshell).
cpu() { times >"$1"; }

# phase NAME ROUND runs one phase and appends "NAME ROUND wall-µs
# cpu-before cpu-after" to the results (the CPU times in seconds).
phase() {
	[ "$1" = version ] || db=$(store "$1$2")
	cpu "$tmp/c0"
	t0=$(date +%s%N)
	case $1 in
	single) for f in "$tmp"/docs/*.json; do "$bin" history add --db "$db" "$f" 2>>"$tmp/err"; done ;;
	version) for f in "$tmp"/docs/*.json; do "$bin" --version >/dev/null; done ;;
	batch) "$bin" history add --db "$db" "$tmp"/docs/*.json 2>>"$tmp/err" ;;
	esac
	t1=$(date +%s%N)
	cpu "$tmp/c1"
	echo "$1 $2 $(((t1 - t0) / 1000)) $(seconds "$tmp/c0") $(seconds "$tmp/c1")" >>"$tmp/results"
}

# seconds FILE sums the children's user and system times that cpu wrote
# ("0m1.230000s 0m0.450000s" on its second line).
seconds() {
	awk 'NR == 2 { t = 0; for (f = 1; f <= 2; f++) { split($f, a, "m"); t += a[1] * 60 + a[2] } printf "%.6f", t }' "$1"
}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "documents: $n, $(wc -c <"$tmp/base.json") bytes each; in $workdir; stores: ${dsn:+PostgreSQL (fresh schemas)}${dsn:-SQLite in $store_dir}"
cd "$workdir"
r=0
while [ "$r" -lt "$rounds" ]; do
	if [ $((r % 2)) -eq 0 ]; then order="single version batch"; else order="batch version single"; fi
	for p in $order; do phase "$p" "$r"; done
	r=$((r + 1))
done
added=$(grep -c '^history: added' "$tmp/err" || true)
if [ "$added" -ne $((2 * n * rounds)) ]; then
	echo "history-add-bench: $added documents added, want $((2 * n * rounds)):" >&2
	grep -v '^history: added' "$tmp/err" | head -5 >&2
	exit 1
fi
echo "load at end:   $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v n="$n" '
{ wall[$1, $2] = $3 / 1e3; cpu[$1, $2] = ($5 - $4) * 1e3; if ($2 + 1 > rounds) rounds = $2 + 1 }
function sorted(a, k,   i, j, t) { for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
function med(a, k) { return k % 2 ? a[(k+1)/2] : (a[k/2] + a[k/2+1]) / 2 }
function line(what, a,   k) { sorted(a, rounds); printf "%-34s min %7.2f  median %7.2f  max %7.2f\n", what, a[1], med(a, rounds), a[rounds] }
END {
	printf "rounds: %d (ABBA); per document, ms (wall) and ms (CPU: user + system, git included)\n", rounds
	for (r = 0; r < rounds; r++) {
		sw[r+1] = wall["single", r] / n; vw[r+1] = wall["version", r] / n; bw[r+1] = wall["batch", r] / n
		sc[r+1] = cpu["single", r] / n; vc[r+1] = cpu["version", r] / n; bc[r+1] = cpu["batch", r] / n
		rsw[r+1] = sw[r+1] / vw[r+1]; rbw[r+1] = bw[r+1] / vw[r+1]; rsc[r+1] = sc[r+1] / vc[r+1]; rbc[r+1] = bc[r+1] / vc[r+1]
		printf "round %d: wall single %.2f, version %.2f, batch %.2f; CPU single %.2f, version %.2f, batch %.2f\n", r, sw[r+1], vw[r+1], bw[r+1], sc[r+1], vc[r+1], bc[r+1]
	}
	line("wall, history add DOC:", sw); line("wall, chrono --version:", vw); line("wall, history add DOC... (each):", bw)
	line("CPU, history add DOC:", sc); line("CPU, chrono --version:", vc); line("CPU, history add DOC... (each):", bc)
	line("ratio wall, single/version:", rsw); line("ratio wall, batch/version:", rbw)
	line("ratio CPU, single/version:", rsc); line("ratio CPU, batch/version:", rbc)
	print "goal: at most 2 per document"
}' "$tmp/results"
