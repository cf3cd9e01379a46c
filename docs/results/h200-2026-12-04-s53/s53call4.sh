#!/usr/bin/env bash
# Session 53, call 4: the whole GPU suite on 612bcda (the two new rules), then the shapes they
# changed beside the peers: the fused add 8192 / 32768 x 16384 (grid) and rmsnorm / fused add
# 1024 x 32768 (wide rows, target 2).
source "$(dirname "$0")/../scripts/device_call.sh" s53call4
call_deadline=590
gpu_suite_summary 440
left=$(time_left)
if [ "${left:-0}" -gt 60 ]; then
  OUT=$R REBUILD=0 timeout $(( (left - 10) * 2 / 3 )) bash scripts/peers_bench.sh --ops fused_add_rmsnorm \
    --tokens 8192,32768 --hidden 16384 --autotune-min-tokens 8192 --reps 40 --csv "$R/fa16k.csv" > "$R/fa16k.txt" 2>&1
  tail -5 "$R/fa16k.txt"
fi
left=$(time_left)
if [ "${left:-0}" -gt 30 ]; then
  OUT=$R REBUILD=0 timeout $((left - 5)) bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
    --tokens 1024 --hidden 32768 --autotune-min-tokens 1000000 --reps 20 --csv "$R/wide32k.csv" > "$R/wide32k.txt" 2>&1
  tail -5 "$R/wide32k.txt"
fi
echo "done at $(elapsed) s"
