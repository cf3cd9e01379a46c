#!/usr/bin/env bash
# Session 33, call 10: the final tree (47a82c0: the bench's problem built in one place): the GPU
# tests the two rules touch, and the bench labelling the dense kernels it runs.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s33call10
build_cli test_gpu || exit 1
cache=$(mktemp -d)
NORMJIT_CACHE_DIR="$cache" timeout 200 ctest --test-dir build-gpu -L gpu -R "switch kernels$|dense rows|several rows per thread" \
  -j 3 --output-on-failure > "$R/ctest-subset.log" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "Test +#|tests passed|tests failed" "$R/ctest-subset.log"
timeout 40 $nj bench --op rmsnorm --dtype bf16 --tokens 65536,98304,221184 --hidden 64,128 --reps 40 > "$R/bench.txt" 2>&1
echo "bench rc=$? at $(elapsed) s"; grep -E "^rmsnorm" "$R/bench.txt" | awk '{print $3,$4,$5,$6,$10}'
