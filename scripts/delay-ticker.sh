#!/bin/sh
# delay-ticker.sh: delay.Ticker over N periods (default 10,000 x 1 ms):
# ticks lost, deadline drift (must be 0), lateness of the first and last
# 10 % and its least-squares slope against k (no growth = no drift), for
# the Skip and CatchUp overrun policies.
set -eu
cd "$(dirname "$0")/.."
n=${1:-10000}
go run ./delay/internal/tickerbench -n "$n" -period 1ms
go run ./delay/internal/tickerbench -n "$n" -period 1ms -catchup
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
