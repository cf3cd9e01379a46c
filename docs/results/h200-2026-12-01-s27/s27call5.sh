#!/usr/bin/env bash
# Device call 5 (session 27): where our 512-thread re-read of rmsnorm 7168 spends the ~2 us a call
# more than torch.compile's kernel of the same plan (call 2 against call 4's table). ncu's counters
# and stall reasons of compile's kernel, our held default and our re-read at 2048, 8192 and 32768
# rows; then the re-read against the default with and without PDL. Carry: build-tmp .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s27call5.tgz r' EXIT
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
echo "built at $(( $(date +%s) - start )) s"
nj=build-gpu/normjit
export NORMJIT_CACHE_DIR=$(mktemp -d)
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__registers_per_thread,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_no_instruction_per_warp_active.pct,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_op_read.sum,dram__bytes_read.sum
N() { local name=$1; shift; echo "#### $name" >> "$R/ncu-rows.txt"
  timeout 150 ncu --clock-control none --metrics $M "$@" > "$R/ncu-$name.raw" 2>&1
  echo "== $name rc=$? at $(( $(date +%s) - start )) s"
  grep -E "^\s+(gpu|lts|dram|launch|sm|smsp)__|==ERR|rror|^  [a-z_]+.*\(" "$R/ncu-$name.raw" | tee -a "$R/ncu-rows.txt"; }
N compile-7168 --profile-from-start off -k regex:triton python3 build-tmp/ncu_peer_rows.py 7168 2048,8192,32768
for T in 2048 8192 32768; do
  N nj-held-$T -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens $T --hidden 7168 --reps 3 --config tpr=128,residency=0,loads=0,minb=0,pin_weight=1
  N nj-reread-$T -k regex:normjit_entry -s 4 -c 1 $nj bench --op rmsnorm --tokens $T --hidden 7168 --reps 3 --config tpr=512,residency=2,loads=3,minb=0,pin_weight=0
done
C="tpr=128,residency=0,loads=0,minb=0,pin_weight=1;tpr=512,residency=2,loads=3,minb=0,pin_weight=0;tpr=512,residency=2,loads=3,minb=0,pin_weight=0,trigger=early"
timeout 100 $nj bench --op rmsnorm --tokens 2048,8192,32768 --hidden 7168 --reps 30 --compare "$C" > "$R/pdl-call5.txt" 2>&1
timeout 100 $nj bench --op rmsnorm --tokens 2048,8192,32768 --hidden 7168 --reps 30 --no-pdl --compare "$C" > "$R/nopdl-call5.txt" 2>&1
echo "rc=$? at $(( $(date +%s) - start )) s"
for f in pdl nopdl; do echo "## $f"; grep -v "^device" "$R/$f-call5.txt" | awk '{print $3,$4,$5,$6,$11}'; done
