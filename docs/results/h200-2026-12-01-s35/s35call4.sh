#!/usr/bin/env bash
# Session 35, call 4: the GPU suite on the final tree (ctest -L gpu, pytest, the prewarmed cache
# offline, decode latency, host cost), then per-head rows of q/k viewed in a fused qkv tensor
# (strided) beside the peers, with one contiguous shape for reference.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s35call4
gpu_suite_summary 450
left=$(( 592 - $(elapsed) ))
if [ "$left" -gt 45 ]; then
  REBUILD=1 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
    --heads 2048x32x128/48,4096x32x128/48,8192x32x128/48,16384x8x128/48,8192x32x64/48,4096x16x256/24,8192x32x128 \
    --csv "$R/3d-strided.csv" > "$R/3d-strided.txt" 2> "$R/3d-strided-stderr.txt"
  echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d-strided.txt" | tail -12; tail -5 "$R/3d-strided-stderr.txt"
fi
echo "done at $(elapsed) s"
