#!/usr/bin/env bash
# The README's main job: the seed's whole flow on a fresh machine.
#   1. export ResNet-50 from PyTorch to ONNX (opset 11, dynamic batch, random weights), as the seed's step 1
#   2. atc: compile it for Ascend310P3 (force_fp16, fusion on) into resnet50.om
#   3. ais_bench: run the .om on the simulated NPU, once with every operator's output dumped and
#      once with profiling
#   4. the CPU golden: the original ONNX model on the reference backend, same input, every node dumped
#   5. op_validate: every NPU operator against the golden, matched through provenance (PASS, or the
#      job stops: a precision failure exits 1)
#   6. modelTrade: where the simulated time goes, with advice (JSON and HTML)
# Outputs land in out/ (override with OUT_DIR); the last lines say where the reports are.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-$root/out}
bash "$root/tools/setup.sh"
# Only what the job runs: the tools and the plugins they load.
bash "$root/tools/build.sh" asc atc ais_bench op_validate modelTrade parser_onnx ops_builtin fusion backend_reference \
  backend_npusim ais_bench_runner validator profiler
build=${BUILD_DIR:-$root/build}
bin=$build/bin
mkdir -p "$out"
cd "$out"

echo "== step 1: export ResNet-50 to ONNX"
[ -f resnet50.onnx ] || /usr/bin/python3 "$root/tools/export_model.py" resnet50 resnet50.onnx
/usr/bin/python3 -c "import numpy as np; np.save('input.npy', np.random.RandomState(0).rand(1, 3, 224, 224).astype(np.float32))"

echo "== step 2: atc"
"$bin/atc" --model=resnet50.onnx --framework=5 --output=resnet50 --soc_version=Ascend310P3 \
  --input_shape="input:1,3,224,224" --input_format=NCHW --precision_mode=force_fp16 --log=info

echo "== step 3: ais_bench (dumps, then profiling)"
rm -rf bench
"$bin/ais_bench" --model resnet50.om --input input.npy --output bench --output_dirname dump_run --dump 1
"$bin/ais_bench" --model resnet50.om --input input.npy --output bench --output_dirname profile_run --profiler 1

echo "== step 4: golden: the ONNX model on the reference backend"
rm -rf golden golden_out
"$bin/asc" run "$root/configs/pipelines/run_reference.yaml" --set model=resnet50.onnx --set inputs=input.npy \
  --set output_dir=golden_out --set dump_dir=golden

echo "== step 5: op_validate, every operator (fp16 NPU vs fp32 golden)"
# The whole-network defaults: msit's CosineSimilarity >= 0.99 and a RelativeEuclideanDistance
# within 10 float16 epsilons, NaN/Inf failing outright (docs/op_validate.md, "Whole-network criteria").
validate_status=0
"$bin/op_validate" --golden_dir=golden --actual_dir=bench/dump --output=validate.json --html=validate.html \
  > validate.txt || validate_status=$?
tail -n 12 validate.txt
[ "$validate_status" -eq 0 ] || { echo "op_validate failed (exit $validate_status): see validate.txt"; exit "$validate_status"; }

echo "== step 6: modelTrade on the simulated profile"
prof=$(ls -d bench/profiler/PROF_* | head -n 1)
"$bin/modelTrade" --report="$prof" --output=perf.json --format=json,html,trace

echo "== step 7: the async pipeline on libascendcl (ACL C runtime)"
"$bin/atc" --model=resnet50.onnx --framework=5 --output=resnet50_acl --soc_version=Ascend310 \
  --input_shape="input:1,3,224,224" --input_format=NCHW --input_fp16_nodes=input --output_type=FP32
"$bin/bench_acl_pipeline" resnet50_acl.om --images 8 --rounds 1

echo
echo "reports:"
echo "  offline model        $out/resnet50.om  (fusion: $out/fusion_result.json)"
echo "  precision (per op)   $out/validate.txt, $out/validate.json, $out/validate.html"
echo "  profile analysis     $out/perf.json, $out/perf.html, $out/perf.trace.json"
echo "  raw profile          $out/$prof"
