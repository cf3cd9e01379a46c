#!/usr/bin/env bash
# Session 42, call 7: the staged second pass in one sweep where the floor leaves >= 96 registers
# (the tree's templates, embedded) against HEAD's (kt_base), one process per set, two rounds in
# rotated order, at the staged defaults of 1024 rows; then the whole GPU suite on this tree.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s42call7
build_cli || exit 1
call_deadline=150
one() { local name=$1 tdir=$2; shift 2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run "$name-f" --op fused_add_rmsnorm --dtype bf16 --hidden 98304,131072,196608,262144 --tokens 1024 --compare default
    bench_run "$name-r" --op rmsnorm --dtype bf16 --hidden 98304,131072,196608,262144 --tokens 1024 --compare default
    bench_run "$name-32" --op fused_add_rmsnorm --dtype fp32 --hidden 49152,98304,131072 --tokens 1024 --compare default ) ; }
one base-r1 build-tmp/kt_base; one new-r1 ""; one new-r2 ""; one base-r2 build-tmp/kt_base
for s in f r 32; do
  echo "== $s (base r1, base r2 / new r1, new r2)"
  paste <(grep -hE "x1\.000" $R/base-r1-$s.txt | awk '{print $2,$3,$4,$5,$6}') <(grep -hE "x1\.000" $R/base-r2-$s.txt | awk '{print $6}') \
        <(grep -hE "x1\.000" $R/new-r1-$s.txt | awk '{print $6}') <(grep -hE "x1\.000" $R/new-r2-$s.txt | awk '{print $6}')
done
gpu_suite_summary 430
echo "done at $(elapsed) s"
