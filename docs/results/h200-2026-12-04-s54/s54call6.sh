#!/usr/bin/env bash
# Session 54, call 6 (the experiment's other rows): with build-tmp/kt_pinrow, the held row (OLD)
# against the re-read default at 4096 and 8192 rows, bf16 and gemma bf16, and bf16 2048 again;
# one process a round, two rounds.
source "$(dirname "$0")/../scripts/device_call.sh" s54call6
build_cli > /dev/null || exit 1
call_deadline=150
OLD="tpr=1024,rpb=1,vec=8,residency=1,minb=0,loads=0,stores=0,cluster=1,split=1,weight_first=0,keep_out=0,keep_tail=0,pin_weight=0,rpt=1,trigger=auto,prefetch=none,reconvert=0,dense=0,weight_shared=0,head_blocks=0"
export NORMJIT_TEMPLATE_DIR=$PWD/build-tmp/kt_pinrow/kernel_templates NORMJIT_CACHE_DIR=$(mktemp -d)
for r in 1 2; do
  bench_run pin-r$r --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype bf16 --tokens 2048,4096,8192 --hidden 17408,20480,22528 --compare "default;$OLD"
done
rounds_side_by_side pin 2
echo "done at $(elapsed) s"
