#!/usr/bin/env bash
# Session 43, call 1 (lead 8): the defaults at every hidden of 32768-262144 in steps of 8192,
# 1024 rows, bf16, both ops; then smaller shares (<= 64 KiB) against the default at 98304 and 196608.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s43call1
build_cli || exit 1
call_deadline=560
H=$(seq -s, 32768 8192 262144)
bench_run defr --op rmsnorm --dtype bf16 --hidden $H --tokens 1024 --compare default
bench_run deff --op fused_add_rmsnorm --dtype bf16 --hidden $H --tokens 1024 --compare default
bench_run r98 --op rmsnorm --dtype bf16 --hidden 98304,196608 --tokens 1024 --compare "default;cluster=4,tpr=512,residency=3,loads=0;cluster=4,tpr=512,residency=3,loads=1;cluster=8,tpr=256,residency=3,loads=0;cluster=8,tpr=512,residency=3,loads=0;cluster=16,tpr=128,residency=3,loads=0;cluster=16,tpr=128,residency=3,loads=1"
bench_run f98 --op fused_add_rmsnorm --dtype bf16 --hidden 98304 --tokens 1024 --compare "default;cluster=8,tpr=512,residency=3,loads=0;cluster=8,tpr=512,residency=3,loads=1;cluster=8,tpr=256,residency=3,loads=0;cluster=16,tpr=128,residency=3,loads=0;cluster=16,tpr=128,residency=3,loads=1"
for f in defr deff r98 f98; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/$f.txt | awk '{print $1,$3,$4,$5,$6,$10,$11}'; done
echo "done at $(elapsed) s"
