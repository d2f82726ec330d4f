#!/usr/bin/python3
"""Real models before and after fusion, through `asc run configs/fusion/compare_fused.yaml`.

    check_models.py --asc build/bin/asc --work DIR [--models resnet50,...] [--bisect bert_encoder,...]

For every model: export it with tools/export_model.py (random weights), run the reference
backend on the unfused graph, run fusion.optimize (every pass, scope fusion on), run the
reference backend on the fused graph with the same seeded inputs, and require
cosine >= 0.99999 and max|fused - unfused| <= 1e-4 * max|unfused| for every output. Prints the
kernel counts before -> after and the pass timings from fusion_result.json.

For the --bisect models, every pass that had an effect is then turned off alone: the outputs
must still agree, that pass must not run, and every other pass must report the same
match/effect counts, except the dependencies pass_dependencies.py lists and explains
(check_pass_independence.py checks the counts on every model, without running them).
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pass_dependencies import unexplained_changes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PIPELINE = os.path.join(ROOT, "configs", "fusion", "compare_fused.yaml")

# model -> (export flags, input_shape for the static run). The YOLO-style model is exported with
# calibrated BatchNorm statistics: with the default ones its random activations saturate, its
# output no longer depends on the input (188 distinct values in 19500) and fused and unfused
# outputs agree exactly whatever the passes do.
MODELS = {
    "resnet50": (["--no-constant-folding"], "input:1,3,224,224"),
    "mobilenet_v2": ([], "input:1,3,224,224"),
    "bert_encoder": ([], "input_ids:1,64"),
    "bert_encoder_dynamic": ([], ""),
    "yolo_style": (["--no-constant-folding", "--calibrate-bn"], "images:1,3,320,320"),
}

def export(model, work):
    base = model.replace("_dynamic", "")
    flags, _ = MODELS[model]
    suffix = "".join({"--no-constant-folding": "_nofold", "--calibrate-bn": "_calibrated"}[flag] for flag in flags)
    path = os.path.join(work, f"{base}{suffix}.onnx")
    if os.path.exists(path) and "--no-constant-folding" in flags and batch_norm_count(path) == 0:
        os.remove(path)  # exported before tools/export_model.py kept BatchNormalization
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "export_model.py"), base, path] + flags,
                       check=True, stdout=subprocess.DEVNULL)
    return path


def batch_norm_count(path):
    import onnx
    return sum(node.op_type == "BatchNormalization" for node in onnx.load(path, load_external_data=False).graph.node)


def run_compare(asc, model_path, input_shape, out, disabled=""):
    command = [asc, "run", PIPELINE, "--set", f"model={model_path}", "--set", f"work={out}",
               "--set", f"input_shape={input_shape}", "--set", f"disabled_passes={disabled}"]
    subprocess.run(command, check=True)
    with open(os.path.join(out, "fusion_result.json")) as f:
        result = json.load(f)
    worst = None
    for name in sorted(os.listdir(os.path.join(out, "unfused"))):
        a = np.load(os.path.join(out, "unfused", name)).astype(np.float64)
        b = np.load(os.path.join(out, "fused", name)).astype(np.float64)
        if a.shape != b.shape:
            return result, (name, 0.0, float("inf"))
        cosine = float(np.dot(a.ravel(), b.ravel()) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-300))
        relative = float(np.abs(a - b).max() / (np.abs(a).max() + 1e-30))
        if worst is None or relative > worst[2] or cosine < worst[1]:
            worst = (name, cosine, relative)
    return result, worst


def agrees(worst):
    return worst[1] >= 0.99999 and worst[2] <= 1e-4


def counts(result):
    return {p["name"]: (p["match_times"], p["effect_times"]) for p in result["asc"]["passes"] if p["ran"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--asc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--bisect", default="bert_encoder,yolo_style")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures = []
    summary = []
    for model in args.models.split(","):
        path = export(model, args.work)
        if "--no-constant-folding" in MODELS[model][0] and batch_norm_count(path) == 0:
            failures.append(f"{model}: the --no-constant-folding export has no BatchNormalization "
                            "(tools/export_model.py must export with training=TrainingMode.PRESERVE)")
        input_shape = MODELS[model][1]
        result, worst = run_compare(args.asc, path, input_shape, os.path.join(args.work, model))
        kernels = result["asc"]["kernels"]
        timings = ", ".join(f"{p['name']} {p['time_ms']:.2f}" for p in result["asc"]["passes"] if p["ran"])
        line = (f"{model}: kernels {kernels['before']} -> {kernels['after']}, nodes {result['asc']['nodes']['before']} -> "
                f"{result['asc']['nodes']['after']}, passes {result['asc']['time_ms']:.1f} ms; "
                f"worst output {worst[0]}: cosine {worst[1]:.9f}, max rel err {worst[2]:.2e}")
        print(line)
        print(f"  pass times (ms): {timings}")
        summary.append(line)
        if not agrees(worst):
            failures.append(f"{model}: fused output differs ({worst})")
        if model not in args.bisect.split(","):
            continue
        reference = counts(result)
        for name, (matches, effects) in reference.items():
            if effects == 0:
                continue
            off_result, off_worst = run_compare(args.asc, path, input_shape, os.path.join(args.work, f"{model}_no_{name}"), name)
            off_counts = counts(off_result)
            changed = sorted(unexplained_changes(name, reference, off_counts))
            status = "ok" if name not in off_counts and agrees(off_worst) and not changed else "FAILED"
            print(f"  without {name}: kernels {off_result['asc']['kernels']['after']}, "
                  f"max rel err {off_worst[2]:.2e}, other passes changed: {changed or 'none'}: {status}")
            if status != "ok":
                failures.append(f"{model} without {name}: changed {changed}, worst {off_worst}")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
