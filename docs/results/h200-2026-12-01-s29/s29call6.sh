#!/usr/bin/env bash
# Device call 6 (session 29): rmsnorm rows of 65-127 vectors (hidden 520-1016 in 16-bit types),
# held on 64 threads x 2 rows by default, against 32 lanes x 4 rows with two rows a thread (call 2
# saw 2-4 % at 640 and 768). Interleaved compares.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s29call6
build_cli || exit 1
cmp() {  # NAME OP DTYPE TOKENS HIDDEN CONFIGS
  local left=$(( 400 - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op $2 --dtype $3 --tokens $4 --hidden $5 --reps 40 --compare "$6" > "$R/$1.txt" 2>&1
  echo "$1 rc=$? at $(elapsed) s"
}
T=256,512,1024,2048,8192,32768,131072
C="default;tpr=32,rpb=4,rpt=2;tpr=32,rpb=4,residency=0;tpr=32,rpb=8,rpt=2"
cmp rows65-bf16-r1 rmsnorm bf16 $T 576,640,704,768,832,896,960 "$C"
cmp rows65-f16 rmsnorm f16 $T 640,768,896 "$C"
cmp rows65-gemma gemma_rmsnorm bf16 $T 640,768,896 "$C"
cmp rows65-bf16-r2 rmsnorm bf16 $T 576,640,704,768,832,896,960 "$C"
