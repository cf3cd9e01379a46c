#!/usr/bin/env bash
# Session 40, call 2 (the second part of the device run, kernels of 5424ae8): the 64-shape grid
# beside the peers with issue 4's target figures, then the gemma table.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s40call2
REBUILD=1 timeout 380 bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
  --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
echo "peers rc=$? at $(elapsed) s"
python3 scripts/peers/targets.py "$R/peers-table.csv" > "$R/targets.txt" 2>&1; head -30 "$R/targets.txt"
left=$(( 585 - $(elapsed) ))
if [ "$left" -gt 40 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops gemma_rmsnorm,gemma_fused_add_rmsnorm --tokens 1,128,2048,32768 \
    --hidden 4096,8192 --autotune-min-tokens 100000000 --reps 40 --csv "$R/gemma.csv" > "$R/gemma.txt" 2> "$R/gemma-stderr.txt"
  echo "gemma rc=$? at $(elapsed) s"; grep "geomean" "$R/gemma.txt" | tail -4
fi
echo "done at $(elapsed) s"
