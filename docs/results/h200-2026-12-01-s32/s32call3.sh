#!/usr/bin/env bash
# Device call 3 (session 32, f21090b's kernels): the 3-D table's three shapes behind torch.compile
# (8192x8x128, 2048x16x256, 4608x48x128; flat, so rows of head_dim): ncu's counters of one launch of
# compile's kernel and of ours at each (caches flushed by ncu before each), to tell a kernel gap
# from the harness's.  Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s32call3
build_cli || exit 1
export NORMJIT_CACHE_DIR=$(mktemp -d)
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__waves_per_multiprocessor,launch__occupancy_limit_registers,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_no_instruction_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.avg,gpc__cycles_elapsed.max
N() { local name=$1; shift; echo "#### $name" >> "$R/ncu-3d.txt"
  timeout 150 ncu --clock-control none --metrics $M "$@" > "$R/ncu-$name.raw" 2>&1
  echo "== $name rc=$? at $(elapsed) s"
  grep -E "^\s+(gpu|lts|dram|launch|sm|smsp|gpc)__|==ERR|rror|^  [a-z_]+.*\(" "$R/ncu-$name.raw" | tee -a "$R/ncu-3d.txt"; }
N compile-128 --profile-from-start off -k regex:triton python3 build-tmp/ncu_peer_rows.py 128 65536,221184
N compile-256 --profile-from-start off -k regex:triton python3 build-tmp/ncu_peer_rows.py 256 32768
for s in 65536:128 221184:128 32768:256; do
  T=${s%%:*}; H=${s##*:}
  N nj-$T-$H -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens $T --hidden $H --reps 3
  N nj-nopdl-$T-$H -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens $T --hidden $H --reps 3 --no-pdl
done
echo "done at $(elapsed) s"
