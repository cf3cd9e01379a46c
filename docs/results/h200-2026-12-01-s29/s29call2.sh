#!/usr/bin/env bash
# Device call 2 (session 29, 09137fc kernels): the fused add's rows of 129-255 vectors without the
# pinned weight or with the weight late, across widths, row counts and dtypes; its rows of 65-127
# vectors on fewer lanes; rmsnorm 896 on 16 lanes (session 28's leads). Interleaved compares.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s29call2
build_cli || exit 1
cmp() {  # NAME OP DTYPE TOKENS HIDDEN CONFIGS
  local left=$(( 560 - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op $2 --dtype $3 --tokens $4 --hidden $5 --reps 40 --compare "$6" > "$R/$1.txt" 2>&1
  echo "$1 rc=$? at $(elapsed) s"
}
T=256,512,1024,2048,4096,8192,16384,32768
cmp fused129-bf16-r1 fused_add_rmsnorm bf16 $T 1152,1280,1536,1664,1792,1920,2040 "default;pin_weight=0;residency=1"
cmp fused129-f16 fused_add_rmsnorm f16 $T 1280,1536,1920 "default;pin_weight=0;residency=1"
cmp gemma129-bf16 gemma_fused_add_rmsnorm bf16 $T 1280,1536,1920 "default;pin_weight=0;residency=1"
cmp fused65-bf16 fused_add_rmsnorm bf16 512,2048,8192,16384,32768 640,768,896 "default;tpr=32,rpb=4;tpr=16,rpb=8;tpr=32,rpb=4,residency=1"
cmp rms65-bf16 rmsnorm bf16 2048,16384,65536 640,768,896 "default;tpr=16,rpb=8,rpt=2;tpr=32,rpb=4,rpt=2;tpr=16,rpb=8"
cmp fused129-bf16-r2 fused_add_rmsnorm bf16 $T 1152,1280,1536,1664,1792,1920,2040 "default;pin_weight=0;residency=1"
