#!/usr/bin/env bash
# Clean-build time of the README's test build (everything: tools, plugins, tests, benchmarks) for
# two revisions, one after the other on this machine, ccache off, and their ratio. Also the main
# job's build alone (tools/main.sh's targets) for the second revision.
#   bench/build/bench_build.sh BASELINE_REV [REV]      (REV defaults to HEAD)
# Each build is a fresh `git worktree` in a temporary directory, configured as tools/build.sh does.
# Prints wall, user and system seconds per build. BENCHMARKS.md (build) has the results.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
baseline=${1:?usage: bench_build.sh BASELINE_REV [REV]}
revision=${2:-HEAD}
work=$(mktemp -d)
trap 'git -C "$root" worktree prune; rm -rf "$work"' EXIT
jobs=${JOBS:-$(nproc)}

# Runs "$@" and prints "wall user sys" in seconds (GNU time's format).
timed() { /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >"$work/log" 2>&1 || { tail -20 "$work/log"; exit 1; }; cat "$work/time"; }

clean_build() {  # REV NAME [TARGETS...]
  local rev=$1 name=$2
  shift 2
  git -C "$root" worktree add --detach -q "$work/$name" "$rev"
  CCACHE_DISABLE=1 cmake -S "$work/$name" -B "$work/$name/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER_LAUNCHER= >/dev/null
  echo "$name ($rev, $(git -C "$root" rev-parse --short "$rev")): $(CCACHE_DISABLE=1 timed ninja -C "$work/$name/build" -j "$jobs" "$@") (wall user sys, s)"
}

clean_build "$baseline" baseline
clean_build "$revision" revision
clean_build "$revision" main_job asc atc ais_bench op_validate modelTrade parser_onnx ops_builtin fusion \
  backend_reference backend_npusim ais_bench_runner validator profiler
