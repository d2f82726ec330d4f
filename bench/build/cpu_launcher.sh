#!/usr/bin/env bash
# Compiler and linker launcher that records each step's CPU time, for measuring a build on a busy
# machine (where ninja's per-step wall times in .ninja_log grow with the load): runs the step under
# GNU time and appends "user sys output" to cpu_steps.log in the build directory.
#   cmake ... -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/bench/build/cpu_launcher.sh \
#             -DCMAKE_CXX_LINKER_LAUNCHER=$PWD/bench/build/cpu_launcher.sh
# bench/build/cpu_per_target.py sums the log per target.
out=""
prev=""
for argument in "$@"; do
  [ "$prev" = "-o" ] && out=$argument
  prev=$argument
done
exec /usr/bin/time -f "%U %S $out" -a -o "$PWD/cpu_steps.log" "$@"
