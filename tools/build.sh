#!/usr/bin/env bash
# Configures and builds ascend-tools into build/ (override with BUILD_DIR). With arguments, builds
# only those targets (tools/main.sh builds just what the main job runs); the test build reuses
# the same directory. ccache is used when installed (CMakeLists.txt).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" -j "$jobs" "$@"
