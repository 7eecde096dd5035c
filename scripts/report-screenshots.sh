#!/bin/sh
# report-screenshots.sh: makes the README's images of chrono report --html
# from the committed example documents (docs/examples, and the constructed
# latency document of the report package's tests): loads each kind's page
# in headless Chromium (TestHTMLInBrowser, which fails on any console error
# or network request, hovers a plot and zooms it), and saves the
# screenshots as docs/images/report-KIND.png.
# Needs Debian's chromium (or CHROMIUM=/path/to/chrome).
# Usage: scripts/report-screenshots.sh [KIND...]   (default: command function sleep latency clocks gobench)
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -count=1 -run '^TestHTMLInBrowser$' ./report -v -html.screenshots="$tmp" | grep -E '^(--- |ok|FAIL)|screenshot'
kinds=${*:-command function sleep latency clocks gobench}
for k in $kinds; do
	cp "$tmp/$k.png" "docs/images/report-$k.png"
	echo "docs/images/report-$k.png"
done
