#!/usr/bin/env bash
# Session 49, call 8: rmsnorm's fp32 defaults of 16896-20480 (held on 8 x 128 since 6a32cad)
# against the old rule forced (4 x 256 own copies, floor 8), 1024 rows, one round.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s49call8
build_cli > /dev/null || exit 1
call_deadline=110
bench_run f32def-r1 --op rmsnorm --dtype f32 --hidden 16896,18432,20480 --tokens 1024 \
  --compare "default;cluster=4,tpr=256,residency=4,minb=8,pin_weight=0"
grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/f32def-r1.txt"
echo "done at $(elapsed) s"
