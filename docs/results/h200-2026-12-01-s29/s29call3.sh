#!/usr/bin/env bash
# Device call 3 (session 29): the pinned weight of rows whose last item is part-filled.
# build-tmp/tpl_pinfull pins only the items every lane fills (kExact, or all but the last);
# pin_weight=0 builds the same kernel under both template trees, so it anchors the two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s29call3
build_cli || exit 1
cmp() {  # NAME TEMPLATE_DIR OP DTYPE TOKENS HIDDEN CONFIGS
  local left=$(( 570 - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  NORMJIT_TEMPLATE_DIR=$2 timeout $left $nj bench --op $3 --dtype $4 --tokens $5 --hidden $6 --reps 40 --compare "$7" > "$R/$1.txt" 2>&1
  echo "$1 rc=$? at $(elapsed) s"
}
T=256,512,1024,2048,4096,8192,32768
for round in 1 2; do
  for v in base pinfull; do
    tpl=kernel_templates; [ $v = pinfull ] && tpl=build-tmp/tpl_pinfull
    cmp fa-bf16-$v-r$round $tpl fused_add_rmsnorm bf16 $T 1280,1536,1920,2040,2560,3584 "default;pin_weight=0"
    cmp fa-f16-$v-r$round $tpl fused_add_rmsnorm f16 $T 1536,2560 "default;pin_weight=0"
    cmp rms-bf16-$v-r$round $tpl rmsnorm bf16 $T 1536,2560,5376 "default;pin_weight=0"
  done
done
