#!/usr/bin/env bash
# Session 39, call 5: L2 policies at the grid's many-row rmsnorm shapes where torch.compile leads:
# the only read evict-first (loads=3 on a held row), streaming (loads=1), output stores evict-last
# (keep_out=1) and both (drop read lines first, keep written ones), hidden 2048 at 8192 and 32768
# rows; keep_out and the load policies on the re-read rows of 4096 and 8192 at 32768 rows. Rounds
# in separate processes.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call5
build_cli || exit 1
call_deadline=420
A="--op rmsnorm --dtype bf16 --hidden 2048 --tokens 8192,32768"
AC="default;loads=3;loads=1;keep_out=1;loads=3,keep_out=1;loads=1,keep_out=1"
B="--op rmsnorm --dtype bf16 --hidden 4096,8192 --tokens 32768"
BC="default;keep_out=1;loads=0;loads=0,keep_out=1"
for r in 1 2 3; do
  bench_run pa-r$r $A --compare "$AC"
  bench_run pb-r$r $B --compare "$BC"
done
rounds_side_by_side pa 3; rounds_side_by_side pb 3
echo "done at $(elapsed) s"
