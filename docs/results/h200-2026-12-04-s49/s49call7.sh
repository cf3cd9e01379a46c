#!/usr/bin/env bash
# Session 49, call 7: the GPU case for the wide-row defaults on the final tree (rmsnorm's fp32 rows
# of 4097-5120 4-vectors held on 8 x 128 since call 6), against the float64 reference.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s49call7
build_cli test_gpu > /dev/null || exit 1
echo "built at $(elapsed) s"
NORMJIT_CACHE_DIR=$(mktemp -d) ctest --test-dir build-gpu -L gpu -R "wide rows held on 8-CTA" --output-on-failure > $R/wide-test.txt 2>&1
echo "wide test rc=$? at $(elapsed) s"; grep -E "tests passed|Failed|assertions|Passed" $R/wide-test.txt
