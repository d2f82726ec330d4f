"""Runs a Python program in the sanitised build's Python tests, as `python3` would:
`asan_python.sh -m MODULE ARGS` or `asan_python.sh SCRIPT ARGS` (asan_python.sh starts this file
with ASan's shared runtime preloaded, which also carries UBSan's handlers).

The tools a test starts (atc, modelTrade) are instrumented executables with ASan linked in
statically; ASan refuses to run beside a second, preloaded runtime ("incompatible ASan runtimes"),
so LD_PRELOAD goes, and the suite's ASAN_OPTIONS (leak detection on) come back, for every child.
A Python child may import the acl module too: sys.executable becomes asan_python.sh, so one started
as [sys.executable, SCRIPT] gets the runtime again."""
import os
import runpy
import sys

del os.environ["LD_PRELOAD"]
os.environ["ASAN_OPTIONS"] = os.environ["ASC_ASAN_CHILD_OPTIONS"]
sys.executable = os.path.join(os.path.dirname(os.path.abspath(__file__)), "asan_python.sh")
arguments = sys.argv[1:]
if arguments[0] == "-m":
    sys.argv = arguments[1:]
    sys.path[0] = os.getcwd()
    runpy.run_module(arguments[1], run_name="__main__", alter_sys=True)
else:
    sys.argv = arguments
    sys.path[0] = os.path.dirname(os.path.abspath(arguments[0]))
    runpy.run_path(arguments[0], run_name="__main__")
