#!/usr/bin/env bash
# Builds everything in the sanitised build (configure.sh: clang, ASan + UBSan, the tree the fuzz
# harnesses use too) and runs the whole ctest suite there; any sanitizer report fails it, even one
# from a tool that a test expected to fail: ASan, LeakSanitizer and UBSan write their reports to
# files (log_path) in sanitizer-reports/, printed here after ctest. The suite (tools/test.sh) runs it.
#   tests/fuzz/run_suite.sh [CTEST_ARGS...]        e.g. -R acl, -E models
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(bash "$root/tests/fuzz/configure.sh")
jobs=${JOBS:-$(nproc)}
ninja -C "$build" -j "$jobs"
reports=$build/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
# halt_on_error and detect_leaks are ASan's defaults on Linux, said here so they stay on; UBSan
# is fatal anyway (-fno-sanitize-recover=undefined). The runtimes read log_path from both
# variables (UBSAN_OPTIONS last), so both name the same files: sanitizer.<pid>.
# intercept_tls_get_addr=0: clang 14's runtime misreads glibc 2.36's dynamic TLS blocks (of the
# dlopen'ed plugins' threads) and LeakSanitizer's tracer then dies scanning a bogus range ("Tracer
# caught signal 11", every op_validate run of tests/validator; google/sanitizers#1322). glibc
# allocates those blocks with malloc, so their contents are still scanned as reachable heap.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:intercept_tls_get_addr=0:log_path=$reports/sanitizer${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/sanitizer${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# The model tests copy the PyTorch exports the release tree's run stored (tools/export_cache.py)
# instead of exporting them again; tools/test.sh sets the same directory.
export ASC_MODEL_CACHE=${ASC_MODEL_CACHE:-${BUILD_DIR:-$root/build}/model-cache}
status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" "$@" || status=$?
if compgen -G "$reports/*" >/dev/null; then
  for report in "$reports"/*; do echo "== $report"; cat "$report"; done
  echo "sanitizer reports: $(ls "$reports" | wc -l) (in $reports)"
  status=1
fi
exit $status
