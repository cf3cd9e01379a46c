#!/usr/bin/env bash
# Session 40, call 1 (the first part of one device run of every target, kernels of 5424ae8): the
# GPU suite (ctest -L gpu, pytest, the prewarmed cache offline, decode graphs, host cost), then
# the contiguous and strided 3-D tables beside the peers.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s40call1
gpu_suite_summary 440
peers() { local name=$1 budget=$2; shift 2
  local left=$(( 590 - $(elapsed) )); [ $left -gt $budget ] && left=$budget
  [ $left -lt 30 ] && { echo "skip $name"; return; }
  REBUILD=${REBUILD:-0} timeout $left bash scripts/peers_bench.sh "$@" --csv "$R/$name.csv" > "$R/$name.txt" 2> "$R/$name-stderr.txt"
  echo "$name rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/$name.txt" | tail -12; }
REBUILD=1 peers 3d 75 --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
  --heads 4608x48x128,8192x32x128,8192x8x128,4096x32x64,2048x16x256,4096x24x64,8192x16x256,8192x32x64
peers 3d-strided 70 --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
  --heads 2048x32x128/48,4096x32x128/48,8192x32x128/48,16384x8x128/48,8192x32x64/48,4096x32x64/48,32768x8x64/48,4096x16x256/24
echo "done at $(elapsed) s"
