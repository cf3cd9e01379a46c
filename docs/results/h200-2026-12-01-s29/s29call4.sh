#!/usr/bin/env bash
# Device call 4 (session 29, 7c0100d): the GPU suite with pin_weight 2 (the fused add's 16-bit rows
# of 129-255 vectors), then the library's kernels compared: default (pin 2) / pin 1 / pin 0.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s29call4
gpu_suite_summary 380
[ -x $nj ] || build_cli || exit 1
cmp() {  # NAME OP DTYPE TOKENS HIDDEN CONFIGS
  local left=$(( 580 - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op $2 --dtype $3 --tokens $4 --hidden $5 --reps 40 --compare "$6" > "$R/$1.txt" 2>&1
  echo "$1 rc=$? at $(elapsed) s"
}
T=256,512,1024,2048,4096,8192,16384,32768
cmp pin-fused-bf16 fused_add_rmsnorm bf16 $T 1152,1536,1920,2040 "default;pin_weight=1;pin_weight=0"
cmp pin-gemma-bf16 gemma_fused_add_rmsnorm bf16 $T 1280,1792 "default;pin_weight=1;pin_weight=0"
cmp pin-fused-f16 fused_add_rmsnorm f16 $T 1536,2040 "default;pin_weight=1;pin_weight=0"
