#!/usr/bin/env bash
# Session 42, call 6: the staged rows' second pass unrolled over all of a thread's items (kt_u16:
# every weight load of the pass in flight at once, 142 registers for the fused add 262144 under its
# floor of 3 CTAs) against the embedded templates; one process per set, two rounds, rotated order.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s42call6
build_cli || exit 1
call_deadline=400
one() { local name=$1 tdir=$2; shift 2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run "$name-f" --op fused_add_rmsnorm --dtype bf16 --hidden 131072,196608,262144 --tokens 1024 --compare default
    bench_run "$name-r" --op rmsnorm --dtype bf16 --hidden 262144 --tokens 1024 --compare default
    bench_run "$name-f4" --op fused_add_rmsnorm --dtype bf16 --hidden 262144 --tokens 4096 --compare default
    bench_run "$name-32" --op fused_add_rmsnorm --dtype fp32 --hidden 98304,131072 --tokens 1024 --compare default ) ; }
for round in 1 2; do
  if [ $round = 1 ]; then one base-r1 ""; one u16-r1 build-tmp/kt_u16; else one u16-r2 build-tmp/kt_u16; one base-r2 ""; fi
done
for s in f r f4 32; do
  echo "== $s (base r1, base r2 / u16 r1, u16 r2)"
  paste <(grep -hE "x1\.000" $R/base-r1-$s.txt | awk '{print $2,$3,$4,$5,$6}') <(grep -hE "x1\.000" $R/base-r2-$s.txt | awk '{print $6}') \
        <(grep -hE "x1\.000" $R/u16-r1-$s.txt | awk '{print $6}') <(grep -hE "x1\.000" $R/u16-r2-$s.txt | awk '{print $6}')
done
echo "done at $(elapsed) s"
