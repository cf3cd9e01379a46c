#!/usr/bin/env bash
# Device call 2 (session 31): residency 4 (each thread copies its own items into shared memory)
# beside the defaults, interleaved; its [smem] GPU test; sweeps of residency-4 shapes at the wide
# rows; rmsnorm f16 7168 now unpinned by default (against the pin).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s31call2
source scripts/gpu_build.sh
gpu_build "" normjit_cli test_gpu > "$R/build.txt" 2>&1 || { tail -20 "$R/build.txt"; exit 1; }
echo "built at $(elapsed) s"
timeout 120 build-gpu/tests/gpu/test_gpu "[smem]" > "$R/test-smem.log" 2>&1
echo "smem test rc=$? $(tail -2 "$R/test-smem.log" | tr '\n' ' ') at $(elapsed) s"
call_deadline=560
bench_compare lanes-wide-bf16 rmsnorm,fused_add_rmsnorm bf16 1024,2048,4096 65536,131072,262144 "default;residency=4"
grep -E "x[01]\.[0-9]+" "$R/lanes-wide-bf16.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
bench_compare lanes-wide-f32 rmsnorm,fused_add_rmsnorm f32 1024,4096 32768,65536,131072 "default;residency=4"
grep -E "x[01]\.[0-9]+" "$R/lanes-wide-f32.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
bench_compare rms7168 rmsnorm f16 256,1024,4096,8192 7168 "default;pin_weight=1"
grep -E "x[01]\.[0-9]+" "$R/rms7168.txt" | awk '{print $1,$2,$3,$4,$5,$6,$12,$NF}'
for sh in "rmsnorm 1024 65536" "rmsnorm 1024 32768" "fused_add_rmsnorm 1024 65536" "rmsnorm 1024 131072" "fused_add_rmsnorm 1024 131072"; do
  set -- $sh
  left=$(( 560 - $(elapsed) )); [ $left -lt 30 ] && { echo "skip sweep $sh"; continue; }
  timeout $left $nj bench --op $1 --tokens $2 --hidden $3 --reps 20 --sweep --config residency=4 > "$R/sweep4-$1-$3.txt" 2>&1
  echo "sweep $sh rc=$? at $(elapsed) s: $(grep -iE '^best|best:' "$R/sweep4-$1-$3.txt" | tail -1)"
done
