#!/usr/bin/env bash
# Session 45, call 4: the sum-stored re-read under the hints by pass with first-pass loads that
# skip L1 allocation (policy 2) instead of evict-first (kt_d, a variant) against the tree (kt_c:
# loads 3 keeps the two-tensor re-read), one process per template set, two rounds (c, d, d, c):
# fp32 fused add 1024-16384 at 8192 and 32768 rows, default and re-read with the hints by pass.
# Then the GPU test of forced re-read fp32 fused adds under kt_d, as far as the time goes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s45call4
build_cli test_gpu || exit 1
call_deadline=200
one() { local set=$1 round=$2
  ( export NORMJIT_TEMPLATE_DIR=$PWD/build-tmp/kt_$set/kernel_templates NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run h-$set-r$round --op fused_add_rmsnorm --dtype f32 --hidden 1024,2048,4096,8192,16384 --tokens 8192,32768 --compare "default;residency=2,loads=3" ) ; }
one c 1; one d 1; one d 2; one c 2
for s in c d; do rounds_side_by_side h-$s 2; done
left=$(( 270 - $(elapsed) ))
[ $left -gt 20 ] && NORMJIT_TEMPLATE_DIR=$PWD/build-tmp/kt_d/kernel_templates timeout $left build-gpu/tests/gpu/test_gpu "forced configs: an fp32 fused add re-reading the sum it stored" > $R/sumstored-d-test.txt 2>&1
echo "kt_d sum-stored test rc=$? at $(elapsed) s: $(tail -2 $R/sumstored-d-test.txt | tr '\n' ' ')"
