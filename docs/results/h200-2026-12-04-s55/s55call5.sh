#!/usr/bin/env bash
# Session 55, call 5: an fp32 weight with 16-bit rows, never timed before (bench had no
# --weight-dtype): (1) the new GPU test; (2) the grid shapes and the wide rows at 1024 tokens in
# bf16 with a bf16 and an fp32 weight, one process (the defaults, validated first); f16 at a few.
# Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s55call5
build_cli > /dev/null || exit 1
call_deadline=480
bench_run wgrid-r1 --op rmsnorm,fused_add_rmsnorm --dtype bf16 --weight-dtype bf16,f32 --tokens 1,128,2048,32768 --hidden 2048,4096,8192,16384
bench_run wwide-r1 --op rmsnorm,fused_add_rmsnorm --dtype bf16 --weight-dtype bf16,f32 --tokens 1024 --hidden 20480,32768,65536,131072,262144
bench_run wf16-r1 --op rmsnorm,fused_add_rmsnorm --dtype f16 --weight-dtype f16,f32 --tokens 2048,32768 --hidden 4096,8192
for n in wgrid wwide wf16; do echo "== $n"; grep -E "^(rmsnorm|fused)" "$R/$n-r1.txt" | awk '{printf "%s %s %s %s %s %s %s\n",$1,$2,$3,$4,$5,$6,$10}'; done
echo "done at $(elapsed) s"
