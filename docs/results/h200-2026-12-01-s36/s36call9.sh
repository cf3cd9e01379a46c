#!/usr/bin/env bash
# Session 36, call 9: strided per-head rows with 32-bit offsets (an experiment: build-tmp/kt_off32,
# row_offset and the row bound in 32 bits, as torch.compile's kernels address) against the
# embedded templates; the default layout and torch.compile's (8 lanes x 8 rows, four a thread);
# one process per template set, two rounds in opposite orders.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call9
build_cli || exit 1
one() { local name=$1 tdir=$2; shift 2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$tdir; cache=$(mktemp -d)
    timeout 100 $nj bench --cache-dir $cache --reps 60 --op rmsnorm --dtype bf16,f16 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s" ) ; }
C="default;tpr=8,rpb=8,rpt=4,reconvert=0,weight_shared=0"
for round in 1 2; do
  for v in base off32; do
    if [ $round = 2 ]; then v=$([ $v = base ] && echo off32 || echo base); fi
    t=""; [ $v = off32 ] && t=build-tmp/kt_off32/kernel_templates
    one q64-$v-r$round "$t" --hidden 64 --heads 32 --qkv-heads 48 --tokens 4096,8192 --compare "$C"
    one q128-$v-r$round "$t" --hidden 128 --heads 32 --qkv-heads 48 --tokens 4096,8192 --compare "$C"
    one k64-$v-r$round "$t" --hidden 64 --heads 8 --qkv-heads 48 --tokens 32768 --compare "$C"
  done
done
for f in q64 q128 k64; do echo "== $f"; for v in base off32; do for r in 1 2; do grep -E "x[01]\.[0-9]+" "$R/$f-$v-r$r.txt" | awk -v t=$v-r$r '{print t,$2,$3,$4,$5,$6}'; done; done | sort -k2,2 -k3,3n -k5,5 -k1,1 | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$1"="$6} END {print line}'; done
