#!/usr/bin/env bash
# Session 57, call 2: the new rules' GPU switch cases (both sides of each switch against float64),
# then two measurements for what the rules left: (a) the fused add's odd vector counts of
# 2049-4095 below kBulkRowsWide rows (1-511) still take the 1024-thread re-read, where the even
# counts are held (c2 lw from 33 rows, c8 below): the one-CTA held row forced, own and fp32
# weights; (b) the even counts with an fp32 weight at register usage level 2. Interleaved in one
# process, two rounds for (a). Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s57call2
build_cli test_gpu > /dev/null || exit 1
call_deadline=560
timeout 200 build-gpu/tests/gpu/test_gpu "default configs at the row counts that switch kernels*" > "$R/switch-tests.txt" 2>&1
echo "switch tests rc=$? at $(elapsed) s"; tail -3 "$R/switch-tests.txt"
for r in 1 2; do
  bench_run oddfew-r$r --op fused_add_rmsnorm --dtype bf16 --weight-dtype bf16,f32 --tokens 1,8,32,64,128,256,511 \
    --hidden 16392,25608,31752 --compare "default;residency=1,loads=0;residency=1,loads=0,reg_usage=2"
done
bench_run evenw2-r1 --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 1024,2048,8192 \
  --hidden 25600,26640,28672,31744 --compare "default;reg_usage=2"
bench_run oddfew16-r1 --op fused_add_rmsnorm --dtype f16 --tokens 8,128,511 --hidden 16392,25608 \
  --compare "default;residency=1,loads=0"
rounds_side_by_side oddfew 2
rounds_side_by_side evenw2 1
rounds_side_by_side oddfew16 1
echo "done at $(elapsed) s"
