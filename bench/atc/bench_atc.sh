#!/usr/bin/env bash
# Wall time of the whole `atc` command on a model (parse, fusion, compile for the SoC, write the
# .om), against a same-run baseline: `asc` running only the parse stage (onnx.load) on the same
# model. Medians of REPEATS runs, interleaved so machine load hits both alike.
#
#   bench/atc/bench_atc.sh MODEL.onnx [REPEATS] [SOC]      (BUILD_DIR defaults to build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BUILD_DIR:-$root/build}/bin
model=$(realpath "$1"); repeats=${2:-5}; soc=${3:-Ascend310P3}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cat > "$work/parse.yaml" <<YAML
name: parse_only
plugins: [parser_onnx]
stages:
  - stage: onnx.load
    with: {model: "$model"}
YAML
now() { date +%s.%N; }
atc_times=(); parse_times=()
for _ in $(seq "$repeats"); do
  t0=$(now); (cd "$work" && "$bin/atc" --model="$model" --framework=5 --output=bench --soc_version="$soc" --log=error > /dev/null); t1=$(now)
  "$bin/asc" run "$work/parse.yaml" > /dev/null; t2=$(now)
  atc_times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  parse_times+=("$(awk -v a="$t1" -v b="$t2" 'BEGIN {print b - a}')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
atc_s=$(median "${atc_times[@]}"); parse_s=$(median "${parse_times[@]}")
echo "model $(basename "$model") on $soc, $repeats runs (medians)"
echo "  atc (parse + fusion + compile + write .om): ${atc_s} s"
echo "  baseline, parse only (asc, onnx.load):      ${parse_s} s"
echo "  ratio atc / parse: $(awk -v a="$atc_s" -v p="$parse_s" 'BEGIN {printf "%.2f", a / p}')"
