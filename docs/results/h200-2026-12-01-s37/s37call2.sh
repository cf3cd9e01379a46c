#!/usr/bin/env bash
# Session 37, call 2: which part of call 1's h32nm gain is the row masks? Template sets: base,
# nm (no row masks in rms_norm_rows, 64-bit offsets), nm32 (nm with 32-bit offsets from the
# run-time strides and heads), h32nm (call 1's). One process per set, three rounds rotated; only
# shapes whose rows fill whole blocks (the no-mask sets would read past the end otherwise).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s37call2
build_cli || exit 1
call_deadline=560
one() { local name=$1 tdir=$2; shift 2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run "$name-q64" --op rmsnorm --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 4096,8192,16384 --compare "default;tpr=8,rpb=8,rpt=4"
    [ "$name" = "${name#*h32}" ] || exit 0   # h32nm fixes 32 heads and 48-head strides
    bench_run "$name-k64" --op rmsnorm --dtype bf16 --hidden 64 --heads 8 --qkv-heads 48 --tokens 32768 --compare default
    bench_run "$name-q128" --op rmsnorm --dtype bf16 --hidden 128 --heads 32 --qkv-heads 48 --tokens 4096,8192 --compare default
    bench_run "$name-d64" --op rmsnorm --dtype bf16,f16 --hidden 64 --heads 32 --tokens 4096,8192 --compare default
    bench_run "$name-d64b" --op rmsnorm --dtype bf16 --hidden 64 --heads 24 --tokens 4096 --compare default
    bench_run "$name-d128" --op rmsnorm --dtype bf16,f16 --hidden 128 --heads 32 --tokens 2048,4096 --compare default ) ; }
sets=(base nm nm32 h32nm)
for round in 1 2 3; do
  for i in 0 1 2 3; do
    v=${sets[$(( (i + round - 1) % 4 ))]}
    case $v in
      base) one base-r$round "" ;;
      *) one $v-r$round build-tmp/kt_$v ;;
    esac
  done
done
for v in "${sets[@]}"; do for s in q64 k64 q128 d64 d64b d128; do
  for r in 1 2 3; do [ -f $R/$v-r$r-$s.txt ] && cp $R/$v-r$r-$s.txt $R/$s-$v-r$r.txt; done
  [ -f $R/$s-$v-r1.txt ] && rounds_side_by_side $s-$v 3; done; done
