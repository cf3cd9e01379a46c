#!/usr/bin/env bash
# Session 36, call 6: the GPU suite on the final tree (ctest -L gpu, pytest, the prewarmed cache
# offline, decode latency, host cost), then the contiguous 3-D table beside the peers (the shapes
# of the thirty-fourth run and 8192 x 32 x 64).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s36call6
gpu_suite_summary 450
left=$(( 592 - $(elapsed) ))
if [ "$left" -gt 60 ]; then
  REBUILD=1 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
    --heads 4608x48x128,8192x32x128,8192x8x128,4096x32x64,2048x16x256,4096x24x64,8192x16x256,8192x32x64 \
    --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d.txt" | tail -12; tail -3 "$R/3d-stderr.txt"
fi
echo "done at $(elapsed) s"
