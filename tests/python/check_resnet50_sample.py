#!/usr/bin/python3
"""The pyACL ResNet-50 sample's calls (resnet50_sample.py) on a generated JPEG: its top-1 class is
in the reference backend's top-5 for the same preprocessed input.

Exports ResNet-50 (random weights, calibrated BatchNorm statistics; tools/export_model.py),
converts it as the sample's README does (fp16 input through --input_fp16_nodes, FP32 output),
draws a 320x240 JPEG (smooth gradients and shapes, fixed seed), runs resnet50_sample.py on it,
and runs the ONNX model on the reference backend (float32) on the sample's own preprocessing of
the same JPEG.

    check_resnet50_sample.py --work DIR     (PYTHONPATH=<build>/python, ASC_BIN_DIR=<build>/bin)
"""
import argparse
import glob
import os
import re
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw

import ascend_tools

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from resnet50_sample import preprocess  # noqa: E402  (the sample's preprocessing, shared)


def run(command, **kwargs):
    print("+", " ".join(command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


def draw_jpeg(path):
    rng = np.random.default_rng(2026)
    y, x = np.mgrid[0:240, 0:320]
    pixels = np.stack([x * 255 / 320, y * 255 / 240, (x + y) * 255 / 560], axis=-1)
    image = Image.fromarray(pixels.astype(np.uint8))
    draw = ImageDraw.Draw(image)
    for _ in range(6):
        x0, y0 = rng.integers(0, 260), rng.integers(0, 180)
        box = [int(x0), int(y0), int(x0 + rng.integers(30, 90)), int(y0 + rng.integers(30, 90))]
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        (draw.ellipse if rng.random() < 0.5 else draw.rectangle)(box, fill=colour)
    image.save(path, "JPEG", quality=90)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    bin_dir = ascend_tools.bin_dir()

    onnx_path = os.path.join(args.work, "resnet50.onnx")
    if not os.path.exists(onnx_path):
        run([sys.executable, os.path.join(ROOT, "tools", "export_model.py"), "resnet50", onnx_path, "--opset", "11",
             "--calibrate-bn"])
    om = ascend_tools.atc(model=onnx_path, framework=5, output=os.path.join(args.work, "resnet50"),
                          soc_version="Ascend310", input_format="NCHW", input_shape="input:1,3,224,224",
                          input_fp16_nodes="input", output_type="FP32", log="error")
    images = os.path.join(args.work, "data")
    os.makedirs(images, exist_ok=True)
    jpeg = os.path.join(images, "generated.jpg")
    draw_jpeg(jpeg)

    printed = run([sys.executable, os.path.join(HERE, "resnet50_sample.py"), "--model_path", om, "--images_path",
                   images], capture_output=True, text=True).stdout
    print(printed, end="")
    top5 = [int(m) for m in re.findall(r"^\[(\d+)\]:", printed, re.MULTILINE)]
    assert len(top5) == 5, printed

    npy = os.path.join(args.work, "input.npy")
    np.save(npy, preprocess(jpeg).astype(np.float32))
    out_dir = os.path.join(args.work, "reference")
    run([os.path.join(bin_dir, "asc"), "run", os.path.join(ROOT, "configs", "pipelines", "run_reference.yaml"),
         "--set", f"model={onnx_path}", "--set", f"inputs={npy}", "--set", f"output_dir={out_dir}"])
    outputs = glob.glob(os.path.join(out_dir, "*.npy"))
    assert len(outputs) == 1, outputs
    scores = np.load(outputs[0]).astype(np.float64).reshape(-1)
    reference = [int(i) for i in np.argsort(-scores, kind="stable")[:5]]
    ok = top5[0] in reference
    print(f"pyACL sample top-5 {top5}; reference backend top-5 {reference}: top-1 {top5[0]} "
          f"{'is' if ok else 'is NOT'} in the reference's top-5")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
