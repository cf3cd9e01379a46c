#!/usr/bin/env bash
# Session 51, call 7: rmsnorm rows of 2048 16-byte vectors (hidden 16384, 16-bit) re-read on 512
# threads, declared for 2 CTAs an SM (47 registers) against the default's 3 (40), at 8192-32768
# rows, bf16, f16 and gemma; call 6 had 2 CTAs 0.5 % ahead at 32768 x 16384 bf16.
source "$(dirname "$0")/../scripts/device_call.sh" s51call7
build_cli > /dev/null || exit 1
call_deadline=200
for r in 1 2; do
  bench_run b2-r$r --op rmsnorm,gemma_rmsnorm --dtype bf16,f16 --tokens 8192,16384,32768 --hidden 16384 --compare "default;minb=2"
done
rounds_side_by_side b2 2
echo "done at $(elapsed) s"
