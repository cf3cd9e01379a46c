#!/usr/bin/env bash
# Session 34, call 10 (the final tree): the two GPU tests whose cases moved into one helper (dense
# rows forced, the shared weight forced), then a sweep at 262144 x 128 (the 3-D table's
# 8192 x 32 x 128, 1 % behind torch.compile) with the shared weight in the space.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s34call10
build_cli test_gpu || exit 1
cache=$(mktemp -d)
NORMJIT_CACHE_DIR="$cache" timeout 160 ctest --test-dir build-gpu -L gpu -R "dense rows|shared memory$" \
  -j 3 --output-on-failure > "$R/ctest-subset.log" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "Test +#|tests passed|tests failed" "$R/ctest-subset.log"
left=$(( 270 - $(elapsed) ))
[ $left -gt 20 ] && timeout $left $nj bench --op rmsnorm --dtype bf16 --tokens 262144 --hidden 128 --reps 30 --sweep --config residency=0 > "$R/sweep-262144x128.txt" 2>&1
echo "sweep rc=$? at $(elapsed) s"; sort -k6,6n "$R/sweep-262144x128.txt" | grep -E "^rmsnorm" | head -8; grep -E "best|heuristic" "$R/sweep-262144x128.txt" | tail -3
