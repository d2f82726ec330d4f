#!/usr/bin/env bash
# The functional-emulation suite against ONNX Runtime (BENCHMARKS.md): ResNet-50 b1 and b8,
# MobileNetV2, ViT-B/16 and a BERT-base encoder (seq 512), each on the reference and npusim
# backends. One bench_ort_compare invocation per model and backend, so every ratio is against
# ONNX Runtime runs of the same invocation and every peak RSS is that backend's alone.
#
#   bench/ort_compare/run_suite.sh [--build DIR] [--work DIR] [--threads N] [--rounds N] [--quick]
#
# Runs alternate within each round (bench_ort_compare --interleave), so a VM whose speed drifts
# slows both runtimes alike.
#
# Models are exported into the work directory (default /tmp/asc_ort_suite) the first time, with
# tools/export_model.py (random weights; never commit them). Needs `npm install` in
# DIR/bench/ort_compare first. Prints each invocation's output and a Markdown table at the end:
# milliseconds are the median over rounds of each round's median; the ratios are the median over
# rounds of each round's ratio (wall time, and CPU time of all the process's threads), with the
# lowest and highest round's wall-time ratio beside the median. npusim rows
# also give the peak RSS of the user's path for that backend: `atc` to an .om (in the work
# directory), then `ais_bench --model X.om --loop 2` (GNU time's maximum resident set), which
# holds only the compiled model, not the parsed ONNX graph beside it as this benchmark does.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build=$source_dir/build
work=/tmp/asc_ort_suite
threads=2
rounds=3
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --quick) quick=1; shift ;;  # 1 round, few runs: checks the suite works, not a measurement
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_suite.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
bench=$build/bin/bench_ort_compare
[ -x "$bench" ] || { echo "run_suite.sh: $bench not built (ninja -C $build bench_ort_compare)" >&2; exit 2; }
mkdir -p "$work"

export_model() {  # NAME FILE [export_model.py options...]
  local name=$1 file=$2
  shift 2
  [ -f "$work/$file" ] && return
  echo "exporting $name to $work/$file"
  /usr/bin/python3 "$source_dir/tools/export_model.py" "$name" "$work/$file" "$@" > "$work/$file.log"
}
export_model resnet50 resnet50.onnx
export_model mobilenet_v2 mobilenet_v2.onnx --static --calibrate-bn  # else its outputs underflow fp16
export_model vit_b_16 vit_b_16.onnx --static --opset 17
export_model bert_base_encoder bert_base_encoder.onnx --static --opset 17

# label | model file | input shape | runs | warm-up runs
cases=(
  "ResNet-50 b1|resnet50.onnx|input:1,3,224,224|20|3"
  "ResNet-50 b8|resnet50.onnx|input:8,3,224,224|10|2"
  "MobileNetV2 b1|mobilenet_v2.onnx||20|3"
  "ViT-B/16 b1|vit_b_16.onnx||10|2"
  "BERT-base encoder b1 seq 512|bert_base_encoder.onnx||5|1"
)
table="| model | backend | ONNX Runtime ms | ours ms | median ratio (wall) | rounds' ratios (wall) | median ratio (CPU time) | ours peak RSS MiB | ONNX Runtime peak RSS MiB | ais_bench on the .om, peak RSS MiB |
|---|---|---|---|---|---|---|---|---|---|"
# Peak RSS (MiB) of ais_bench on FILE compiled by atc for the shape SPEC (empty: as exported).
ais_bench_peak_rss() {
  local file=$1 spec=$2 om
  om="$work/${file%.onnx}${spec:+_${spec//[^0-9]/_}}"
  if [ ! -f "$om.om" ]; then
    # In the work directory: atc writes fusion_result.json where it runs, as ATC does.
    (cd "$work" && "$build/bin/atc" --model="$work/$file" --framework=5 --output="$om" --soc_version=Ascend310P3 \
      --precision_mode=force_fp16 ${spec:+--input_shape="$spec"} > "$om.atc.log" 2>&1) || { echo "atc failed"; return; }
  fi
  /usr/bin/time -f %M -o "$om.rss" "$build/bin/ais_bench" --model "$om.om" --loop 2 --threads "$threads" > "$om.ais.log" 2>&1 \
    && echo $(( $(tail -1 "$om.rss") / 1024 )) || echo "ais_bench failed"
}

echo "suite: $threads threads, $rounds rounds; $(uptime)"
for entry in "${cases[@]}"; do
  IFS='|' read -r label file shape runs warmup <<< "$entry"
  [ "$quick" = 1 ] && { runs=2; warmup=1; rounds=1; }
  for backend in reference npusim; do
    args=("$work/$file" --threads "$threads" --runs "$runs" --warmup "$warmup" --rounds "$rounds" --backends "$backend" --interleave)
    [ -n "$shape" ] && args+=(--input-shape "$shape")
    echo "== $label, $backend"
    out=$("$bench" "${args[@]}")
    echo "$out"
    ort_ms=$(echo "$out" | awk '/: onnxruntime/ {print $4}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    ours_ms=$(echo "$out" | awk -v b="$backend" '$1 == "round" && $3 == b {print $4}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    ratio=$(echo "$out" | awk '/median ratio/ {print $(NF - 2)}')
    # The lowest and highest round's ratio: how far the median stands from the noise.
    ratio_range=$(echo "$out" | awk -v b="$backend" '$1 == "round" && $3 == b {for (i = 4; i < NF; ++i) if ($i == "ratio") print $(i + 1)}' |
      sort -n | awk 'NR == 1 {low = $1} {high = $1} END {print low "-" high}')
    cpu_ratio=$(echo "$out" | awk '/median ratio/ {sub(/\)/, "", $NF); print $NF}')
    ours_rss=$(echo "$out" | awk '/^peak RSS/ {print $4}')
    ort_rss=$(echo "$out" | awk '/^peak RSS/ {for (i = 1; i <= NF; ++i) if ($i == "onnxruntime") print $(i + 1)}')
    user_rss=-
    [ "$backend" = npusim ] && user_rss=$(ais_bench_peak_rss "$file" "$shape")
    table+="
| $label | $backend | $ort_ms | $ours_ms | $ratio | $ratio_range | $cpu_ratio | $ours_rss | $ort_rss | $user_rss |"
  done
done
echo
echo "suite done; $(uptime)"
echo "$table"
