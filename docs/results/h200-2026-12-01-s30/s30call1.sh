#!/usr/bin/env bash
# Device call 1 (session 30, 95f3c8c): the GPU suite (first run of the split switch-row test, the
# rows65 Switch cases, the sweep's weight pins), then lead 2 (bf16 fused add pinned rows of 2.x /
# 4.x items: default / pin 2 / pin 0), a sweep with pins, and the peers at rmsnorm 576-768.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s30call1
gpu_suite_summary 380
[ -x $nj ] || build_cli || exit 1
call_deadline=470
bench_compare lead2-fused-bf16 fused_add_rmsnorm bf16 256,1024,2048,8192,32768 2304,2816,4608,4864 "default;pin_weight=2;pin_weight=0"
bench_compare lead3-fused-2040 fused_add_rmsnorm bf16 256,512,16384 2040 "default;pin_weight=0;pin_weight=1"
timeout 45 $nj bench --op fused_add_rmsnorm --tokens 2048 --hidden 1536 --reps 10 --sweep > "$R/sweep-1536.txt" 2>&1
echo "sweep rc=$? at $(elapsed) s"; tail -4 "$R/sweep-1536.txt"
left=$(( 590 - $(elapsed) )); [ $left -lt 40 ] && exit 0
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,gemma_rmsnorm --tokens 8192,32768,131072 --hidden 576,640,768 \
  --autotune-min-tokens 100000000 --reps 20 --csv "$R/rows65-peers.csv" > "$R/rows65-peers.txt" 2> "$R/rows65-peers-stderr.txt"
echo "peers rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/rows65-peers.txt" | grep -v "^|---\|^| shape" | cut -c1-200
