#!/usr/bin/env bash
# Device call 1 (session 29, 09137fc): the GPU suite (first run of ec8bbe4's sweep verdict and
# 151927f/09137fc's list checks on the GPU), then interleaved compares at rows of 129-255
# vectors (hidden 1152-1920), where call 8 of session 28 saw the fused add 2048 x 1536 on
# 32 threads x 4 rows 11 % ahead of the default (sequential sweep).
# Carry: build-tmp .devdeps cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s29call1
gpu_suite_summary 380
nj=build-gpu/normjit
[ -x $nj ] || build_cli || exit 1
cfgs="default;pin_weight=0;residency=1;tpr=64,rpb=2;tpr=32,rpb=4"
for op in fused_add_rmsnorm rmsnorm; do
  left=$(( 585 - $(elapsed) )); [ $left -lt 20 ] && break
  timeout $left $nj bench --op $op --tokens 512,2048,8192 --hidden 1536,1280,1920 --reps 40 \
    --compare "$cfgs" > "$R/cmp129-$op.txt" 2>&1
  echo "$op rc=$? at $(elapsed) s"
  grep -v "^device\|^op " "$R/cmp129-$op.txt" | awk '{print $1,$3,$4,$5,$6}' | head -80
done
