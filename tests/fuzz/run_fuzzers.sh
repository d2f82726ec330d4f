#!/bin/sh
# Builds the libFuzzer harnesses (tests/fuzz) with clang in build-fuzz/ and runs each one for a
# bounded time on its seed corpus (make_seeds.py; the .om seeds need atc from build/).
#   tests/fuzz/run_fuzzers.sh [SECONDS_EACH]       default 30; the documented long run uses 3600
# Findings go to build-fuzz/crashes/<harness>/; the exit status is non-zero when a harness fails.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-30}
build=${ASC_FUZZ_BUILD:-$root/build-fuzz}
bin=${ASC_BIN:-$root/build/bin}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DASC_FUZZ=ON -DASC_BUILD_BENCH=OFF >/dev/null
ninja -C "$build" fuzz_npy fuzz_atc_flags fuzz_om
"${ASC_TEST_PYTHON:-/usr/bin/python3}" "$root/tests/fuzz/make_seeds.py" "$build/corpus" "$bin"
status=0
for harness in fuzz_npy fuzz_atc_flags fuzz_om; do
  mkdir -p "$build/corpus/$harness" "$build/crashes/$harness"
  echo "== $harness, $seconds s"
  "$build/bin/$harness" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 \
    -artifact_prefix="$build/crashes/$harness/" "$build/corpus/$harness" 2>"$build/$harness.log" || status=1
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|ERROR|SUMMARY" "$build/$harness.log" || true
done
exit $status
