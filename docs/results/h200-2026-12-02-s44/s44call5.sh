#!/usr/bin/env bash
# Session 44, call 5 (leads 3 and 8, no change timed): ncu's counters of one launch (caches
# flushed by ncu, no clock control) of rmsnorm 1024 x 196608 on 16 x 128 (12 whole items, the
# default) against 1024 x 204800 forced to 16 x 128 (12.5 items, 24 % slower in session 43), the
# fused add 1024 x 262144 (the default, 88 % of copy), and rmsnorm 1024 x 36864 (86 %).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s44call5
build_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__waves_per_multiprocessor,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_sleeping_per_warp_active.pct,smsp__warp_issue_stalled_misc_per_warp_active.pct,sm__cycles_active.avg,gpc__cycles_elapsed.max
N() { local name=$1; shift; echo "#### $name" >> "$R/ncu.txt"
  timeout 120 ncu --clock-control none --metrics $M -k regex:normjit_entry -s 4 -c 1 "$@" > "$R/ncu-$name.raw" 2>&1
  echo "== $name rc=$? at $(elapsed) s"
  grep -E "^\s+(gpu|lts|dram|launch|sm|smsp|gpc)__|==ERR|rror" "$R/ncu-$name.raw" | tee -a "$R/ncu.txt"; }
N r196608 $nj bench --op rmsnorm --tokens 1024 --hidden 196608 --reps 3
N r204800-c16 $nj bench --op rmsnorm --tokens 1024 --hidden 204800 --reps 3 --config cluster=16,tpr=128,residency=3
N r204800 $nj bench --op rmsnorm --tokens 1024 --hidden 204800 --reps 3
N f262144 $nj bench --op fused_add_rmsnorm --tokens 1024 --hidden 262144 --reps 3
N r36864 $nj bench --op rmsnorm --tokens 1024 --hidden 36864 --reps 3
echo "done at $(elapsed) s"
