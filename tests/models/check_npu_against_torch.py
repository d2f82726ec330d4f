#!/usr/bin/python3
"""The seed's NPU path on a whole model: export with PyTorch, `atc` for each SoC (force_fp16),
`ais_bench` the .om on the simulated NPU with the exported sample input, and compare the NPU's
output with PyTorch's own output for that input (the independent expectation; the reference
backend matches it, see check_against_torch.py). The models are exported with
--calibrate-bn (BatchNorm statistics from random batches, so activations stay in fp16's range
as a trained network's do) and compiled for the sample input's shape.

    check_npu_against_torch.py --bin build/bin --model resnet50 --socs Ascend310P3,Ascend910 --work DIR

Passes when the cosine similarity of every SoC's output with PyTorch's is >= 0.999: fp16 cube
operands and fp16 results after every task, against float32 throughout.
"""
import argparse
import glob
import os
import subprocess
import sys

import numpy as np

import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def export(model, work, opset):
    onnx_path = os.path.join(work, f"{model}_calibrated_opset{opset}.onnx")
    samples = os.path.join(work, f"{model}_calibrated_samples")
    if not (os.path.exists(onnx_path) and os.path.exists(os.path.join(samples, "torch_output_b1.npy"))):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "export_model.py"), model, onnx_path,
                        "--opset", str(opset), "--calibrate-bn", "--sample-dir", samples, "--sample-batch", "1"],
                       check=True)
    return onnx_path, samples


def input_shape_flag(onnx_path, sample):
    """atc's --input_shape fixing the model's one input to the sample's shape."""
    graph = onnx.load(onnx_path, load_external_data=False).graph
    weights = {t.name for t in graph.initializer}
    inputs = [i.name for i in graph.input if i.name not in weights]
    assert len(inputs) == 1, inputs
    return f"--input_shape={inputs[0]}:{','.join(map(str, sample.shape))}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="directory with atc and ais_bench")
    parser.add_argument("--model", required=True)
    parser.add_argument("--socs", default="Ascend310P3,Ascend910")
    parser.add_argument("--opset", type=int, default=11)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    onnx_path, samples = export(args.model, args.work, args.opset)
    shape_flag = input_shape_flag(onnx_path, np.load(os.path.join(samples, "input_b1.npy")))
    torch_out = np.load(os.path.join(samples, "torch_output_b1.npy")).astype(np.float64)

    failures = 0
    for soc in args.socs.split(","):
        om = os.path.join(args.work, f"{args.model}_{soc}")
        subprocess.run([os.path.join(args.bin, "atc"), f"--model={onnx_path}", "--framework=5", f"--output={om}",
                        f"--soc_version={soc}", shape_flag, "--precision_mode=force_fp16", "--log=error"], check=True,
                       cwd=args.work)
        out_dir = os.path.join(args.work, f"{args.model}_{soc}_bench")
        subprocess.run([os.path.join(args.bin, "ais_bench"), "--model", om + ".om", "--input",
                        os.path.join(samples, "input_b1.npy"), "--output", out_dir, "--output_dirname", "run",
                        "--outfmt", "NPY"], check=True)
        outputs = sorted(glob.glob(os.path.join(out_dir, "run", "*.npy")))
        if len(outputs) != 1:
            print(f"{args.model} on {soc}: expected one output file, found {outputs}")
            failures += 1
            continue
        ours = np.load(outputs[0]).astype(np.float64)
        if ours.shape != torch_out.shape:
            print(f"{args.model} on {soc}: shape {ours.shape} != torch {torch_out.shape}")
            failures += 1
            continue
        cosine = float(np.dot(ours.ravel(), torch_out.ravel()) /
                       (np.linalg.norm(ours) * np.linalg.norm(torch_out) + 1e-300))
        ok = cosine >= 0.999
        print(f"{args.model} on {soc} (force_fp16): max abs error {np.abs(ours - torch_out).max():.3g} "
              f"(largest |torch| {np.abs(torch_out).max():.3g}), cosine {cosine:.6f}: {'ok' if ok else 'FAILED'}")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
