#!/usr/bin/env bash
# Session 45, call 2: the whole GPU suite on this tree (the sum-stored re-read of the fp32 fused
# add, its 512-thread cluster shares at 245760-262144); then the few-row fp32 fused add 262144
# defaults (8 x 1024 re-read, which the template change reaches) one process per template set,
# kt_a (fa970c0's) against kt_c (this tree), two rounds; and rows of 4096 vectors held on one
# 1024-thread CTA (the fused add, fp32 16384 and bf16 32768) against re-reading them with the
# hints by pass, 1024-32768 rows, two rounds.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s45call2
gpu_suite_summary 430
build_cli > /dev/null || exit 1
call_deadline=585
one() { local set=$1 round=$2
  ( export NORMJIT_TEMPLATE_DIR=$PWD/build-tmp/kt_$set/kernel_templates NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run few-$set-r$round --op fused_add_rmsnorm --dtype f32 --hidden 262144 --tokens 1,32,128 --compare default ) ; }
one a 1; one c 1; one c 2; one a 2
for s in a c; do rounds_side_by_side few-$s 2; done
for r in 1 2; do
  bench_run h4k-r$r --op fused_add_rmsnorm --dtype f32 --hidden 16384 --tokens 1024,2048,4096,8192,16384,32768 --compare "default;residency=2,loads=3"
  bench_run h4kb-r$r --op fused_add_rmsnorm --dtype bf16 --hidden 32768 --tokens 1024,2048,4096,8192,16384,32768 --compare "default;residency=2,loads=3"
done
rounds_side_by_side h4k 2; rounds_side_by_side h4kb 2
echo "done at $(elapsed) s"
