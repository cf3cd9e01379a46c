#!/usr/bin/env bash
# Session 36, call 7: strided per-head rows (q/k viewed in a fused qkv tensor) beside the peers on
# the final tree: the thirty-fifth run's shapes and two more of head_dim 64.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s36call7
REBUILD=1 timeout 560 bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
  --heads 2048x32x128/48,4096x32x128/48,8192x32x128/48,16384x8x128/48,8192x32x64/48,4096x32x64/48,32768x8x64/48,4096x16x256/24 \
  --csv "$R/3d-strided.csv" > "$R/3d-strided.txt" 2> "$R/3d-strided-stderr.txt"
echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d-strided.txt" | tail -12; tail -3 "$R/3d-strided-stderr.txt"
