#!/usr/bin/env bash
# Session 37, call 1: strided head_dim-64 rows (q of a 48-head qkv tensor, 32 heads): how much of
# torch.compile's lead is addressing? Template sets: base (embedded), h32 (heads fixed at 32: shift
# and mask, 32-bit offsets from run-time strides), h32nm (h32 without row masks), hard (h32nm with
# the strides fixed: 3072/64 in, 2048/64 out), and base with --no-pdl. One process per set, three
# rounds in rotated order; each compares the default with compile's layout (8 lanes x 8 rows, 4 a thread).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s37call1
build_cli || exit 1
call_deadline=560
C="default;tpr=8,rpb=8,rpt=4"
one() { local name=$1 tdir=$2; shift 2
  ( [ -n "$tdir" ] && export NORMJIT_TEMPLATE_DIR=$tdir/kernel_templates; export NORMJIT_CACHE_DIR=$(mktemp -d)
    bench_run "$name" --op rmsnorm --dtype bf16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 4096,8192,16384 --compare "$C" "$@" ) ; }
sets=(base h32 h32nm hard nopdl)
for round in 1 2 3; do
  for i in 0 1 2 3 4; do
    v=${sets[$(( (i + round - 1) % 5 ))]}
    case $v in
      base) one q64-base-r$round "" ;;
      nopdl) one q64-nopdl-r$round "" --no-pdl ;;
      *) one q64-$v-r$round build-tmp/kt_$v ;;
    esac
  done
done
for v in "${sets[@]}"; do rounds_side_by_side q64-$v 3; done
