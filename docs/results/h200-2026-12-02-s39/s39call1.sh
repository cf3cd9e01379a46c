#!/usr/bin/env bash
# Session 39, call 1: (a) strided per-head rows of 64, 24 heads of a [tokens, 72, 64] qkv (SD3):
# head blocks of 12 row groups (24 rows a block = one token's heads) against the default's 16 x 2,
# bf16 two rounds, f16 one; (b) the same views beside the peers; (c) wide rows: is rmsnorm
# 1024 x 32768's gap the last wave (rows 792 / 1024 / 1056 / 1320, 264 resident rows), and split
# rows there; the fused add 262144 at 792 / 1024 / 1056 rows.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s39call1
build_cli || exit 1
call_deadline=250
HB="tpr=8,rpb=12,rpt=2,head_blocks=1,weight_shared=1,reconvert=1"
NB="tpr=8,rpb=12,rpt=2,weight_shared=1,reconvert=1"
A="--hidden 64 --heads 24 --qkv-heads 72 --tokens 2048,4096,8192,16384"
bench_run hb24-r1 --op rmsnorm --dtype bf16 $A --compare "default;$HB;$NB"
bench_run hb24-r2 --op rmsnorm --dtype bf16 $A --compare "default;$HB;$NB"
bench_run hb24f-r1 --op rmsnorm --dtype f16 $A --compare "default;$HB;$NB"
rounds_side_by_side hb24 2; rounds_side_by_side hb24f 1
left=$(( 400 - $(elapsed) ))
if [ $left -gt 30 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
    --heads 2048x24x64/72,4096x24x64/72,8192x24x64/72,16384x24x64/72 --csv "$R/p24.csv" > "$R/p24.txt" 2> "$R/p24-stderr.txt"
  echo "p24 rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/p24.txt" | tail -8
fi
call_deadline=540
bench_run wtail --op rmsnorm --dtype bf16 --hidden 32768 --tokens 792,1024,1056,1320 --reps 40
bench_run wsplit --op rmsnorm --dtype bf16 --hidden 32768 --tokens 1024 --reps 40 \
  --compare "default;split=2;tpr=512,split=2;tpr=512,residency=2"
call_deadline=595
bench_run ftail --op fused_add_rmsnorm --dtype bf16 --hidden 262144 --tokens 792,1024,1056 --reps 20
grep -h "bf16" "$R"/wtail.txt "$R"/wsplit.txt "$R"/ftail.txt | cut -c1-150
echo "done at $(elapsed) s"
