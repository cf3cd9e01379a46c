#!/usr/bin/env bash
# Session 54, call 1: the whole GPU suite on 68e0e79 (session 53's final tree: the held rows of
# 3073-4095 vectors under a floor of 2 had run only in bench's validation), then session 53's
# untimed call 7: the fused add's 16-bit rows of 20480 / 24576 at 8192 rows, the default against
# the re-read with the hints by pass on 1024 threads (floor 2), interleaved in one process.
source "$(dirname "$0")/../scripts/device_call.sh" s54call1
call_deadline=585
gpu_suite_summary 450
call_deadline=585
bench_run fw-r1 --op fused_add_rmsnorm --dtype bf16 --tokens 8192 --hidden 20480,24576 --compare \
  "default;tpr=1024,residency=2,loads=3,minb=2,keep_out=1"
rounds_side_by_side fw 1
echo "done at $(elapsed) s"
