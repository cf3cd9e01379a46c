#!/usr/bin/env bash
# Session 58, call 3 (not run: no device machine was lent in session 58; copy it to build-tmp/ and
# rename to the session's call). An fp32 weight beside bf16 rows at the hidden sizes of real models
# outside the grid (2304, 3072, 3584, 5120, 6144, 7168, 12288), against a bf16 weight, two rounds in
# separate processes. Session 55 timed an fp32 weight at the grid's 2048-16384 only (within 0-3 % of
# a bf16 weight after its rules); session 58's CPU audit (occupancy-audit.txt) has the fp32 weight's
# defaults at fewer CTAs an SM at several of these widths (3072 at 8192+ rows 8 -> 5, 5120 7 -> 5,
# 6144 and 7168 5 -> 4, 12288 3 -> 2 at 2048-4096 rows). Where one falls > 3 % behind its bf16
# weight, a sweep of that shape (bench --sweep --weight-dtype f32) is the next step. Carry build-tmp
# .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s58call3
build_cli > /dev/null || exit 1
call_deadline=540
for r in 1 2; do
  bench_run wmodel-r$r --op rmsnorm,fused_add_rmsnorm --dtype bf16 --weight-dtype bf16,f32 \
    --tokens 512,2048,8192,32768 --hidden 2304,3072,3584,5120,6144,7168,12288
done
# The fused add's 16384 with an fp32 weight, held on 512 threads at 82 registers (one CTA an SM;
# the own weight 64, two: 96.6 % of copy at 2048 rows against 95.3 % in session 55) against one
# 1024-thread CTA with the weight late (36 registers), interleaved, two rounds.
for r in 1 2; do
  bench_run f16k-r$r --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 512,2048,4096 \
    --hidden 16384 --compare "default;tpr=1024,residency=1"
done
rounds_side_by_side f16k 2
# op dtype/wdtype tokens hidden config median: the two rounds side by side
for r in 1 2; do grep -E "^(rmsnorm|fused)" "$R/wmodel-r$r.txt" | awk -v r=$r '{print $1, $2, $3, $4, r, $6, $10}'; done |
  sort -k1,1 -k4,4n -k3,3n -k2,2 -k5,5n
echo "done at $(elapsed) s"
