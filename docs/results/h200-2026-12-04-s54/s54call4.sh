#!/usr/bin/env bash
# Session 54, call 4: the fused add's part-filled third item as refined after call 3 (bf16 2176-
# 2816 vectors re-read from 2048 rows, 2049-2944 from 8192 in bf16 and f16): the rows the rule
# was not timed at. (1) bf16 4096 rows at both kinds of width; (2) f16 4096 and 8192 rows; each
# the default against the held row (OLD, 68e0e79) and the re-read, two rounds. (3) The GPU test
# of the row counts that switch kernels (the rule's three switch cases), alone.
source "$(dirname "$0")/../scripts/device_call.sh" s54call4
build_cli test_gpu > /dev/null || exit 1
call_deadline=585
OLD="tpr=1024,rpb=1,vec=8,residency=1,minb=0,loads=0,stores=0,cluster=1,split=1,weight_first=0,keep_out=0,keep_tail=0,pin_weight=0,rpt=1,trigger=auto,prefetch=none,reconvert=0,dense=0,weight_shared=0,head_blocks=0"
RR="tpr=1024,residency=2,loads=3,minb=2,keep_out=0"
for r in 1 2; do
  bench_run b4k-r$r --op fused_add_rmsnorm --dtype bf16 --tokens 4096 --hidden 16400,17408,20480,22528,23552 --compare "default;$OLD;$RR"
  bench_run f16-r$r --op fused_add_rmsnorm --dtype f16 --tokens 4096,8192 --hidden 16400,20480,23552 --compare "default;$OLD;$RR"
done
for n in b4k f16; do rounds_side_by_side $n 2; done
left=$(time_left) && NORMJIT_CACHE_DIR=$(mktemp -d) timeout $left build-gpu/tests/gpu/test_gpu \
  "default configs at the row counts that switch kernels" > "$R/switch-test.txt" 2>&1
echo "switch test rc=$? at $(elapsed) s"; tail -3 "$R/switch-test.txt"
echo "done at $(elapsed) s"
