#!/usr/bin/env bash
# Installs credit's build dependencies on a fresh Debian/Ubuntu machine that already has the
# CUDA toolkit (nvcc), then configures and builds into ./build. One command:
#   bash scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=/usr/local/cuda/bin:$PATH
  else
    echo "setup.sh: nvcc not found: install the CUDA toolkit (12.8 or newer) first" >&2
    exit 1
  fi
fi

packages="cmake ninja-build g++ libcli11-dev nlohmann-json3-dev libfmt-dev libspdlog-dev catch2 zlib1g-dev"
missing=""
for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
