#!/usr/bin/env bash
# Installs everything ascend-tools needs to build, test and run its main job, from Debian 12's
# packages only. Idempotent: skips apt when every package is already installed.
# chromium (and a font for it): the suite renders the HTML reports in headless Chromium
# (profiler_screenshot, validator_screenshot) and fails without it. clang and its runtime
# libraries (libFuzzer, ASan, UBSan) build the fuzz harnesses the suite runs (tests/fuzz).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  libboost-dev libboost-program-options-dev libboost-filesystem-dev
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  libyaml-cpp-dev libeigen3-dev nlohmann-json3-dev doctest-dev
  python3 python3-dev python3-numpy python3-onnx python3-torch python3-torchvision
  pybind11-dev python3-pytest python3-pil
  chromium fonts-dejavu-core
  clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
