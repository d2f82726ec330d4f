#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole suite; then the whole
# suite again in the sanitised build (clang, ASan + UBSan, any report fails; tests/fuzz/run_suite.sh),
# and each libFuzzer harness, built in that same tree, for ASC_FUZZ_SECONDS (default 30); then the
# tests of the threaded code under ThreadSanitizer (tests/tsan/run_tsan.sh). ASC_FUZZ_SECONDS=0
# skips the three sanitised parts. docs/robustness.md says what runs where and how long it takes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/tools/setup.sh"
bash "$root/tools/build.sh"
build=${BUILD_DIR:-$root/build}
# The tests' PyTorch exports (tools/export_model.py) are stored here and copied by the later
# trees' runs of the same tests instead of exported again (tools/export_cache.py keys each on the
# exporting scripts, library versions and arguments, so nothing stale is ever served).
export ASC_MODEL_CACHE=${ASC_MODEL_CACHE:-$build/model-cache}
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-$(nproc)}" "$@"
fuzz_seconds=${ASC_FUZZ_SECONDS:-30}
if [ "$fuzz_seconds" != 0 ]; then
  bash "$root/tests/fuzz/run_suite.sh"
  ASC_BIN="$build/bin" bash "$root/tests/fuzz/run_fuzzers.sh" "$fuzz_seconds"
  bash "$root/tests/tsan/run_tsan.sh"
fi
