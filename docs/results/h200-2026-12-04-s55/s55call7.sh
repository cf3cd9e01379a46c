#!/usr/bin/env bash
# Session 55, call 7: the fp32-weight rules (16-bit rows, an fp32 weight: held and pinned on
# <= 512-thread CTAs, held wide rows at 1024-4095 rows, rmsnorm 16384 at 3 CTAs from 32768 rows,
# the fused add's 16384 re-read) as defaults against the configs they replaced, interleaved in
# one process, two rounds; then the fp32-weight defaults that spill (fused add 14336 on 512
# threads under a floor of 2: 56-88 bytes; rmsnorm 14336 re-read under 4: 16; rmsnorm 16384 on
# 256 threads under 3: 8) against lower floors, one round. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s55call7
build_cli > /dev/null || exit 1
call_deadline=330
W="--op rmsnorm --weight-dtype f32"
for r in 1 2; do
  bench_run pin-r$r $W --dtype bf16,f16 --tokens 256,4096 --hidden 4096,8192 --compare "default;residency=1,pin_weight=0"
  bench_run dec-r$r $W --dtype bf16,f16 --tokens 128 --hidden 8192,12288,16384 --compare "default;residency=1"
  bench_run floor-r$r $W --dtype bf16 --tokens 32768 --hidden 16384 --compare "default;minb=2"
  bench_run held-r$r $W --dtype bf16,f16 --tokens 1024,2048 --hidden 20480,24576,32768 --compare "default;residency=2,reconvert=0,loads=0,minb=0;residency=2,reconvert=0,loads=3,minb=2"
done
bench_run fspill-r1 --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 2048,8192 --hidden 14336 --compare "default;minb=0;residency=1,minb=0;tpr=1024,residency=1,minb=0"
bench_run rspill-r1 $W --dtype bf16 --tokens 512,8192,32768 --hidden 14336 --compare "default;minb=0;minb=3"
bench_run r16-r1 $W --dtype bf16 --tokens 1024,2048 --hidden 16384 --compare "default;minb=0"
for n in pin dec floor held; do rounds_side_by_side $n 2; done
for n in fspill rspill r16; do rounds_side_by_side $n 1; done
grep -h "not valid\|FAILED" $R/*-r1.txt | head
echo "done at $(elapsed) s"
