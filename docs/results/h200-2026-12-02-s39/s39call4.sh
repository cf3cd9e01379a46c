#!/usr/bin/env bash
# Session 39, call 4: the GPU suite with head blocks for 24 heads (the new default at strided
# rows of 64 from kStridedSharedRows8 rows); then the strided 24-head views beside the peers.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s39call4
gpu_suite_summary 430
left=$(( 590 - $(elapsed) ))
if [ $left -gt 30 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
    --heads 4096x24x64/72,8192x24x64/72,16384x24x64/72,8192x32x64/48 --csv "$R/p24.csv" > "$R/p24.txt" 2> "$R/p24-stderr.txt"
  echo "p24 rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/p24.txt" | tail -8
fi
echo "done at $(elapsed) s"
