#!/usr/bin/env bash
# Not run (session 53 ran out of device time): copy to build-tmp/ (rename the call) and carry build-tmp .devdeps .whl cache/prewarmed.
# Session 53, call 7 (the device time left: one round): the fused add's wider 16-bit rows held on
# 1024 threads (hidden 20480, 24576; 2.5-3 items a thread) against the re-read with the hints by
# pass that call 3 took for 16384, at 8192 rows, interleaved in one process.
source "$(dirname "$0")/../scripts/device_call.sh" s53call7
build_cli > /dev/null || exit 1
call_deadline=100
bench_run fw-r1 --op fused_add_rmsnorm --dtype bf16 --tokens 8192 --hidden 20480,24576 --compare \
  "default;tpr=1024,residency=2,loads=3,minb=2,keep_out=1"
rounds_side_by_side fw 1
echo "done at $(elapsed) s"
