#!/bin/sh
# trace-screenshot.sh: makes the README's timeline image from the committed
# dump of examples/pipeline: renders docs/examples/pipeline-trace.json with
# `chrono trace --html`, loads the page in headless Chromium (the report
# package's browser test, which fails on any console error or network
# request), and saves the screenshot as docs/images/pipeline-timeline.png.
# With --new-dump it first reruns the example to refresh the dump (then
# refresh the README's `chrono trace` output too: go test ./cmd/chrono -run
# TestREADME shows the difference).
# Needs Debian's chromium (or CHROMIUM=/path/to/chrome).
# Usage: scripts/trace-screenshot.sh [--new-dump]
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${1:-}" = "--new-dump" ]; then
	go run ./examples/pipeline -n 100 -o docs/examples/pipeline-trace.json
fi
go run ./cmd/chrono trace docs/examples/pipeline-trace.json --html "$tmp/timeline.html" >/dev/null
# Open on 1.5-3.2 ms (a stall in compute) and hover a compute span, so the
# image shows nesting, the details box and a request's flow.
go test -count=1 -run '^TestTimelineInBrowser$' ./report -v \
	-timeline.html="$tmp/timeline.html" -timeline.view=1500000,3200000 -timeline.hover=700,212 \
	-timeline.screenshot="$PWD/docs/images/pipeline-timeline.png" | grep -E '^(--- |ok|FAIL)|screenshot'
