#!/usr/bin/env bash
# Session 51, call 5: rmsnorm 32768 x 16384 (the grid's last shape behind, 1.002 of max-autotune):
# the output hint on the tail there (4 items a thread on 512 threads, hinted loads; with them the
# hinted stores spill 8 bytes under the floor of 3), on every row, with plain loads, under a floor
# of 2. Two rounds, one process each.
source "$(dirname "$0")/../scripts/device_call.sh" s51call5
build_cli > /dev/null || exit 1
call_deadline=250
for r in 1 2; do
  bench_run w16k-r$r --op rmsnorm --dtype bf16 --tokens 32768 --hidden 16384 --compare \
    "default;keep_out=1,keep_tail=16;keep_out=1,keep_tail=16,loads=0;keep_out=1;keep_out=1,keep_tail=16,minb=2;keep_out=1,keep_tail=64"
done
rounds_side_by_side w16k 2
echo "done at $(elapsed) s"
