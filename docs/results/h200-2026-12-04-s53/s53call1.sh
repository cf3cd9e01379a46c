#!/usr/bin/env bash
# Session 53, call 1: the grid's last shapes behind and a wide row under target 2.
# (1) rmsnorm 32768 x 16384 (1.002 of max-autotune, whose kernel is 1024 threads x 2 vectors,
#     re-read with hints, 21 registers: 2048 threads an SM against our 2 x 512): 1024- and
#     256-thread re-reads under floors 1-4, the tail hint, two rounds in one process each.
# (2) sweeps (screens, not A/Bs) of the fused add 8192 x 16384 (1.000 of Liger) and rmsnorm
#     1024 x 32768 (88.7 % of copy, target 2).
source "$(dirname "$0")/../scripts/device_call.sh" s53call1
build_cli > /dev/null || exit 1
call_deadline=580
for r in 1 2; do
  bench_run w16k-r$r --op rmsnorm --dtype bf16 --tokens 32768 --hidden 16384 --compare \
    "default;tpr=1024,residency=2,loads=3,minb=2;tpr=1024,residency=2,loads=3,minb=1;tpr=1024,residency=2,loads=3,minb=2,keep_out=1,keep_tail=16;tpr=256,residency=2,loads=3,minb=4;keep_out=1,keep_tail=16"
done
rounds_side_by_side w16k 2
left=$(time_left) && timeout $((left < 200 ? left : 200)) $nj bench --op fused_add_rmsnorm --dtype bf16 --tokens 8192 --hidden 16384 --reps 40 --sweep > "$R/fa16k-sweep.txt" 2>&1
echo "fa16k sweep rc=$? at $(elapsed) s"; tail -4 "$R/fa16k-sweep.txt"
left=$(time_left) && timeout $((left - 5)) $nj bench --op rmsnorm --dtype bf16 --tokens 1024 --hidden 32768 --reps 40 --sweep > "$R/w32k-sweep.txt" 2>&1
echo "w32k sweep rc=$? at $(elapsed) s"; tail -4 "$R/w32k-sweep.txt"
echo "done at $(elapsed) s"
