#!/usr/bin/env bash
# Session 55, call 1: (A) session 54's left call 7 on the tree with pin-last-row.patch applied
# (kPinLastRow, the fused add's part-filled re-read from 8192 rows): its defaults validated at both
# sides of the switch, and the pinned held kernels calls 5-6 did not time (bf16 16400, 23552,
# 24560 at 1024 rows) against the unpinned templates (build-tmp/kt_orig: HEAD's), one process each.
# (B) rmsnorm's 11-item rows on one 512-thread CTA (hidden 41984-45056; late weight, floor 2) issue
# the last item's load late (late_loads.py); build-tmp/kt_p4 pins it: A/B one process per template
# set, two rounds. (C) bf16 against f16 where bf16's 4-item fused add loads late (24592-31760).
source "$(dirname "$0")/../scripts/device_call.sh" s55call1
build_cli > /dev/null || exit 1
call_deadline=330
bench_run fin-r1 --op fused_add_rmsnorm,gemma_fused_add_rmsnorm --dtype bf16,f16 --tokens 8191,8192 --hidden 20480 --compare "default"
one() { local name=$1 tdir=$2; shift 2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$PWD/$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run "$name" "$@" --compare "default" ) ; }
E="--op fused_add_rmsnorm --dtype bf16 --tokens 1024 --hidden 16400,23552,24560"
one edge-pin-r1 "" $E; one edge-orig-r1 build-tmp/kt_orig $E; one edge-orig-r2 build-tmp/kt_orig $E; one edge-pin-r2 "" $E
P="--op rmsnorm --dtype bf16,f16 --tokens 1024,4096 --hidden 41984,43008,45056"
one p11-base-r1 "" $P; one p11-pin-r1 build-tmp/kt_p4 $P; one p11-pin-r2 build-tmp/kt_p4 $P; one p11-base-r2 "" $P
bench_run f4-r1 --op fused_add_rmsnorm --dtype bf16,f16 --tokens 1024,2048,8192 --hidden 26640,28672 --compare "default"
rounds_side_by_side fin 1
for n in edge-pin edge-orig p11-base p11-pin; do rounds_side_by_side $n 2; done
rounds_side_by_side f4 1
echo "done at $(elapsed) s"
