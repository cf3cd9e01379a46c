#!/usr/bin/env bash
# Session 45, call 3: the final tree's changes since call 2's suite: the GPU test of forced
# re-read fp32 fused adds (trimmed, with 256-thread shapes) and the switch-rows test (with the fp32
# fused add 16384 at kBulkRowsFusedAdd), in parallel; then the fp32 fused add's new defaults timed
# against what they replaced, two rounds: 16384 (re-read from 8192 rows) against held (residency
# 1), and 245760-262144 at 1024 rows (8 x 512) against 8 x 256.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s45call3
build_cli test_gpu || exit 1
t=build-gpu/tests/gpu/test_gpu
timeout 300 $t "forced configs: an fp32 fused add re-reading the sum it stored" > $R/sumstored-test.txt 2>&1 &
timeout 300 $t "default configs at the row counts that switch kernels" > $R/switch-test.txt 2>&1 &
wait
for f in sumstored switch; do echo "$f: $(tail -2 $R/$f-test.txt | tr '\n' ' ')"; grep -m3 -B3 -A10 FAILED $R/$f-test.txt; done
echo "tests done at $(elapsed) s"
call_deadline=500
for r in 1 2; do
  bench_run r16k-r$r --op fused_add_rmsnorm --dtype f32 --hidden 16384 --tokens 4096,8192,32768 --compare "default;residency=1,loads=0"
  bench_run rw-r$r --op fused_add_rmsnorm --dtype f32 --hidden 245760,262144 --tokens 1024 --compare "default;cluster=8,tpr=256,residency=2"
done
rounds_side_by_side r16k 2; rounds_side_by_side rw 2
echo "done at $(elapsed) s"
