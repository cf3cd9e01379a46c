#!/usr/bin/env bash
# Device call 8 (session 28, 2931945 kernels): whole sweeps at more model widths, as leads for the
# next session: rmsnorm and the fused add x 896, 1536, 5120 x 2048 and 16384 rows.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s28call8
build_cli || exit 1
for h in 1536 5120 896; do
  for op in rmsnorm fused_add_rmsnorm; do
    left=$(( 200 - $(elapsed) )); [ $left -lt 15 ] && break 2
    timeout $left $nj bench --op $op --tokens 2048,16384 --hidden $h --reps 20 --sweep > "$R/sweep-$op-$h.txt" 2>&1
    echo "$op $h rc=$? at $(elapsed) s"; grep "best:\|FAILED" "$R/sweep-$op-$h.txt"
  done
done
