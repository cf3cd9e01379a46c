#!/usr/bin/env bash
# Session 55, call 4: the other side-by-side tables (wide rows at 1024 tokens, gemma, per-head 3-D
# contiguous and strided) on the final kernels (e83c15c), so that every table reads from one tree
# and one day with call 2's grid. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s55call4
OUT=$R PEERS_DEADLINE=560 REBUILD=1 bash scripts/peers_tables.sh wide gemma 3d 3d-strided > "$R/peers-tables.log" 2>&1
echo "tables rc=$? at $(elapsed) s"
tail -4 "$R/peers-tables.log"
for t in wide gemma 3d 3d-strided; do echo "== $t"; grep -E "^\|" "$R/$t.txt" | tail -n +3 | cut -c1-200; grep -i "geomean" "$R/$t.txt" | head -3; done
echo "done at $(elapsed) s"
