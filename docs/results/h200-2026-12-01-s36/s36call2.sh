#!/usr/bin/env bash
# Session 36, call 2: strided head_dim-64 rows ([tokens, 32, 64] viewed in [tokens, 48, 64]) on
# 8 lanes x 16 row groups (call 1's sweep: 1-1.4 % ahead of the default at 8192 tokens), two or
# four rows a thread, with and without the shared weight, interleaved, two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call2
build_cli || exit 1
call_deadline=560
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --op rmsnorm --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
for round in 1 2; do
  cmp q64-r$round --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 2048,4096,6144,8192,10240,16384,24576 --compare "default;tpr=8,rpb=16,rpt=2;tpr=8,rpb=16,rpt=2,weight_shared=1;tpr=8,rpb=16,rpt=4;tpr=8,rpb=16,rpt=4,weight_shared=1;tpr=8,rpb=16,rpt=4,reconvert=1,weight_shared=1"
  cmp k64-r$round --dtype bf16 --hidden 64 --heads 8 --qkv-heads 48 --tokens 16384,32768 --compare "default;tpr=8,rpb=16,rpt=2;tpr=8,rpb=16,rpt=2,weight_shared=1;tpr=8,rpb=16,rpt=4,weight_shared=1"
done
for f in q64 k64; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
