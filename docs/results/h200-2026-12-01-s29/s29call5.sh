#!/usr/bin/env bash
# Device call 5 (session 29, pin_weight 2 kernels): the fused add side by side with the peers at
# the widths the rule changes (hidden 1152, 1536, 2040).
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s29call5
timeout 430 bash scripts/peers_bench.sh --ops fused_add_rmsnorm --tokens 256,2048,8192,32768 \
  --hidden 1152,1536,2040 --autotune-min-tokens 100000000 --reps 30 --csv "$R/pin-peers.csv" > "$R/pin-peers.txt" 2> "$R/pin-peers-stderr.txt"
echo "peers rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/pin-peers.txt" | grep -v "^|---\|^| shape" | cut -c1-200
