#!/usr/bin/env bash
# Session 44, call 6: the staged second pass over a part-filled share in two steps (whole items
# in the unrolled loop, then the last one), kernel_templates as kt_s44new (the tree) against
# kt_s44base (e83b32d's). The GPU test of forced staged configs (incl. 36864 on 4 x 256, 4.5
# items); then one process per template set, two rounds: rmsnorm's part-filled defaults
# (36864, 45056), 139264-204800 on 4 x 512 (default) and 16 x 128, the fused add 139264 (16 x 128,
# floor 6). Kernels precompiled here (l8pre < l12_jobs.txt into cache/l12base, cache/l12new).
# Carry: build-tmp .devdeps cache/l12base cache/l12new
source "$(dirname "$0")/../scripts/device_call.sh" s44call6
build_cli test_gpu || exit 1
timeout 120 build-gpu/tests/gpu/test_gpu "forced configs: rows staged in shared memory (bulk and per-thread copies)" > $R/staged-test.txt 2>&1
echo "staged test rc=$? at $(elapsed) s: $(tail -3 $R/staged-test.txt | tr '\n' ' ')"
call_deadline=420
one() { local set=$1 round=$2
  ( export NORMJIT_TEMPLATE_DIR=$PWD/build-tmp/kt_s44$set/kernel_templates NORMJIT_CACHE_DIR=$(mktemp -d); cp -r cache/l12$set/. $NORMJIT_CACHE_DIR/
    bench_run pf-$set-r$round --op rmsnorm --dtype bf16 --hidden 36864,45056 --tokens 1024 --compare default
    bench_run rb-$set-r$round --op rmsnorm --dtype bf16 --hidden 139264,172032,204800 --tokens 1024 --compare "$(cat build-tmp/l12_rb.txt)"
    bench_run fb-$set-r$round --op fused_add_rmsnorm --dtype bf16 --hidden 139264 --tokens 1024 --compare default ) ; }
one base 1; one new 1; one new 2; one base 2
for n in pf rb fb; do for r in 1 2; do for s in base new; do echo "== $n $s r$r"; grep -hE "x[01]\.[0-9]+|not valid|FAILED" $R/$n-$s-r$r.txt | awk '{print $1,$4,$5,$6,$10}'; done; done; done
echo "compiles: $(grep -h -c 'compil' $R/*.txt | paste -sd+)"
echo "done at $(elapsed) s"
