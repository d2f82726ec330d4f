#!/bin/sh
# ctest profiler_screenshot: renders the fixture's HTML report with modelTrade and checks it in
# headless Chromium (tests/support/check_html_render.sh): a non-blank screenshot, and the title,
# advice, operator table and timeline present in the rendered page. Fails without Chromium.
#   screenshot_test.sh MODEL_TRADE FIXTURE_DIR TOOLS_DIR CHECK_SCRIPT WORK_DIR
set -eu
model_trade=$1 fixture=$2 tools=$3 check=$4 work=$5

rm -rf "$work"
mkdir -p "$work"
"$model_trade" --report="$fixture" --output="$work/perf.html" --format=html --quiet \
  --model_name=resnet50 --soc_version=Ascend310P3
"$check" "$tools" "$work/perf.html" "$work/perf.png" \
  'modelTrade report: resnet50' 'SoC Ascend310P3' 'id="advice"' 'id="operators"' 'id="timeline-plot"' '<svg'
