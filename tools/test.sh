#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole suite; then, in the
# sanitised build (clang, ASan + UBSan; tests/fuzz/configure.sh), runs the unit tests of the code
# that reads users' files and runs each libFuzzer harness for ASC_FUZZ_SECONDS (default 30); then
# the tests of the threaded code under ThreadSanitizer (tests/tsan/run_tsan.sh). ASC_FUZZ_SECONDS=0
# skips both sanitised parts.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/tools/setup.sh"
bash "$root/tools/build.sh"
build=${BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-$(nproc)}" "$@"
fuzz_seconds=${ASC_FUZZ_SECONDS:-30}
if [ "$fuzz_seconds" != 0 ]; then
  sanitised=$(bash "$root/tests/fuzz/configure.sh")
  # The SDK (tensors, .npy/.bin I/O), the host (plugins, YAML pipelines), the ONNX loader and
  # modelTrade's readers; the whole suite under ASan would double CI's time.
  ninja -C "$sanitised" test_sdk test_host test_parser_onnx test_profiler
  ctest --test-dir "$sanitised" --output-on-failure -j "${JOBS:-$(nproc)}" -R '^(sdk|host|parser_onnx|profiler)$'
  ASC_BIN="$build/bin" bash "$root/tests/fuzz/run_fuzzers.sh" "$fuzz_seconds"
  bash "$root/tests/tsan/run_tsan.sh"
fi
