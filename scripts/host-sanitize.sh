#!/usr/bin/env bash
# The host code under AddressSanitizer and UndefinedBehaviorSanitizer: a Debug build of credit and its tests with
# -fsanitize=address,undefined, then every CPU-labelled test (the model, the JSON readers, the CLI's offline
# commands). No GPU needed; about 15 minutes on two cores. The package tests are left out: they build a consumer
# without the sanitizer runtime.
#   scripts/host-sanitize.sh [BUILD_DIR]   (default build-sanitize)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-sanitize}
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -O1"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$dir" -j "$(nproc)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$dir" -L cpu -E '^package_' --output-on-failure
