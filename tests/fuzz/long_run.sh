#!/usr/bin/env bash
# The documented long run of one libFuzzer harness (docs/robustness.md, "Long runs"). Builds the
# harness in build-fuzz-long/ (or ASC_FUZZ_LONG_BUILD) with UBSan alone at -O2, which runs about
# 2.4 times the executions per second of the suite's ASan + UBSan -O1 build (fuzz_msprof: 1309
# against 555), and runs it for RUNS executions (default 10 million), starting from its own corpus
# (kept between runs), the suite's (build-fuzz/corpus/<harness>, read only) and the seeds.
#   tests/fuzz/long_run.sh HARNESS [RUNS]
#   ASC_FUZZ_LONG_SANITIZERS=address,undefined tests/fuzz/long_run.sh ...   the suite's sanitizers
#   ASC_FUZZ_LONG_JOBS=2 tests/fuzz/long_run.sh ...   libFuzzer's -fork=2: two processes fuzz (short
#     jobs whose findings join the corpus), and RUNS counts the executions of both
# The .om seeds need atc (ASC_BIN, default build/bin). Findings go to <build>/crashes/<harness>/;
# the exit status is non-zero when the harness fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
harness=${1:?usage: tests/fuzz/long_run.sh HARNESS [RUNS]}
runs=${2:-10000000}
bin=${ASC_BIN:-$root/build/bin}
build=$(ASC_FUZZ_BUILD="${ASC_FUZZ_LONG_BUILD:-$root/build-fuzz-long}" ASC_FUZZ_OPTIMIZATION=-O2 \
  ASC_FUZZ_SANITIZERS="${ASC_FUZZ_LONG_SANITIZERS:-undefined}" bash "$root/tests/fuzz/configure.sh")
grep -qx "$harness" "$build/fuzz_harnesses.txt" || { echo "long_run.sh: no harness $harness (see $build/fuzz_harnesses.txt)" >&2; exit 2; }
ninja -C "$build" -j"$(nproc)" "$harness"
[ -d "$build/seeds/$harness" ] || "${ASC_TEST_PYTHON:-/usr/bin/python3}" "$root/tests/fuzz/make_seeds.py" "$build/seeds" "$bin"
mkdir -p "$build/corpus/$harness" "$build/crashes/$harness"
suite_corpus=$root/build-fuzz/corpus/$harness
log=$build/$harness.long.log
echo "long run: $harness, $runs executions, log $log"
jobs=${ASC_FUZZ_LONG_JOBS:-1}
# -timeout=600: a run shares the machine, and a process stopped for a while (SIGSTOP) would
# otherwise trip libFuzzer's per-input alarm.
if "$build/bin/$harness" -runs="$runs" -seed="${ASC_FUZZ_SEED:-11}" -timeout=600 -rss_limit_mb=4096 -print_final_stats=1 \
     $([ "$jobs" -gt 1 ] && echo "-fork=$jobs") -artifact_prefix="$build/crashes/$harness/" "$build/corpus/$harness" \
     $([ -d "$suite_corpus" ] && echo "$suite_corpus") "$build/seeds/$harness" >"$log" 2>&1; then
  # One process prints its total as a statistic, the parent of -fork jobs on its last status line.
  echo "== $harness: clean, $(grep -E '^stat::number_of_executed_units|^#[0-9]+:' "$log" | tail -1)"
else
  echo "== $harness: FAILED (log $log, input in $build/crashes/$harness/)"
  grep -E "ERROR|SUMMARY" "$log" || true
  exit 1
fi
