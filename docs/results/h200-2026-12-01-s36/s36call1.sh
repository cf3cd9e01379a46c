#!/usr/bin/env bash
# Session 36, call 1: strided head_dim-64 rows (8192 x 32 x 64/48, 1.7 % behind torch.compile):
# a sweep, then layouts interleaved; the strided head_dim-128 window 262144-524288 rows (rule vs
# the layout outside it), two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call1
build_cli || exit 1
timeout 170 $nj bench --op rmsnorm --dtype bf16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 8192 --reps 30 --sweep > "$R/sweep-q64-8192.txt" 2>&1
echo "sweep rc=$? at $(elapsed) s"; grep best: "$R/sweep-q64-8192.txt"
sort -k6,6n "$R/sweep-q64-8192.txt" | grep -E "^rmsnorm" | head -12
call_deadline=560
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --op rmsnorm --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
for round in 1 2; do
  cmp q64-r$round --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 8192,12288,16384 --compare "default;reconvert=1,weight_shared=1;tpr=8,rpb=8,rpt=8;tpr=8,rpb=8,rpt=8,reconvert=1,weight_shared=1;tpr=8,rpb=16,rpt=2;tpr=4,rpb=16,rpt=4"
  cmp q128-r$round --dtype bf16,f16 --hidden 128 --heads 32 --qkv-heads 48 --tokens 8192,10240,12288,14336 --compare "default;tpr=16,rpb=4,rpt=4,reconvert=0,weight_shared=0"
done
for f in q64 q128; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
