#!/usr/bin/env bash
# Session 54, call 5 (an experiment, not a rule): the held fused add's part-filled third item in
# bf16 issues its loads after the first items' adds (SASS). build-tmp/kt_pinrow ties the last
# item's first row words to the first item's (as kPinWeight does for the weight), which puts all
# six loads together in SASS. Base templates against kt_pinrow, one process each, two rounds in
# alternating order: the fused add bf16/f16 at 512-2048 rows held (default and OLD, the held row
# as a full override) and rmsnorm's held rows at 1024 x 20480 / 28672.
source "$(dirname "$0")/../scripts/device_call.sh" s54call5
build_cli > /dev/null || exit 1
call_deadline=290
OLD="tpr=1024,rpb=1,vec=8,residency=1,minb=0,loads=0,stores=0,cluster=1,split=1,weight_first=0,keep_out=0,keep_tail=0,pin_weight=0,rpt=1,trigger=auto,prefetch=none,reconvert=0,dense=0,weight_shared=0,head_blocks=0"
one() { local name=$1 tdir=$2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$PWD/$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run "$name" --op fused_add_rmsnorm --dtype bf16,f16 --tokens 512,1024,2048 --hidden 17408,20480,22528 --compare "default;$OLD"
    bench_run "rms-$name" --op rmsnorm --dtype bf16 --tokens 1024 --hidden 20480,28672 --compare "default" ) ; }
one fp-base-r1 ""; one fp-pin-r1 build-tmp/kt_pinrow
one fp-pin-r2 build-tmp/kt_pinrow; one fp-base-r2 ""
for n in fp-base fp-pin rms-fp-base rms-fp-pin; do rounds_side_by_side $n 2; done
echo "done at $(elapsed) s"
