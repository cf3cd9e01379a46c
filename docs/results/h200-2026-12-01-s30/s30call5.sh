#!/usr/bin/env bash
# Device call 5 (session 30, 46a7c5e): the fp32 fused add's pinned rows of 1.x-3 items on 128
# threads (hidden 640-1536), where late_loads.py lists a row or weight load after the first
# item's use: default (pinned) / unpinned / first item only, two rounds.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s30call5
build_cli || exit 1
call_deadline=200
for r in r1 r2; do
  bench_compare pin-fp32-narrow-$r fused_add_rmsnorm f32 256,512,1024,2048,8192 640,768,896,1024,1152,1280,1408,1536,2048 "default;pin_weight=0;pin_weight=2"
done
