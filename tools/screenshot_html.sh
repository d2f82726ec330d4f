#!/bin/sh
# Takes a screenshot of an HTML file in headless Chromium (Debian's `chromium` package), e.g. to
# look at a modelTrade report:  tools/screenshot_html.sh perf.html perf.png [WIDTH HEIGHT]
# Exits 1 (with a message) when Chromium is not installed (tools/setup.sh installs it). Nothing is
# fetched from the network.
set -eu

if [ $# -lt 2 ]; then
  echo "usage: $0 REPORT.html OUT.png [WIDTH HEIGHT]" >&2
  exit 2
fi
html=$1
png=$2
width=${3:-1280}
height=${4:-2000}

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "chromium not installed ($chromium): run tools/setup.sh (apt-get install chromium)" >&2
  exit 1
fi
if [ ! -f "$html" ]; then
  echo "no such file: $html" >&2
  exit 2
fi

html_abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
png_dir=$(cd "$(dirname "$png")" && pwd)
png_abs=$png_dir/$(basename "$png")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars --window-size="$width,$height" \
  --screenshot="$png_abs" "file://$html_abs" >/dev/null 2>&1

if [ ! -s "$png_abs" ]; then
  echo "chromium wrote no screenshot to $png_abs" >&2
  exit 1
fi
echo "$png_abs"
