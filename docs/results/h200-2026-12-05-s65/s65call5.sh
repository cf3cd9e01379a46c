#!/usr/bin/env bash
# Session 65, call 5 (carry build-tmp .devdeps .whl): the gemma table beside the peers (target 1's
# gemma variants) on cd13d5d; decode graphs with buffers filled by a kernel (the other state).
source "$(dirname "$0")/../scripts/device_call.sh" s65call5
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
OUT=$R PEERS_DEADLINE=400 REBUILD=1 bash scripts/peers_tables.sh gemma > "$R/peers-tables.log" 2>&1
echo "tables rc=$? at $(elapsed) s"
grep -E "^\|" "$R/gemma.txt" | tail -n +3 | cut -c1-200; grep -i "geomean" "$R/gemma.txt" | head -3
timeout 120 "$nj" bench --latency --fill kernel > "$R/latency-kfill.txt" 2>&1; echo "latency rc=$? at $(elapsed) s"
grep -E "graph|x " "$R/latency-kfill.txt" | head -40
echo "done at $(elapsed) s"
