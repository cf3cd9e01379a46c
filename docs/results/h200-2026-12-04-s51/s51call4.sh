#!/usr/bin/env bash
# Session 51, call 4: the grid (and the gemma table, if time is left) beside the peers on the
# keep_tail tree. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s51call4
OUT=$R PEERS_DEADLINE=390 REBUILD=1 bash scripts/peers_tables.sh grid gemma > "$R/peers-tables.log" 2>&1
echo "tables rc=$? at $(elapsed) s"
cat "$R/peers-tables.log" | tail -5
cat "$R/targets.txt" 2>/dev/null | head -40
tail -4 "$R/gemma.txt" 2>/dev/null
echo "done at $(elapsed) s"
