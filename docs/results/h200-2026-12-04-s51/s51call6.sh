#!/usr/bin/env bash
# Session 51, call 6: rmsnorm 32768 x 16384 under a floor of 2 (47 registers, 2 CTAs of 512 an SM) with and
# without the hint on the tail (call 5: the tail under that floor ran 0.5 % under the default).
source "$(dirname "$0")/../scripts/device_call.sh" s51call6
build_cli > /dev/null || exit 1
call_deadline=250
for r in 1 2; do
  bench_run w16kb-r$r --op rmsnorm --dtype bf16 --tokens 32768 --hidden 16384 --compare \
    "default;minb=2;keep_out=1,keep_tail=16,minb=2;keep_out=1,minb=2;keep_out=1,keep_tail=32,minb=2;minb=0"
done
rounds_side_by_side w16kb 2
echo "done at $(elapsed) s"
