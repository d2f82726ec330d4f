#!/usr/bin/python3
"""Turning any single pass off by name changes exactly that pass's effect, on the real models.

    check_pass_independence.py --asc build/bin/asc --work DIR [--models resnet50,...]

For every model (exported as check_models.py does, into the same DIR): run fusion.optimize
(configs/fusion/optimize.yaml, scope fusion on) with every pass, then once more for every pass
that had an effect, with that pass alone disabled. The disabled pass must not run, the kernel
count after fusion must not drop, and every other pass must report the same match and effect
counts, except the dependencies listed (and explained) in pass_dependencies.py, which may move
only in their stated direction. Only the fusion stage runs (no model execution): the reference
outputs with single passes off are check_models.py's --bisect job.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_models import MODELS, ROOT, export  # noqa: E402
from pass_dependencies import unexplained_changes  # noqa: E402

PIPELINE = os.path.join(ROOT, "configs", "fusion", "optimize.yaml")
DEFAULT_MODELS = "resnet50,mobilenet_v2,bert_encoder,yolo_style"


def optimize(asc, model_path, input_shape, result_file, disabled=""):
    subprocess.run([asc, "run", PIPELINE, "--set", f"model={model_path}", "--set", f"input_shape={input_shape}",
                    "--set", "scope_fusion=true", "--set", f"disabled_passes={disabled}",
                    "--set", f"result_file={result_file}"], check=True, stdout=subprocess.DEVNULL)
    with open(result_file) as f:
        result = json.load(f)["asc"]
    counts = {p["name"]: (p["match_times"], p["effect_times"]) for p in result["passes"] if p["ran"]}
    return counts, result["kernels"]["after"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--asc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--models", default=DEFAULT_MODELS)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures = []
    for model in args.models.split(","):
        path = export(model, args.work)
        input_shape = MODELS[model][1]
        out = os.path.join(args.work, f"{model}_independence")
        os.makedirs(out, exist_ok=True)
        reference, kernels = optimize(args.asc, path, input_shape, os.path.join(out, "all.json"))
        fired = [name for name, (_, effects) in reference.items() if effects > 0]
        print(f"{model}: kernels after fusion {kernels}; passes with an effect: {', '.join(fired)}")
        for off in fired:
            without, off_kernels = optimize(args.asc, path, input_shape, os.path.join(out, f"no_{off}.json"), off)
            moved = {name: (reference[name][1], without.get(name, (0, 0))[1])
                     for name in reference if name != off and without.get(name) != reference[name]}
            unexplained = unexplained_changes(off, reference, without)
            problems = []
            if off in without:
                problems.append("the pass still ran")
            if off_kernels < kernels:
                problems.append(f"fewer kernels without it ({off_kernels} < {kernels})")
            if unexplained:
                problems.append(f"unexplained count changes {unexplained}")
            moved_text = ", ".join(f"{name} {a}->{b}" for name, (a, b) in moved.items()) or "none"
            print(f"  without {off}: kernels {off_kernels}; other passes' effects moved: {moved_text}"
                  f"{': FAILED, ' + '; '.join(problems) if problems else ''}")
            if problems:
                failures.append(f"{model} without {off}: {'; '.join(problems)}")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
