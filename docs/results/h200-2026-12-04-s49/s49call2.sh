#!/usr/bin/env bash
# Session 49, call 2: one 512-thread CTA holding the row with the weight late, reconverted, floor
# 2 (64 registers: f16 47104 took 66 without it, one CTA an SM) at 5121-6144 vectors; gemma and
# the narrow edge (4097-4160 vectors) under the held 8 x 128 layout; gemma bf16 40960 (8 bytes
# of stack) held. Two rounds each, separate processes.
source "$(dirname "$0")/../scripts/device_call.sh" s49call2
build_cli > /dev/null || exit 1
call_deadline=560
held="cluster=8,tpr=128,residency=0,minb=8,pin_weight=1,reconvert=1"
lw="cluster=1,tpr=512,residency=1,reconvert=1,minb=2"
for r in 1 2; do
  bench_run lw-r$r --op rmsnorm --dtype bf16,f16 --hidden 41984,43008,44032,45056,46080,47104,48128,49152 --tokens 512,1024,4096 --compare "default;$lw"
  bench_run lwg-r$r --op gemma_rmsnorm --dtype bf16,f16 --hidden 41984,45056,47104,49152 --tokens 1024,4096 --compare "default;$lw"
  bench_run edge-r$r --op rmsnorm --dtype bf16,f16 --hidden 32776,33280 --tokens 512,1024,4096 --compare "default;$held"
  bench_run gheld-r$r --op gemma_rmsnorm --dtype bf16,f16 --hidden 33792,35840,40960 --tokens 512,1024,4096 --compare "default;$held"
  bench_run h512-r$r --op rmsnorm --dtype bf16,f16 --hidden 33792,36864,40960 --tokens 512 --compare "default;$held"
done
for n in lw lwg edge gheld h512; do rounds_side_by_side $n 2 > "$R/$n-side.txt"; done
cat "$R"/*-side.txt | head -c 9000
echo "done at $(elapsed) s"
