#!/usr/bin/env bash
# Device call 5 (session 31, a8a2871): the pattern that won at rmsnorm 65536 (256 threads, 8 items
# of 16 bytes each, 32 KiB shares, per-thread copies) at the other wide rows, interleaved.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s31call5
build_cli || exit 1
call_deadline=200
bench_compare w-rms262144 rmsnorm bf16 1024,4096 262144 "default;tpr=256,residency=4;tpr=256,residency=3"
bench_compare w-rms131072 rmsnorm bf16 1024,4096 131072 "default;cluster=8,tpr=256,residency=4;cluster=16,tpr=128,residency=4"
bench_compare w-fused262144 fused_add_rmsnorm bf16 1024,4096 262144 "default;tpr=256,residency=4;tpr=256,residency=3;residency=4,loads=0"
bench_compare w-fused131072 fused_add_rmsnorm bf16 1024,4096 131072 "default;tpr=256,residency=4;tpr=256,residency=3"
bench_compare w-fused65536 fused_add_rmsnorm bf16 1024,4096 65536 "default;cluster=8,tpr=256,residency=4;cluster=16,tpr=128,residency=4"
grep -hE "x[01]\.[0-9]+|FAILED" "$R"/w-*.txt | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
