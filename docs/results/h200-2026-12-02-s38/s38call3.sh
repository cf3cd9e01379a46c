#!/usr/bin/env bash
# Session 38, call 3: (a) output stores with an L2 evict-first hint (build-tmp/kt_ef) and
# streaming .cs stores (kt_cs) against the committed templates, rmsnorm and the fused add at
# 8192/32768 rows, one process per set, rounds rotated; (b) rmsnorm rows of 2048, warp rows held
# (residency 0) several a thread, dense, against the default.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s38call3
build_cli || exit 1
call_deadline=400
S="--op rmsnorm,fused_add_rmsnorm --dtype bf16 --tokens 8192,32768 --hidden 2048,4096,8192,16384"
for r in 1 2 3; do
  case $r in 1) order="base ef cs";; 2) order="cs base ef";; 3) order="ef cs base";; esac
  for v in $order; do
    if [ $v = base ]; then NORMJIT_CACHE_DIR=$(mktemp -d) bench_run st-$v-r$r $S
    else NORMJIT_CACHE_DIR=$(mktemp -d) NORMJIT_TEMPLATE_DIR=build-tmp/kt_$v bench_run st-$v-r$r $S; fi
  done
done
for v in base ef cs; do echo "== $v"; for r in 1 2 3; do grep -E "^(rmsnorm|fused)" $R/st-$v-r$r.txt | awk -v r=$r '{print $1,$3,$4,$6}'; done | sort -k1,1 -k2,2n -k3,3n | awk '{k=$1" "$2" "$3; if(k!=p){if(p!="")print l; l=k; p=k} l=l" "$4} END{print l}'; done
D="--op rmsnorm --dtype bf16 --hidden 2048 --tokens 8192,32768"
DC="default;tpr=32,rpb=4,residency=0,pin_weight=0;tpr=32,rpb=4,rpt=2,dense=1,residency=0,pin_weight=0;tpr=32,rpb=4,rpt=2,dense=1,residency=0,pin_weight=0,weight_shared=1;tpr=32,rpb=2,rpt=4,dense=1,residency=0,pin_weight=0;tpr=16,rpb=8,rpt=2,dense=1,residency=0,pin_weight=0,weight_shared=1"
for r in 1 2; do bench_run d2048-r$r $D --compare "$DC"; done
rounds_side_by_side d2048 2
echo "done at $(elapsed) s"
