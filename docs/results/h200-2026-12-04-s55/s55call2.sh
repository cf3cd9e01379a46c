#!/usr/bin/env bash
# Session 55, call 2: on the final kernels (e83c15c: kPinLastRow, the part-filled re-read from 8192
# rows) (1) the grid beside the peers (target 1; 32768 x 16384 with 151772e's floor of 2 has not
# run beside them with its files kept); (2) the fused add's rows the pin and the rule moved beside
# the peers: 2048 / 8192 x 17408 / 20480 / 23552. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s55call2
OUT=$R PEERS_DEADLINE=400 REBUILD=1 bash scripts/peers_tables.sh grid > "$R/peers-tables.log" 2>&1
echo "tables rc=$? at $(elapsed) s"
tail -3 "$R/peers-tables.log"
head -40 "$R/targets.txt" 2>/dev/null
call_deadline=530
left=$(time_left)
if [ "${left:-0}" -gt 40 ]; then
  OUT=$R REBUILD=0 timeout $((left - 5)) bash scripts/peers_bench.sh --ops fused_add_rmsnorm \
    --tokens 2048,8192 --hidden 17408,20480,23552 --autotune-min-tokens 1000000 --reps 30 --csv "$R/fpart.csv" > "$R/fpart.txt" 2>&1
  echo "peers rc=$? at $(elapsed) s"; grep -E "^\|" "$R/fpart.txt" | tail -10
fi
echo "done at $(elapsed) s"
