#!/usr/bin/env bash
# Session 50, call 3: the side-by-side tables on the final tree (d356fe6): the grid (target 1),
# the strided and contiguous 3-D tables (target 4) and the wide rows (target 2), in that order,
# as far as the device time goes (the gemma table ran in call 1).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s50call3
OUT=$R PEERS_DEADLINE=$(( 490 - $(elapsed) )) REBUILD=1 bash scripts/peers_tables.sh grid 3d-strided 3d wide > $R/peers-tables.txt 2>&1
echo "tables rc=$? at $(elapsed) s"; cat $R/peers-tables.txt | tail -30
echo "done at $(elapsed) s"
