#!/usr/bin/env bash
# The README's main job: the seed's flow, as far as the project implements it today.
#   1. export ResNet-50 from PyTorch to ONNX (opset 11, dynamic batch, random weights), as the seed's step 1
#   2. parse it and run it on the reference (CPU golden) backend with seeded random input
# Outputs land in out/ (override with OUT_DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-$root/out}
bash "$root/tools/setup.sh"
bash "$root/tools/build.sh"
build=${BUILD_DIR:-$root/build}
mkdir -p "$out"

echo "== step 1: export ResNet-50 to ONNX"
[ -f "$out/resnet50.onnx" ] || /usr/bin/python3 "$root/tools/export_model.py" resnet50 "$out/resnet50.onnx"

echo "== step 2: run it on the reference backend (batch 1)"
"$build/bin/asc" run "$root/configs/pipelines/run_reference.yaml" --log info \
  --set model="$out/resnet50.onnx" --set output_dir="$out/reference" --set input_shape=input:1,3,224,224
echo "reference outputs: $(ls "$out/reference")  (in $out/reference)"
