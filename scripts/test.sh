#!/usr/bin/env bash
# Builds normjit and runs the test suites: the cpu label everywhere; gpu tests run when a GPU
# is present and are reported as skipped otherwise; the Python package's tests when python3 is
# available.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"

# Python package: API/signature tests always; torch-based tests when torch is installed; GPU
# tests when a GPU is present.
if command -v python3 >/dev/null && python3 -c 'import pytest' 2>/dev/null; then
  NORMJIT_LIBRARY="$build/libnormjit.so" python3 -m pytest -q -rs -p no:cacheprovider "$root/python/tests"
fi
