#!/usr/bin/env bash
# Session 48, call 1 (the final tree with session 47's held-share rule: 16-bit rmsnorm rows of
# 4608-5120 vectors on 8 CTAs of 128 threads, floor 8, weight pinned, reconverted): the whole GPU
# suite (its new case runs the rule's defaults against the reference), then the rule as the default
# against the old default forced (4 x 256 own copies, floor 8), bf16 and f16, hidden 36864, 38912
# and 40960, 1024 and 4096 rows, two rounds in separate processes.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s48call1
gpu_suite_summary 470
build_cli > /dev/null || exit 1
call_deadline=590
for r in 1 2; do
  bench_run held-r$r --op rmsnorm --dtype bf16,f16 --hidden 36864,38912,40960 --tokens 1024,4096 \
    --compare "default;cluster=4,tpr=256,residency=4,minb=8,pin_weight=0,reconvert=0"
done
rounds_side_by_side held 2
echo "done at $(elapsed) s"
