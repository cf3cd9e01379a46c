#!/usr/bin/env bash
# Not run (written at the end of session 48, whose device time was spent): the next session's A/Bs
# around the held rmsnorm shares (docs/benchmarks.md, "Sessions 47-48" and lead 8).
#  1. Narrower rows, 4097-4607 vectors (hidden 33792-35840), 16-bit: the held layout (8 x 128,
#     floor 8, every weight item pinned, reconverted; 64 registers, no spill on sm_90a) against
#     the default (4 x 256 own copies, floor 8), 1024 and 4096 rows.
#  2. gemma_rmsnorm at 36864-40960: the same layout forced (bf16 40960 spills 8 bytes: left out;
#     the others compile clean) against its default.
#  3. 45056-47104: one 512-thread CTA holding the row, weight loaded late, reconverted (64
#     registers, no spill; the 8-CTA layout spills 24-32 bytes there) against the default, 512,
#     1024 and 4096 rows, bf16 and f16.
# Two rounds each, separate processes. Carry: build-tmp .devdeps .whl cache/prewarmed (copy this
# file to build-tmp/ first).
source "$(dirname "$0")/../scripts/device_call.sh" s49call1
build_cli > /dev/null || exit 1
call_deadline=560
held="cluster=8,tpr=128,residency=0,minb=8,pin_weight=1,reconvert=1"
for r in 1 2; do
  bench_run narrow-r$r --op rmsnorm --dtype bf16,f16 --hidden 33792,34816,35840 --tokens 1024,4096 --compare "default;$held"
  bench_run gemma-r$r --op gemma_rmsnorm --dtype bf16 --hidden 36864,38912 --tokens 1024,4096 --compare "default;$held"
  bench_run gemmaf16-r$r --op gemma_rmsnorm --dtype f16 --hidden 36864,38912,40960 --tokens 1024,4096 --compare "default;$held"
  bench_run lw512-r$r --op rmsnorm --dtype bf16,f16 --hidden 45056,47104 --tokens 512,1024,4096 \
    --compare "default;cluster=1,tpr=512,residency=1,reconvert=1"
done
for n in narrow gemma gemmaf16 lw512; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
