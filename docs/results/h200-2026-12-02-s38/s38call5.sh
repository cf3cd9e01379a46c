#!/usr/bin/env bash
# Session 38, call 5: strided head_dim-64 rows of 8 and 16 heads (k of a fused qkv view, several
# tokens a block): template variants against the committed set, one process per set, three rounds
# rotated: kt_step (a thread's rows one head, kRows / heads tokens apart: one division a thread),
# kt_tok (whole tokens a block: no division, no bounds, 32-bit offsets in the block's tokens).
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s38call5
build_cli || exit 1
call_deadline=300
H8="--op rmsnorm --dtype bf16 --hidden 64 --heads 8 --qkv-heads 48 --tokens 8192,16384,32768,65536"
H16="--op rmsnorm --dtype bf16 --hidden 64 --heads 16 --qkv-heads 48 --tokens 4096,8192,16384,32768"
for r in 1 2 3; do
  case $r in 1) order="base step tok";; 2) order="tok base step";; 3) order="step tok base";; esac
  for v in $order; do
    td=""; [ $v = base ] || td=build-tmp/kt_$v
    NORMJIT_CACHE_DIR=$(mktemp -d) NORMJIT_TEMPLATE_DIR=$td bench_run h8-$v-r$r $H8
    NORMJIT_CACHE_DIR=$(mktemp -d) NORMJIT_TEMPLATE_DIR=$td bench_run h16-$v-r$r $H16
  done
done
for s in h8 h16; do for v in base step tok; do echo "== $s $v"; for r in 1 2 3; do grep -E "^rmsnorm" $R/$s-$v-r$r.txt | awk -v r=$r '{print $3,$4,$5,$6}'; done | sort -k1,1n | awk '{k=$1" "$2" "$3; if(k!=p){if(p!="")print l; l=k; p=k} l=l" "$4} END{print l}'; grep -h "FAILED\|error" $R/$s-$v-r*.txt | head -3; done; done
echo "done at $(elapsed) s"
