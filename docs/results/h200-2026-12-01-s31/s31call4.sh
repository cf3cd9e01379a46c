#!/usr/bin/env bash
# Device call 4 (session 31, a8a2871): the GPU suite (residency 4's [smem] test, the new default's
# switch rows, f16 7168 unpinned), the new default against the old at 512 and 8192 rows, then the
# wide rows beside the peers at 1024 tokens as time allows.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s31call4
gpu_suite_summary 420
[ -x $nj ] || build_cli || exit 1
call_deadline=470
old="default;tpr=512,cluster=2,residency=3"
bench_compare lanes-rows rmsnorm bf16 512,8192 65536 "$old"
bench_compare lanes-rows-f32 rmsnorm f32 512,1024,8192 32768 "$old"
grep -hE "x[01]\.[0-9]+" "$R"/lanes-rows*.txt | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
left=$(( 590 - $(elapsed) ))
if [ $left -gt 100 ]; then
  REBUILD=1 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 1024 \
    --hidden 32768,65536,131072,262144 --reps 20 --autotune-min-tokens 1000000 --csv "$R/wide.csv" > "$R/wide.txt" 2> "$R/wide-stderr.txt"
  echo "wide rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/wide.txt" | tail -14
fi
