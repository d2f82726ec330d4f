#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz) in the sanitised build (configure.sh) and runs each
# one for a bounded time on its seed corpus (make_seeds.py; the .om seeds need atc from build/),
# as many at once as there are cores. The suite (tools/test.sh) runs it with the default 30 s.
#   tests/fuzz/run_fuzzers.sh [SECONDS_EACH]       default 30; the documented long run uses 3600
# Findings go to build-fuzz/crashes/<harness>/; the exit status is non-zero when a harness fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-30}
bin=${ASC_BIN:-$root/build/bin}
jobs=${JOBS:-$(nproc)}
build=$(bash "$root/tests/fuzz/configure.sh")
ninja -C "$build" fuzz_harnesses
rm -rf "$build/seeds"
"${ASC_TEST_PYTHON:-/usr/bin/python3}" "$root/tests/fuzz/make_seeds.py" "$build/seeds" "$bin"

# One harness. The seeds stay as generated in seeds/; what the run finds goes to corpus/, kept
# between runs, so a long run continues where the last one stopped.
run_one() {
  local harness=$1
  mkdir -p "$build/corpus/$harness" "$build/crashes/$harness"
  # A fixed seed (ASC_FUZZ_SEED) makes a short run repeat what the last one did on the same machine.
  if "$build/bin/$harness" -seed="${ASC_FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=20 -print_final_stats=1 -rss_limit_mb=4096 \
       -artifact_prefix="$build/crashes/$harness/" "$build/corpus/$harness" "$build/seeds/$harness" \
       >"$build/$harness.log" 2>&1; then
    echo "== $harness, $seconds s: clean, $(grep -E "^stat::number_of_executed_units" "$build/$harness.log")"
  else
    echo "== $harness, $seconds s: FAILED (log $build/$harness.log, input in $build/crashes/$harness/)"
    grep -E "ERROR|SUMMARY" "$build/$harness.log" || true
    return 1
  fi
}

pids=()
for harness in $(cat "$build/fuzz_harnesses.txt"); do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
  run_one "$harness" &
  pids+=("$!")
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
