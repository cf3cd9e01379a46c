#!/usr/bin/env bash
# Session 57, call 1. (a) Session 56's unrun call 6: the bf16 fused add's rows of 1152-1920
# vectors (hidden 9216-15360) held on 1024 threads at 33-255 rows issue two row loads late at
# ptxas's default level and none at register usage level 2 or 0 (late_loads.py, late-audit.txt);
# the fp32 fused add's 2304-2560 4-vectors likewise; f16 beside it as the reference. (b) Lead 12:
# the fused add's odd vector counts of 2049-4095 (hidden 16392-32760, odd multiples of 8) with an
# fp32 weight beside 16-bit rows still take the 1024-thread re-read (t1024 reload ldstream), where
# the even counts are held on that CTA with the weight late (lw): the held layout forced, with and
# without level 2. Interleaved in one process, two rounds. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s57call1
build_cli > /dev/null || exit 1
call_deadline=540
for r in 1 2; do
  bench_run few-r$r --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype bf16 --tokens 64,128,200 \
    --hidden 9216,10240,12288,14336,15360 --compare "default;reg_usage=2;reg_usage=0"
  bench_run f32-r$r --op fused_add_rmsnorm --dtype f32 --tokens 512,1024,8192 --hidden 9216,10240 \
    --compare "default;reg_usage=2"
  bench_run oddw-r$r --op fused_add_rmsnorm --dtype bf16,f16 --weight-dtype f32 --tokens 1024,8192 \
    --hidden 16392,20488,25608,31752 --compare "default;residency=1,loads=0;residency=1,loads=0,reg_usage=2"
done
bench_run evenw-r1 --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 1024,8192 \
  --hidden 16384,20480,25600,31744 --compare "default"
bench_run fewf16-r1 --op fused_add_rmsnorm --dtype f16 --tokens 128 --hidden 9216,12288,15360 --compare "default;reg_usage=2"
rounds_side_by_side few 2
rounds_side_by_side f32 2
rounds_side_by_side oddw 2
rounds_side_by_side evenw 1
rounds_side_by_side fewf16 1
echo "done at $(elapsed) s"
