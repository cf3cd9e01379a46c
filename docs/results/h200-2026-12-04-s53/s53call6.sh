#!/usr/bin/env bash
# Session 53, call 6: the held rule widened to 3073-4095 vectors (floor 2, from 1024 rows) as it
# stands (the output hint from 64 MiB: 4096 rows now hinted) against the re-read it replaced,
# bf16 / f16 / gemma, interleaved in one process, two rounds.
source "$(dirname "$0")/../scripts/device_call.sh" s53call6
build_cli > /dev/null || exit 1
call_deadline=220
old="tpr=1024,residency=2,minb=0,reconvert=0"
for r in 1 2; do
  bench_run r1k-r$r --op rmsnorm,gemma_rmsnorm --dtype bf16,f16 --tokens 1024 --hidden 26624,28672,30720 --compare "default;$old,loads=0,keep_out=0"
  bench_run r2k-r$r --op rmsnorm,gemma_rmsnorm --dtype bf16,f16 --tokens 2048 --hidden 26624,28672,30720 --compare "default;$old,loads=0,keep_out=1"
  bench_run r4k-r$r --op rmsnorm,gemma_rmsnorm --dtype bf16,f16 --tokens 4096 --hidden 26624,28672,30720 --compare "default;$old,loads=3,keep_out=0"
done
for n in r1k r2k r4k; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
