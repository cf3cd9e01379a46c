#!/usr/bin/env bash
# Device call 7 (session 32, f21090b): the gemma table (last run in session 22).
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s32call7
REBUILD=1 timeout 400 bash scripts/peers_bench.sh --ops gemma_rmsnorm,gemma_fused_add_rmsnorm --tokens 1,128,2048,32768 \
  --hidden 4096,8192 --autotune-min-tokens 100000000 --reps 40 --csv "$R/gemma.csv" > "$R/gemma.txt" 2> "$R/gemma-stderr.txt"
echo "gemma rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/gemma.txt" | tail -24
python3 scripts/peers/targets.py "$R/gemma.csv" > "$R/gemma-targets.txt" 2>&1; head -12 "$R/gemma-targets.txt"
