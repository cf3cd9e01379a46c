#!/usr/bin/env bash
# Session 38, call 1: the GPU suite on 198fc7d (head_blocks tree, never run whole); then the
# 64-head adjacency variant (build-tmp/kt_lin: a token's head blocks adjacent in dispatch order)
# against the committed template, rounds in separate processes; then gemma/rmsnorm 128 x 8192 beside
# the peers (lead 5) and a sweep of gemma 128 x 8192.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s38call1
gpu_suite_summary 420
call_deadline=520
A="--op rmsnorm --dtype bf16 --hidden 64 --heads 64 --qkv-heads 96 --tokens 2048,4096,8192,16384"
bench_run h64base-r1 $A --compare "head_blocks=1;head_blocks=0"
NORMJIT_TEMPLATE_DIR=build-tmp/kt_lin bench_run h64lin-r1 $A --compare "head_blocks=1;head_blocks=0"
NORMJIT_TEMPLATE_DIR=build-tmp/kt_lin bench_run h64lin-r2 $A --compare "head_blocks=1;head_blocks=0"
bench_run h64base-r2 $A --compare "head_blocks=1;head_blocks=0"
rounds_side_by_side h64base 2; rounds_side_by_side h64lin 2
left=$(( 580 - $(elapsed) ))
if [ $left -gt 30 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops gemma_rmsnorm,rmsnorm --tokens 128 --hidden 4096,8192 \
    --autotune-min-tokens 100000000 --reps 80 --csv "$R/g128.csv" > "$R/g128.txt" 2> "$R/g128-stderr.txt"
  echo "g128 rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/g128.txt" | tail -8
fi
call_deadline=595
bench_run gsweep --op gemma_rmsnorm --dtype bf16 --tokens 128 --hidden 8192 --sweep
tail -5 "$R/gsweep.txt"
echo "done at $(elapsed) s"
