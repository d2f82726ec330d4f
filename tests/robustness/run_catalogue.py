#!/usr/bin/python3
"""Runs the robustness catalogue (catalogue.yaml): every bad input and fault case, each as the input
to make, the command to run on it, the exit status and error code expected, and what must hold
afterwards (the input unchanged, no temporary or partial file left behind).

    run_catalogue.py --bin BUILD/bin --work DIR [--only NAME]... [--sanitised]

--sanitised (the ASan build, tests/fuzz/run_suite.sh) skips the cases that say why they cannot run
under ASan (`not_sanitised`), and says so.

Each case runs in its own empty directory under --work, made afresh. A tool killed by a signal
fails its case unless the case itself sends that signal. Exits 1 when any case fails.
"""
import argparse
import glob
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time

import yaml

import make_inputs

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
TIMEOUT_S = 120


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def start(command, cwd, env):
    return subprocess.Popen(["/bin/sh", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def interrupt_when(process, cwd, pattern, signame):
    """Sends the signal to the tool (the shell's child) as soon as `pattern` matches a file.
    Returns whether the file was seen before the process ended."""
    while process.poll() is None:
        if glob.glob(os.path.join(cwd, pattern)):
            os.killpg(process.pid, getattr(signal, "SIG" + signame))
            return True
        time.sleep(0.0002)
    return False


def exit_description(status):
    return f"killed by signal {-status} ({signal.Signals(-status).name})" if status < 0 else f"exit {status}"


def run_case(case, args, env):
    name = case["name"]
    cwd = os.path.join(args.work, name)
    shutil.rmtree(cwd, ignore_errors=True)
    os.makedirs(cwd)
    context = {"bin": args.bin, "plugins": os.path.join(os.path.dirname(args.bin), "lib", "asc", "plugins"),
               "source": SOURCE, "cache": os.path.join(args.work, ".cache")}
    for step in case.get("make", []):
        (builder, params), = step.items()
        getattr(make_inputs, builder)(cwd, context, **(params or {}))
    checks = case.get("then", [])
    before = {check["unchanged"]: digest(os.path.join(cwd, check["unchanged"])) for check in checks if "unchanged" in check}

    case_env = dict(env, **{k: str(v).format(**context) for k, v in case.get("env", {}).items()})
    command = case["run"].format(**context)
    interrupt = case.get("interrupt")
    attempts = interrupt.get("attempts", 5) if interrupt else 1
    for attempt in range(attempts):
        process = start(command, cwd, case_env)
        seen = interrupt_when(process, cwd, interrupt["when"], interrupt["signal"]) if interrupt else True
        try:
            out, err = process.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            return [f"no result after {TIMEOUT_S} s (a hang)"]
        if seen:
            break
    output = out.decode(errors="replace") + err.decode(errors="replace")
    status = process.returncode
    failures = []
    if interrupt and not seen:
        failures.append(f"'{interrupt['when']}' never appeared in {attempts} runs: the interrupt was not sent")
    # The shell reports a child killed by signal N as 128 + N.
    if status > 128 and status - 128 in signal.valid_signals():
        status = -(status - 128)
    expected = -getattr(signal, "SIG" + interrupt["signal"]) if interrupt else case["exit"]
    if status != expected:
        failures.append(f"{exit_description(status)}, expected {exit_description(expected)}")
    for code in ([case["code"]] if isinstance(case.get("code"), str) else case.get("code", [])):
        if code not in output:
            failures.append(f"{code} not in the output")
    for text in case.get("says", []):
        if text not in output:
            failures.append(f"'{text}' not in the output")
    if "EE9001" in output and case.get("code") != "EE9001":
        failures.append("an internal error (EE9001) in the output")
    for check in checks:
        (kind, value), = check.items()
        if kind == "unchanged":
            if digest(os.path.join(cwd, value)) != before[value]:
                failures.append(f"{value} was changed")
        elif kind == "absent":
            found = glob.glob(os.path.join(cwd, value), recursive=True) + \
                glob.glob(os.path.join(cwd, "**", value), recursive=True)
            if found:
                failures.append(f"left behind: {', '.join(sorted({os.path.relpath(f, cwd) for f in found}))}")
        elif kind == "exists":
            if not os.path.exists(os.path.join(cwd, value)):
                failures.append(f"{value} does not exist")
        elif kind == "symlink":
            if not os.path.islink(os.path.join(cwd, value)):
                failures.append(f"{value} is no longer a symlink")
        elif kind == "contains":
            path, text = value
            with open(os.path.join(cwd, path), errors="replace") as f:
                if text not in f.read():
                    failures.append(f"{path} does not contain '{text}'")
        else:
            failures.append(f"unknown check '{kind}'")
    if failures:
        failures.append("output:\n    " + "\n    ".join(output.strip().splitlines()[-12:]))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the build's bin/ directory")
    parser.add_argument("--work", required=True, help="scratch directory for the cases")
    parser.add_argument("--catalogue", default=os.path.join(HERE, "catalogue.yaml"))
    parser.add_argument("--only", action="append", help="run only this case (repeatable)")
    parser.add_argument("--sanitised", action="store_true",
                        help="the tools are built with ASan: skip the cases marked not_sanitised")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    args.work = os.path.abspath(args.work)
    with open(args.catalogue) as f:
        cases = yaml.safe_load(f)
    names = [case["name"] for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        print(f"duplicate case names: {', '.join(sorted(duplicates))}")
        return 1
    if args.only:
        unknown = set(args.only) - set(names)
        if unknown:
            print(f"no such case: {', '.join(sorted(unknown))}")
            return 1
        cases = [case for case in cases if case["name"] in args.only]
    env = dict(os.environ, ASC_LOG_LEVEL="warning")
    env.pop("ASC_PLUGIN_PATH", None)
    env.pop("PROFILER_SAMPLECONFIG", None)
    if args.sanitised:
        for case in cases:
            if "not_sanitised" in case:
                print(f"skip {case['name']} (not under ASan: {case['not_sanitised']})")
        cases = [case for case in cases if "not_sanitised" not in case]
    failed = 0
    for case in cases:
        began = time.monotonic()
        try:
            failures = run_case(case, args, env)
        except Exception as error:  # a broken builder or check is a failed case, not a stopped run
            failures = [f"the case itself failed: {type(error).__name__}: {error}"]
        took = time.monotonic() - began
        print(f"{'FAIL' if failures else 'ok  '} {case['name']} ({took:.1f} s)")
        for failure in failures:
            print("     " + failure)
        failed += bool(failures)
    print(f"{len(cases) - failed} of {len(cases)} cases pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
