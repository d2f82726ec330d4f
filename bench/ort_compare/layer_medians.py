#!/usr/bin/env python3
"""Per-operator host times of ais_bench runs, grouped, and each group against an in-run control.

On a machine whose speed swings between runs, a change to some operators is measured by dividing
their time by the time of operators the change does not touch, in the same run (BENCHMARKS.md,
"Session 12"). Each DIR is an `ais_bench --output DIR --profiler` run on a backend whose profile
holds host times (the reference backend; npusim's task durations are simulated times):

    build/bin/ais_bench --model r50_b1.om --backend reference --threads 2 --loop 40 \\
        --output prof_a --output_dirname x --profiler
    bench/ort_compare/layer_medians.py prof_a prof_b --control Conv@56x56

Each operator's time is its median over the run's inferences. A group is an operator type with
its output's spatial size (`FusedConv@56x56`); `--inputs` also splits groups by the number of
inputs (`FusedConv/4@56x56`: with a residual). Prints one line per DIR: the sum of all medians
and, per group, its sum of medians divided by the control group's.
"""
import argparse
import collections
import csv
import glob
import os
import statistics
import sys


def op_summary(directory):
    paths = sorted(glob.glob(os.path.join(directory, "**", "op_summary_*.csv"), recursive=True))
    if not paths:
        raise SystemExit(f"layer_medians.py: no op_summary_*.csv under {directory} (run ais_bench with --profiler)")
    with open(paths[-1], newline="") as stream:
        return list(csv.DictReader(stream))


def group_of(row, by_inputs):
    shape = [d for d in row["Output Shapes"].split(";")[0].split(",") if d]
    spatial = "x".join(shape[2:]) if len(shape) > 2 else "-"
    inputs = f"/{len(row['Input Shapes'].split(';'))}" if by_inputs else ""
    return f"{row['OP Type']}{inputs}@{spatial}"


def group_medians(rows, by_inputs):
    """Sum of per-operator medians (ms) per group, and over every operator."""
    times = collections.defaultdict(list)
    groups = {}
    for row in rows:
        times[row["Op Name"]].append(float(row["Task Duration(us)"]))
        groups[row["Op Name"]] = group_of(row, by_inputs)
    sums = collections.defaultdict(float)
    for name, values in times.items():
        sums[groups[name]] += statistics.median(values) / 1000
    return sums, sum(sums.values())


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", metavar="DIR", help="ais_bench --output directories with --profiler")
    parser.add_argument("--control", required=True, help="the group every other is divided by, e.g. Conv@56x56")
    parser.add_argument("--inputs", action="store_true", help="also split groups by the operators' input count")
    args = parser.parse_args(argv)
    for directory in args.dirs:
        sums, total = group_medians(op_summary(directory), args.inputs)
        if args.control not in sums:
            raise SystemExit(f"layer_medians.py: no group {args.control} in {directory}; groups: {', '.join(sorted(sums))}")
        control = sums[args.control]
        ratios = "  ".join(f"{group} {value / control:.3f}" for group, value in sorted(sums.items()) if group != args.control)
        print(f"{directory}: total {total:.2f} ms, {args.control} {control:.2f} ms | {ratios}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
