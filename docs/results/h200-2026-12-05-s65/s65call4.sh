#!/usr/bin/env bash
# Session 65, call 4 (carry build-tmp .devdeps .whl): per-head rows beside the peers (target 4),
# contiguous and strided, on cd13d5d; then call 3's one shape behind (rmsnorm 128 x 8192, 1.008
# of torch.compile within noise) again beside the peers with more samples.
source "$(dirname "$0")/../scripts/device_call.sh" s65call4
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
OUT=$R PEERS_DEADLINE=420 REBUILD=1 bash scripts/peers_tables.sh 3d 3d-strided > "$R/peers-tables.log" 2>&1
echo "tables rc=$? at $(elapsed) s"
for t in 3d 3d-strided; do echo "== $t"; grep -E "^\|" "$R/$t.txt" | tail -n +3 | cut -c1-200; grep -i "geomean" "$R/$t.txt" | head -3; done
call_deadline=560
left=$(time_left)
if [ "${left:-0}" -gt 40 ]; then
  OUT=$R REBUILD=0 timeout $((left - 5)) bash scripts/peers_bench.sh --ops rmsnorm --tokens 128 --hidden 8192 \
    --autotune-min-tokens 8192 --reps 120 --csv "$R/r128.csv" > "$R/r128.txt" 2>&1
  echo "r128 rc=$? at $(elapsed) s"; grep -E "^\||behind|interval" "$R/r128.txt" | tail -8
fi
echo "done at $(elapsed) s"
