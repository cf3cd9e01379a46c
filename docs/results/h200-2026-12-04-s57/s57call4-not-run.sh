#!/usr/bin/env bash
# Session 57, call 4 (not run: no device machine was lent after call 3). A CPU late-load audit of 608 defaults with an fp32 weight beside 16-bit rows
# (late_loads.py; none audited so before) found two that register usage level 2 issues together:
# rmsnorm's and the fused add's bf16 rows of 2048 on 128 threads holding the row with the weight
# pinned (2 row loads late; none at level 2: rmsnorm 42 registers either way, the fused add 48 -> 46), and the bf16 fused add's rows of
# 9216-15360 on 1024 threads at 33-255 rows (as with a bf16 weight: 2 late, none at level 2). Each
# timed against the default, interleaved in one process, two rounds. Carry build-tmp .devdeps .whl.
source "$(dirname "$0")/../scripts/device_call.sh" s57call4  # copy to build-tmp/ and rename for a later session
build_cli > /dev/null || exit 1
call_deadline=300
for r in 1 2; do
  bench_run w2048-r$r --op rmsnorm,gemma_rmsnorm,fused_add_rmsnorm --dtype bf16 --weight-dtype f32 \
    --tokens 256,1024,4096,16384 --hidden 2048 --compare "default;reg_usage=2"
  bench_run wfew-r$r --op fused_add_rmsnorm --dtype bf16 --weight-dtype f32 --tokens 64,128,200 \
    --hidden 9216,12288,15360 --compare "default;reg_usage=2"
done
rounds_side_by_side w2048 2
rounds_side_by_side wfew 2
echo "done at $(elapsed) s"
