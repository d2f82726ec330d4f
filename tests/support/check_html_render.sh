#!/bin/sh
# Renders an HTML report in headless Chromium and checks that it rendered: a screenshot that is
# not blank (tools/png_ink.py) and, in the DOM after the page's scripts ran, every MARKER given.
# Fails (exit 1) when Chromium is missing: tools/setup.sh installs it, and a browser test that
# cannot run must not pass.
#   check_html_render.sh TOOLS_DIR REPORT.html OUT.png MARKER...
set -eu
tools=$1 html=$2 png=$3
shift 3

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "FAIL: Chromium is not installed ($chromium): run tools/setup.sh (apt-get install chromium)" >&2
  exit 1
fi
"$tools/screenshot_html.sh" "$html" "$png"
/usr/bin/python3 "$tools/png_ink.py" "$png"

dom=$png.dom.html
html_abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$profile" --virtual-time-budget=2000 \
  --dump-dom "file://$html_abs" > "$dom" 2>/dev/null
missing=0
for marker in "$@"; do
  if ! grep -q -F -- "$marker" "$dom"; then
    echo "not in the rendered page: $marker" >&2
    missing=1
  fi
done
[ "$missing" -eq 0 ] || { echo "rendered DOM kept in $dom" >&2; exit 1; }
echo "rendered: $png ($(wc -c < "$png") bytes), $# markers found in the DOM"
