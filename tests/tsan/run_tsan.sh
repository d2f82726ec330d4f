#!/usr/bin/env bash
# Builds the tests of the threaded code in the ThreadSanitizer build (configure.sh) and runs them:
# the kernel thread pool (sdk: parallel_for; ops_math, ops_nn: threaded MatMul, Softmax,
# LayerNorm, convolution, pooling), libascendcl's streams, events, callbacks and two host threads
# (acl), the NPU simulator's stream (backend_npusim) and op_validate's parallel comparison
# (validator). Any report fails the test (halt_on_error). The suite (tools/test.sh) runs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(bash "$root/tests/tsan/configure.sh")
tests=(sdk acl ops_math ops_nn backend_npusim validator)
ninja -C "$build" test_sdk test_acl test_ops_math test_ops_nn test_backend_npusim test_validator
# Four kernel threads even on a 2-core machine, so the pool really runs items concurrently.
# oneDNN's sgemm runs on libgomp, which is not instrumented: TSan cannot see its barriers and
# would report them, so OpenMP stays on one thread (our pool still calls it from several).
export ASC_NUM_THREADS=${ASC_NUM_THREADS:-4} OMP_NUM_THREADS=1
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
pattern="^($(IFS='|'; echo "${tests[*]}"))\$"
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-$(nproc)}" -R "$pattern"
