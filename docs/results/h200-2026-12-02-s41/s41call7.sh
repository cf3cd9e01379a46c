#!/usr/bin/env bash
# Session 41, call 7: the tree with the wide rows' plain loads and output hint up to
# kHintedWidePlainBytes (call 6): the GPU tests of the output hint, of forced hinted stores and of
# the wide rows' switch rows; then the defaults at the new switch, one round.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s41call7
build_cli test_gpu || exit 1
timeout 200 build-gpu/tests/gpu/test_gpu "default configs: rmsnorm's output kept in L2 past its byte thresholds,forced configs: output stores with and without the L2 evict-last hint,default configs at the row counts that switch kernels: wide rows" > "$R/gputest.txt" 2>&1
echo "gpu tests rc=$? at $(elapsed) s"; tail -3 "$R/gputest.txt"
call_deadline=280
bench_run sw --op rmsnorm --dtype bf16 --hidden 32768 --tokens 2048,2049 --compare "default;loads=3,keep_out=0"
bench_run sw28 --op rmsnorm --dtype bf16 --hidden 28672 --tokens 2048,2340 --compare "default;loads=3,keep_out=0"
grep -E "x[01]\.[0-9]+|FAILED" "$R/sw.txt" "$R/sw28.txt" | cut -c1-150
echo "done at $(elapsed) s"
