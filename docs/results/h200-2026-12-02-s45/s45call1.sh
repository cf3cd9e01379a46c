#!/usr/bin/env bash
# Session 45, call 1: the re-read fp32 fused add writing its residual in the first pass and
# re-reading only it (kSumStored), kernel_templates as kt_b (the tree) against kt_a (fa970c0's).
# The GPU test of forced re-read fp32 fused adds; then one process per template set, two rounds
# (a, b, b, a): the defaults that re-read (1024 and 4096 at 8192 and 32768 rows, 262144 at 1024),
# re-read configs at 262144 and at the staged widths 32768-131072, and re-reading at 2048-16384.
# Then session 44's untimed extrapolations (next-call.sh), on the tree.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s45call1
build_cli test_gpu || exit 1
timeout 150 build-gpu/tests/gpu/test_gpu "forced configs: an fp32 fused add re-reading the sum it stored" > $R/sumstored-test.txt 2>&1
echo "sum-stored test rc=$? at $(elapsed) s: $(tail -3 $R/sumstored-test.txt | tr '\n' ' ')"
call_deadline=470
one() { local set=$1 round=$2
  ( export NORMJIT_TEMPLATE_DIR=$PWD/build-tmp/kt_$set/kernel_templates NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run fd-$set-r$round --op fused_add_rmsnorm --dtype f32 --hidden 1024,4096 --tokens 8192,32768 --compare default
    bench_run fw-$set-r$round --op fused_add_rmsnorm --dtype f32 --hidden 262144 --tokens 1024 --compare "default;cluster=8,tpr=512,residency=2;cluster=16,tpr=256,residency=2;cluster=16,tpr=1024,residency=2;cluster=4,tpr=1024,residency=2"
    bench_run fm-$set-r$round --op fused_add_rmsnorm --dtype f32 --hidden 32768,65536,131072 --tokens 1024 --compare "default;cluster=4,tpr=1024,residency=2;cluster=8,tpr=256,residency=2;cluster=8,tpr=1024,residency=2"
    bench_run fn-$set-r$round --op fused_add_rmsnorm --dtype f32 --hidden 2048,8192,16384 --tokens 8192,32768 --compare "default;residency=2,loads=3;residency=2,loads=0" ) ; }
one a 1; one b 1; one b 2; one a 2
for n in fd fw fm fn; do for s in a b; do rounds_side_by_side $n-$s 2; done; done
call_deadline=590
bench_run wide-r --op rmsnorm --dtype bf16 --hidden 172032,180224,204800,212992,237568 --tokens 1024 --compare "default;cluster=4,tpr=512,residency=3,loads=1"
bench_run wide-f32 --op rmsnorm --dtype f32 --hidden 86016,102400,118784 --tokens 1024 --compare "default;cluster=4,tpr=512,residency=3,loads=1"
for f in wide-r wide-f32; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" $R/$f.txt | awk '{print $1,$4,$5,$6,$10,$11}'; done
echo "done at $(elapsed) s"
