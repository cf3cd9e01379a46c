#!/usr/bin/env bash
# Session 56, call 5 (the last of the device time): every GPU ctest on the final tree (session 56's
# three rules and their switch cases), on a fresh cache. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s56call5
source scripts/gpu_build.sh
gpu_build "" normjit normjit_cli test_gpu test_multigpu test_fake_driver > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(elapsed) s"
NORMJIT_CACHE_DIR=$(mktemp -d) timeout 370 ctest --test-dir "$build" -L gpu --output-on-failure -j "$(nproc)" \
  --timeout 360 > "$R/ctest-gpu.log" 2>&1
echo "ctest rc=$? at $(elapsed) s"
grep -E "tests passed|tests failed|\*\*\*Failed|Not Run|Timeout|Total Test" "$R/ctest-gpu.log" | tail -15
echo "done at $(elapsed) s"
