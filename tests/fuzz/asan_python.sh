#!/bin/sh
# Python for the Python tests of the sanitised build (tests/python/CMakeLists.txt with ASC_FUZZ):
# the interpreter is not instrumented but imports the acl module, which is, so ASan's shared runtime
# must be loaded first (LD_PRELOAD). asan_python.py takes LD_PRELOAD away from what the script
# starts and makes sys.executable this file, so a Python child gets it again (asan_python.py says why).
# Keeps the suite's ASAN_OPTIONS for the instrumented tools the tests start.
: "${ASC_ASAN_CHILD_OPTIONS=${ASAN_OPTIONS-}}"
export ASC_ASAN_CHILD_OPTIONS
# The interpreter's own allocations live until exit: no leak detection in the Python process.
ASAN_OPTIONS="$ASC_ASAN_CHILD_OPTIONS:detect_leaks=0" LD_PRELOAD="$ASC_ASAN_RUNTIME" \
  exec "$ASC_ASAN_PYTHON" "$(dirname "$0")/asan_python.py" "$@"
