#!/usr/bin/env bash
# Session 58, call 1 (not run: no device machine was lent in session 58; copy it and
# f32-weight-no-pairs.patch to build-tmp/, rename to the session's call, run with carry build-tmp
# .devdeps .whl). The held 16-bit rows of 4096 vectors on 1024 threads with an fp32 weight
# (rmsnorm, gemma_rmsnorm; hidden 32768 at 1024-4095 rows) take 42 registers (one CTA an SM) where
# a weight of the rows' type takes 32 (two), because their late weight is loaded two items at a
# time (kPairs): 16 registers a pair in fp32. They ran at 77-84 % of copy (40.6 us at 1024 x
# 32768, the own weight 33.5). The patch loads such a weight one item at a time: 32 registers, no
# stack, no late row loads (sm_90a SASS); only these 4 of 1884 fp32-weight defaults change (cubins
# compared). With it the rows of 3073-4095 vectors (25600-30720), re-read at 40 registers below
# 2048 rows where the own weight is held under a floor of 2, hold under that floor without a spill
# (the base template spills 24 bytes at 2048 rows).
source "$(dirname "$0")/../scripts/device_call.sh" s58call1
build_cli > /dev/null || exit 1
call_deadline=560
root=$PWD variant=$(mktemp -d)
cp -r kernel_templates "$variant/" && (cd "$variant" && patch -p1 -s < "$root/build-tmp/f32-weight-no-pairs.patch") || exit 1
# 1. The changed defaults, base / no pairs, one process per template set, two rounds in
#    alternating order; 24576 (3 items, unchanged) as the control.
args=(-- --op rmsnorm,gemma_rmsnorm --dtype bf16,f16 --weight-dtype f32 --tokens 1024,2048 --hidden 24576,32768 --reps 60)
timeout 150 python3 scripts/template_ab.py --normjit "$nj" base "nopairs=$variant/kernel_templates" "${args[@]}" \
  > "$R/nopairs-r1.txt" 2>&1; echo "r1 rc=$? at $(elapsed) s"
timeout 150 python3 scripts/template_ab.py --normjit "$nj" "nopairs=$variant/kernel_templates" base "${args[@]}" \
  > "$R/nopairs-r2.txt" 2>&1; echo "r2 rc=$? at $(elapsed) s"
# 2. On the no-pairs set: rows of 3073-4095 vectors with an fp32 weight below 2048 rows, re-read
#    at 40 registers by default (one CTA an SM; the pairs of fp32 weight vectors again), against
#    held under a floor of 2 (32 registers, no stack with the patch) and the re-read under that
#    floor (32, 8 bytes of stack), interleaved in one process, two rounds; a weight of the rows'
#    type as the reference (held under the floor from 1024 rows, re-read at 32 below).
for r in 1 2; do
  NORMJIT_TEMPLATE_DIR=$variant/kernel_templates bench_run held-r$r --op rmsnorm --dtype bf16,f16 \
    --weight-dtype f32 --tokens 512,1024,2048 --hidden 25600,28672,30720 \
    --compare "default;residency=1,reconvert=1,loads=0,minb=2;minb=2"
done
bench_run own-r1 --op rmsnorm --dtype bf16 --tokens 512,1024,2048 --hidden 25600,28672,30720,32768 --compare default
cat "$R/nopairs-r1.txt" "$R/nopairs-r2.txt"
rounds_side_by_side held 2
grep -E "x1\.000|default" "$R/own-r1.txt"
echo "done at $(elapsed) s"
