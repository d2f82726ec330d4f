#!/usr/bin/python3
"""End to end: an Ascend-style classification program on libascendcl gives the reference
backend's top-5.

Exports ResNet-50 (random weights, calibrated BatchNorm statistics), converts it as the Ascend
ResNet-50 sample's README does (fp16 input: --input_fp16_nodes, FP32 output: --output_type=FP32),
writes two images as fp16 NCHW .bin files (the sample's own input format), runs classify_sample
(tests/acl/classify_sample.cpp: the sample's ACL calls) on them, and runs the ONNX model on the
reference backend (float32 throughout) on the same fp16-rounded inputs. For every image:
  - the whole output (1000 scores) has cosine similarity >= 0.999 with the reference's (the
    bound the npusim model tests use: fp16 operands and results against float32 throughout);
  - the top-5 class indexes are the reference's, rank by rank, wherever the reference's score
    at that rank is above the next rank's by more than twice the largest score difference
    between the two outputs: closer scores are a tie at fp16 precision, which neither the card
    nor this simulator can order the reference's way (with random weights, ResNet-50's top
    scores can be within 1e-3 of each other; a trained network's are not).

    check_classification.py --bin build/bin --sample build/bin/classify_sample --work DIR
"""
import argparse
import glob
import os
import re
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(command, **kwargs):
    print("+", " ".join(command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="directory with atc and asc")
    parser.add_argument("--sample", required=True, help="the classify_sample executable")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)

    onnx_path = os.path.join(args.work, "resnet50_calibrated.onnx")
    samples = os.path.join(args.work, "resnet50_samples")
    if not os.path.exists(os.path.join(samples, "input_b1.npy")):
        run([sys.executable, os.path.join(ROOT, "tools", "export_model.py"), "resnet50", onnx_path, "--opset", "11",
             "--calibrate-bn", "--sample-dir", samples, "--sample-batch", "1"])
    om_base = os.path.join(args.work, "resnet50_fp16in")
    run([os.path.join(args.bin, "atc"), f"--model={onnx_path}", "--framework=5", f"--output={om_base}",
         "--soc_version=Ascend310", "--input_format=NCHW", "--input_shape=input:1,3,224,224",
         "--input_fp16_nodes=input", "--output_type=FP32", "--log=error"])

    images = [np.load(os.path.join(samples, "input_b1.npy")).astype(np.float16),
              np.random.default_rng(7).standard_normal((1, 3, 224, 224)).astype(np.float16)]
    failures = 0
    for index, image in enumerate(images):
        bin_path = os.path.join(args.work, f"image{index}.bin")
        image.tofile(bin_path)  # fp16 NCHW, as the sample's transferPic.py writes
        npy_path = os.path.join(args.work, f"image{index}.npy")
        np.save(npy_path, image.astype(np.float32))
        out_dir = os.path.join(args.work, f"reference{index}")
        run([os.path.join(args.bin, "asc"), "run", os.path.join(ROOT, "configs", "pipelines", "run_reference.yaml"),
             "--set", f"model={onnx_path}", "--set", f"inputs={npy_path}", "--set", f"output_dir={out_dir}"])
        outputs = glob.glob(os.path.join(out_dir, "*.npy"))
        assert len(outputs) == 1, outputs
        scores = np.load(outputs[0]).astype(np.float64).reshape(-1)
        expected = [int(i) for i in np.argsort(-scores, kind="stable")[:5]]

        printed = run([args.sample, om_base + ".om", bin_path], capture_output=True, text=True).stdout
        print(printed, end="")
        got = [int(m) for m in re.findall(r"top \d: index\[(\d+)\]", printed)]
        actual = np.fromfile(bin_path + ".output0.bin", dtype=np.float32).astype(np.float64)
        cosine = float(actual @ scores / (np.linalg.norm(actual) * np.linalg.norm(scores)))
        tie = 2 * float(np.max(np.abs(actual - scores)))
        order = np.argsort(-scores, kind="stable")
        checked = [rank for rank in range(5) if scores[order[rank]] - scores[order[rank + 1]] > tie]
        wrong = [rank + 1 for rank in checked if got[rank] != expected[rank]]
        ok = cosine >= 0.999 and len(got) == 5 and not wrong
        print(f"image {index}: libascendcl top-5 {got}, reference backend top-5 {expected}; cosine {cosine:.6f}; "
              f"ranks ordered beyond fp16 ties (margin > {tie:.4f}): {[r + 1 for r in checked]}; "
              f"differing there: {wrong}: {'ok' if ok else 'MISMATCH'}")
        failures += not ok
    print(f"{len(images) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
