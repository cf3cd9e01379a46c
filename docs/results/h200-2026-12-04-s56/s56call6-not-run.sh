#!/usr/bin/env bash
# Session 56, call 6 (not run: written after the device time ran out). Found on the CPU by
# scripts/late_loads.py over 915 defaults (rmsnorm and the fused add, bf16/f16/fp32, hidden
# 1024-65536 step 1024, 128-32768 rows): the bf16 fused add's rows of 1152-1920 vectors (hidden
# 9216-15360) held on 1024 threads at 33-255 rows (their second item part-filled) issue two row
# loads late at ptxas's default level and none at register usage level 2 or 0 (32 registers, no
# stack either way; gemma alike, f16 none late); the fp32 fused add's 2304-2560 4-vectors (9216-
# 10240, 512+ rows) likewise (12288-16384 stay late at every level). Interleaved in one process,
# two rounds; f16 beside it as the reference. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s56call6
build_cli > /dev/null || exit 1
call_deadline=300
for r in 1 2; do
  bench_run few-r$r --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype bf16 --tokens 64,128,200 \
    --hidden 9216,10240,12288,14336,15360 --compare "default;reg_usage=2;reg_usage=0"
  bench_run f32-r$r --op fused_add_rmsnorm --dtype f32 --tokens 512,1024,8192 --hidden 9216,10240 \
    --compare "default;reg_usage=2"
done
bench_run fewf16-r1 --op fused_add_rmsnorm --dtype f16 --tokens 128 --hidden 9216,12288,15360 --compare "default;reg_usage=2"
rounds_side_by_side few 2
rounds_side_by_side f32 2
rounds_side_by_side fewf16 1
echo "done at $(elapsed) s"
