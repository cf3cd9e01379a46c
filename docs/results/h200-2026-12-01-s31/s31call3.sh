#!/usr/bin/env bash
# Device call 3 (session 31, 44adbc6): the residency-4 shapes call 2's sweeps put ahead at rmsnorm
# 1024 x 65536 (sequential), interleaved against the default and the same shape by bulk copies.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s31call3
build_cli || exit 1
cfgs="default;tpr=256,cluster=4,residency=4;tpr=128,cluster=8,residency=4;tpr=1024,cluster=1,residency=4;tpr=256,cluster=4,residency=3"
call_deadline=400
bench_compare lanes65536 rmsnorm bf16,f16 1024,2048,4096 65536 "$cfgs"
grep -E "x[01]\.[0-9]+" "$R/lanes65536.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
bench_compare lanes-f32 rmsnorm f32 1024,4096 32768 "$cfgs"
grep -E "x[01]\.[0-9]+" "$R/lanes-f32.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
bench_compare lanes32768 rmsnorm bf16 1024,2048 32768 "default;tpr=256,cluster=4,residency=4;tpr=128,cluster=8,residency=4"
grep -E "x[01]\.[0-9]+" "$R/lanes32768.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
bench_compare lanes65536-r2 rmsnorm bf16 1024,4096 65536 "default;tpr=256,cluster=4,residency=4;tpr=128,cluster=8,residency=4"
grep -E "x[01]\.[0-9]+" "$R/lanes65536-r2.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
