#!/usr/bin/env bash
# Session 55, call 6: an fp32 weight with bf16 rows (call 5: up to 26 % slower than a bf16 weight
# where the rules for same-type weights do not reach it): the default against the configs a bf16
# weight gets, interleaved in one process, two rounds. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s55call6
build_cli > /dev/null || exit 1
call_deadline=300
W="--op rmsnorm --dtype bf16 --weight-dtype f32"
for r in 1 2; do
  bench_run few-r$r $W --tokens 2048 --hidden 4096,8192 --compare "default;residency=0,pin_weight=1"
  bench_run dec-r$r $W --tokens 128 --hidden 8192,16384 --compare "default;residency=0"
  bench_run held-r$r $W --tokens 1024,2048,4096 --hidden 20480,32768 --compare "default;tpr=1024,residency=1,reconvert=1;tpr=1024,residency=1,reconvert=1,keep_out=1"
  bench_run big-r$r $W --tokens 8192,32768 --hidden 16384 --compare "default;tpr=1024,residency=2,loads=3,minb=2;tpr=512,residency=2,loads=3,minb=3;tpr=256,residency=2,loads=3,minb=4"
  bench_run fbig-r$r --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 8192,32768 --hidden 16384 --compare "default;tpr=1024,residency=2,loads=3,minb=2,keep_out=1"
done
for n in few dec held big fbig; do rounds_side_by_side $n 2; done
grep -h "not valid\|FAILED" $R/*-r1.txt | head
echo "done at $(elapsed) s"
