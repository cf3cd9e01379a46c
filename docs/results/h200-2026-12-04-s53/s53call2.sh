#!/usr/bin/env bash
# Session 53, call 2: A/Bs of call 1's sweep leads, interleaved in one process, two rounds.
# (1) the fused add's 16-bit rows of 2048 vectors (hidden 16384; t1024 streaming, weight late by
#     default) re-read with the hints by pass, as its rows of 1024 vectors are from 8192 rows;
# (2) rmsnorm's 16-bit rows of 2560-4096 vectors (hidden 20480-32768; one 1024-thread CTA
#     re-reading by default) held on that CTA, weight late, reconverted.
source "$(dirname "$0")/../scripts/device_call.sh" s53call2
build_cli > /dev/null || exit 1
call_deadline=585
for r in 1 2; do
  bench_run fa-r$r --op fused_add_rmsnorm --dtype bf16,f16 --tokens 2048,4096,8192,16384,32768 --hidden 16384 --compare \
    "default;tpr=1024,residency=2,loads=3,minb=2;tpr=1024,residency=2,loads=3,minb=1;tpr=512,residency=2,loads=3,minb=3"
  bench_run held-r$r --op rmsnorm --dtype bf16 --tokens 1024,2048,4096,8192 --hidden 20480,24576,28672,32768 --compare \
    "default;tpr=1024,residency=1,loads=0,reconvert=1,keep_out=0;tpr=1024,residency=1,loads=0,reconvert=1,keep_out=1"
done
rounds_side_by_side fa 2
rounds_side_by_side held 2
echo "done at $(elapsed) s"
