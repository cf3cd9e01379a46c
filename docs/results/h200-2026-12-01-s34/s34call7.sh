#!/usr/bin/env bash
# Session 34, call 7: the GPU suite on the final tree (ctest -L gpu, pytest, the prewarmed cache
# offline, decode latency, host cost), then the 3-D table with the weight_shared rules' shapes.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s34call7
gpu_suite_summary 470
left=$(( 590 - $(elapsed) ))
if [ "$left" -gt 60 ]; then
  REBUILD=1 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
    --heads 4608x48x128,8192x32x128,8192x8x128,4096x32x64,2048x16x256,4096x24x64,8192x16x256 \
    --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d.txt" | tail -10
fi
echo "done at $(elapsed) s"
