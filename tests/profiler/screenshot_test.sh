#!/bin/sh
# ctest profiler_screenshot: renders the fixture's HTML report with modelTrade and screenshots it in
# headless Chromium; exit 77 (reported by ctest as skipped) where Chromium is not installed.
#   screenshot_test.sh MODEL_TRADE FIXTURE_DIR SCREENSHOT_SCRIPT WORK_DIR
set -eu
model_trade=$1 fixture=$2 screenshot=$3 work=$4

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "SKIPPED: chromium not installed (apt-get install chromium to run this test)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$model_trade" --report="$fixture" --output="$work/perf.html" --format=html --quiet \
  --model_name=resnet50 --soc_version=Ascend310P3
"$screenshot" "$work/perf.html" "$work/perf.png"
# A PNG starts with \211PNG; an empty page renders to a few kB, the report to far more.
magic=$(head -c 4 "$work/perf.png" | od -An -c | tr -d ' ')
size=$(wc -c < "$work/perf.png")
if [ "$magic" != '211PNG' ] || [ "$size" -lt 50000 ]; then
  echo "unexpected screenshot: magic '$magic', $size bytes" >&2
  exit 1
fi
echo "screenshot of the HTML report: $work/perf.png ($size bytes)"
