# delay-load.sh: the load modes of scripts/delay-latency.sh and
# scripts/delay-sleep.sh (sourced, not run).
#   idle     nothing added
#   hog      one busy loop (yes >/dev/null) per CPU
#   mixed    stress-ng --cpu 2 --vm 1 --switch 2 (CPU, memory traffic, and
#            context switches: many short wake-ups)
#   gobuild  a loop of `go build -a` of chrono in a scratch cache (many
#            short-lived processes and threads, memory traffic: the load
#            under which issue 9 saw chrono fall behind cyclictest)
# start_load MODE starts it in its own process group; stop_load ends the
# group (the scripts call it from their EXIT trap).

load_pgid=
load_cache=

start_load() {
	case $1 in
	idle) return 0 ;;
	hog)
		n=$(nproc)
		setsid sh -c "i=0; while [ \$i -lt $n ]; do yes >/dev/null & i=\$((i+1)); done; wait" &
		;;
	mixed)
		command -v stress-ng >/dev/null || { echo "stress-ng not found: apt-get install stress-ng (or use the gobuild mode)" >&2; exit 1; }
		# Restarted when it ends: here its switch stressor sometimes aborts
		# ("corrupted bogo-ops counter") after a minute or two.
		setsid sh -c "while :; do stress-ng --cpu 2 --vm 1 --switch 2 -q >/dev/null 2>&1; sleep 0.1; done" &
		;;
	gobuild)
		load_cache=$(mktemp -d)
		setsid sh -c "while :; do GOCACHE=$load_cache go build -a -o /dev/null ./cmd/chrono >/dev/null 2>&1; done" &
		;;
	*)
		echo "unknown load mode '$1': use idle, hog, mixed or gobuild" >&2
		exit 2
		;;
	esac
	load_pgid=$!
	sleep 2 # let it ramp up
}

stop_load() {
	if [ -n "$load_pgid" ]; then
		kill -TERM "-$load_pgid" 2>/dev/null || true
		wait "$load_pgid" 2>/dev/null || true
		load_pgid=
	fi
	if [ -n "$load_cache" ]; then
		chmod -R u+w "$load_cache" 2>/dev/null
		rm -rf "$load_cache"
		load_cache=
	fi
}

# summarize LABEL: reads one ratio per line and prints
# "LABEL: min x, median x, max x over n rounds" (median of an even count:
# mean of the middle two).
summarize() {
	sort -g | awk -v l="$1" '{ r[NR] = $1 }
	END { if (NR == 0) { printf "%s: no rounds\n", l; exit }
	      m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
	      printf "%s: min %.2fx, median %.2fx, max %.2fx over %d rounds\n", l, r[1], m, r[NR], NR }'
}
