#!/usr/bin/env bash
# Configures the ThreadSanitizer build (clang, -fsanitize=thread on every target, so the plugins
# that libascendcl and the tests dlopen are instrumented too) in build-tsan/ (or ASC_TSAN_BUILD)
# and prints its path. Used by run_tsan.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${ASC_TSAN_BUILD:-$root/build-tsan}
flags=-fsanitize=thread
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only $flags" -DCMAKE_C_FLAGS="-O1 $flags" -DCMAKE_EXE_LINKER_FLAGS=$flags \
  -DCMAKE_SHARED_LINKER_FLAGS=$flags -DCMAKE_MODULE_LINKER_FLAGS=$flags \
  -DASC_BUILD_TESTS=ON -DASC_BUILD_BENCH=OFF >/dev/null
echo "$build"
