#!/usr/bin/env python3
"""CPU seconds per CMake target of a build measured with bench/build/cpu_launcher.sh.

    cpu_per_target.py BUILD_DIR [--top N] [TARGET...]

Reads BUILD_DIR/cpu_steps.log (user, sys and output of every compile and link step; when a step
ran more than once the last run counts) and prints the total and the N costliest targets. With
TARGETs, only the steps those ninja targets need (`ninja -t commands`), e.g. tools/main.sh's list.
"""
import argparse
import collections
import os
import re
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("build_dir")
parser.add_argument("--top", type=int, default=10)
parser.add_argument("targets", nargs="*", default=["all"])
args = parser.parse_intermixed_args()

commands = subprocess.run(["ninja", "-C", args.build_dir, "-t", "commands", *args.targets],
                          capture_output=True, text=True, check=True).stdout
needed = set(re.findall(r" -o (\S+)", commands))
cpu = {}
with open(os.path.join(args.build_dir, "cpu_steps.log")) as log:
    for line in log:
        fields = line.split()
        if len(fields) >= 3 and re.fullmatch(r"[\d.]+", fields[0]) and fields[2] in needed:
            cpu[fields[2]] = float(fields[0]) + float(fields[1])

per_target = collections.Counter()
steps = collections.Counter()
for output, seconds in cpu.items():
    match = re.search(r"CMakeFiles/([^/]+)\.dir/", output)  # an object file
    target = match.group(1) if match else re.sub(r"^lib|\.(so|a)(\.[\d.]+)?$", "", os.path.basename(output))
    per_target[target] += seconds
    steps[target] += 1
print(f"{sum(cpu.values()):.1f} CPU s over {len(cpu)} of {len(needed)} compile and link steps")
for target, seconds in per_target.most_common(args.top):
    print(f"{seconds:8.1f} s {steps[target]:4d} steps  {target}")
