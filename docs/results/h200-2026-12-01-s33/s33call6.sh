#!/usr/bin/env bash
# Session 33, call 6: the GPU suite on the dense rule's tree (ctest -L gpu, pytest, the prewarmed
# cache offline, decode latency, host cost), then the 3-D table again.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s33call6
gpu_suite_summary 470
left=$(( 590 - $(elapsed) ))
if [ "$left" -gt 60 ]; then
  REBUILD=1 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
  echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
fi
echo "done at $(elapsed) s"
