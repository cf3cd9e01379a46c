#!/usr/bin/env bash
# Session 58, call 4 (not run: no device machine was lent in session 58; copy it to build-tmp/ and
# rename to the session's call). rmsnorm's held rows with an fp32 weight beside 16-bit rows,
# default / reconvert=1 (the row converted again for its output instead of kept in fp32 across
# the reduction), interleaved in one process, two rounds. With an fp32 weight the held kernels run
# at fewer CTAs an SM than with the rows' own weight; reconvert gives most of them back (sm_90a,
# reconvert-audit.txt): 2048 on 128 threads 10 -> 12 CTAs, 3072 8 -> 10, 4096 7 -> 9, 5120 5 -> 7,
# 9216-10240 on 256 threads 2 -> 3, 12288 on 512 threads 2 -> 4 (50 -> 32 registers), 13312-15360
# 2 -> 3; f16 at 2048-4096 and 13312-15360 alike, f16 7168 and 11264 fewer (not timed here). With
# the own weight session 32 timed reconvert on 35 held shapes: slower at 20 (up to 5.8 %), faster
# at 7 (0.6-2.1 %), so "more CTAs" alone does not decide it. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s58call4
build_cli > /dev/null || exit 1
call_deadline=540
for r in 1 2; do
  bench_run rc-r$r --op rmsnorm --dtype bf16,f16 --weight-dtype f32 --tokens 1024,2048,4096 \
    --hidden 2048,3072,4096,5120,9216,10240,12288,13312,15360 --compare "default;reconvert=1"
done
# gemma_rmsnorm's kernels are the same with (1 + w) (4096 72 -> 56 registers, 9216 96 -> 76, 12288
# 42 -> 32 with reconvert): three widths to confirm.
for r in 1 2; do
  bench_run grc-r$r --op gemma_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 2048 --hidden 4096,9216,12288 \
    --compare "default;reconvert=1"
done
rounds_side_by_side rc 2
rounds_side_by_side grc 2
echo "done at $(elapsed) s"
