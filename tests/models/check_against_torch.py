#!/usr/bin/python3
"""Exports a model with PyTorch, runs it through `asc run <pipeline>`, and compares every
output with PyTorch's own output for the same input (the independent expectation).

    check_against_torch.py --asc build/bin/asc --pipeline configs/pipelines/run_reference.yaml \
        --model resnet50 --batches 1,4 --work DIR [--opset 11]

Passes when, per batch size, |ours - torch| <= atol + rtol * |torch| elementwise (rtol 1e-3,
atol 1e-4 times the largest |torch| value: float32 accumulation order differs between the two)
and the cosine similarity is >= 0.99999.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def export(model, work, batches, opset):
    onnx_path = os.path.join(work, f"{model}_opset{opset}.onnx")
    samples = os.path.join(work, f"{model}_samples")
    wanted = [os.path.join(samples, f"torch_output_b{b}.npy") for b in batches]
    if not (os.path.exists(onnx_path) and all(os.path.exists(p) for p in wanted)):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "export_model.py"), model, onnx_path,
                        "--opset", str(opset), "--sample-dir", samples,
                        "--sample-batch", ",".join(map(str, batches))], check=True)
    return onnx_path, samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--asc", required=True)
    parser.add_argument("--pipeline", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--batches", default="1")
    parser.add_argument("--opset", type=int, default=11)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    os.makedirs(args.work, exist_ok=True)
    onnx_path, samples = export(args.model, args.work, batches, args.opset)

    failures = 0
    for batch in batches:
        out_dir = os.path.join(args.work, f"{args.model}_b{batch}_out")
        subprocess.run([args.asc, "run", args.pipeline, "--set", f"model={onnx_path}",
                        "--set", f"inputs={os.path.join(samples, f'input_b{batch}.npy')}",
                        "--set", f"output_dir={out_dir}"], check=True)
        ours = np.load(os.path.join(out_dir, "output.npy")).astype(np.float64)
        torch_out = np.load(os.path.join(samples, f"torch_output_b{batch}.npy")).astype(np.float64)
        if ours.shape != torch_out.shape:
            print(f"{args.model} batch {batch}: shape {ours.shape} != torch {torch_out.shape}")
            failures += 1
            continue
        err = np.abs(ours - torch_out)
        atol = 1e-4 * np.abs(torch_out).max()
        within = err <= atol + 1e-3 * np.abs(torch_out)
        cosine = float(np.dot(ours.ravel(), torch_out.ravel()) /
                       (np.linalg.norm(ours) * np.linalg.norm(torch_out) + 1e-300))
        ok = bool(within.all()) and cosine >= 0.99999
        print(f"{args.model} batch {batch}: shape {ours.shape}, max abs error {err.max():.3g}, "
              f"cosine {cosine:.8f}, {within.mean() * 100:.3f}% within tolerance: {'ok' if ok else 'FAILED'}")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
