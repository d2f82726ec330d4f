#!/bin/sh
# ctest validator_screenshot: a whole-network comparison with a planted fault (conv2 scaled by
# 1.05, the small conv net fused and run on the NPU simulator in fp16), its HTML report rendered
# in headless Chromium and checked (tests/support/check_html_render.sh): a non-blank screenshot,
# and in the rendered page the verdict, the chart with the first failing operator marked, the
# operator table after its script ran ("N of N shown"), and the folded golden-only rows.
# Fails without Chromium.
#   html_screenshot_test.sh ASC PLUGIN_DIR PYTHON MAKE_MODEL_SCRIPT TOOLS_DIR CHECK_SCRIPT WORK_DIR
set -eu
asc=$1 plugin_dir=$2 python=$3 make_model=$4 tools=$5 check=$6 work=$7

rm -rf "$work"
mkdir -p "$work"
"$python" "$make_model" "$work"
cat > "$work/pipeline.yaml" <<YAML
name: html_screenshot
plugins: [parser_onnx, ops_builtin, fusion, backend_reference, backend_npusim, fault, validator]
stages:
  - stage: onnx.load
    with: {model: '$work/model.onnx'}
  - stage: reference.run
    with: {output_dir: '$work/golden_out', dump_dir: '$work/golden', seed: 3}
  - stage: fault.scale_weights
    with: {node: conv2, factor: 1.05}
  - stage: fusion.optimize
  - stage: npusim.run
    with: {output_dir: '$work/npu_out', dump_dir: '$work/npu', seed: 3, soc_version: Ascend310P3,
           precision_mode: force_fp16}
  - stage: validator.compare_dirs
    with: {golden_dir: '$work/golden', actual_dir: '$work/npu', html: '$work/report.html', print: false}
YAML
status=0
"$asc" run "$work/pipeline.yaml" --plugin-dir "$plugin_dir" > "$work/asc.log" 2>&1 || status=$?
if [ "$status" -ne 17 ]; then  # 17: EE7003, the precision failure the fault causes
  cat "$work/asc.log" >&2
  echo "expected the comparison to fail with EE7003 (exit 17), got exit $status" >&2
  exit 1
fi
"$check" "$tools" "$work/report.html" "$work/report.png" \
  'op_validate: whole-network comparison' 'First operator failing the precision check' \
  'class="first-divergent"' 'first failing: conv2' ' shown</span>' 'Not compared: ' 'golden-only'
