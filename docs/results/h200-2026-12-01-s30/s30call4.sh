#!/usr/bin/env bash
# Device call 4 (session 30, the fused add's bf16 2.x-4.x items and fp32 rows of >512 vectors
# unpinned): the GPU suite, the fp32 rule against the pinned kernels (third round), and sweeps
# where Liger leads the fused add at many rows (32768 x 2304, 8192 x 2560).
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s30call4
gpu_suite_summary 400
[ -x $nj ] || build_cli || exit 1
call_deadline=590
bench_compare pin-fp32-r3 fused_add_rmsnorm f32 256,512,1024,2048,8192 2304,2816,3072,3584,4096 "default;pin_weight=1"
for s in 32768:2304 8192:2560; do
  left=$(( 585 - $(elapsed) )); [ $left -lt 30 ] && break
  timeout $left $nj bench --op fused_add_rmsnorm --tokens ${s%:*} --hidden ${s#*:} --reps 20 --sweep > "$R/sweep-${s/:/x}.txt" 2>&1
  echo "sweep $s rc=$? at $(elapsed) s"; tail -1 "$R/sweep-${s/:/x}.txt" | cut -c1-200
done
