#!/usr/bin/env bash
# Session 65, call 3 (carry build-tmp .devdeps .whl): the grid beside the peers (target 1) on
# cd13d5d, the first grid on the H200 since session 55 (kernels of sessions 56, 57 and 62 since).
source "$(dirname "$0")/../scripts/device_call.sh" s65call3
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
OUT=$R PEERS_DEADLINE=575 REBUILD=1 bash scripts/peers_tables.sh grid > "$R/peers-tables.log" 2>&1
echo "tables rc=$? at $(elapsed) s"
tail -3 "$R/peers-tables.log"
head -40 "$R/targets.txt" 2>/dev/null
echo "done at $(elapsed) s"
