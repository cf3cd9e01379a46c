#!/usr/bin/env bash
# Session 34, call 5: rows of 32 vectors (head_dim 256), where torch.compile stays 1.1-1.2 % ahead
# after the weight_shared rule (call 4's table): its plan (32 lanes, four rows a thread, one warp a
# CTA) and neighbours in our template, dense and reconverted, two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s34call5
build_cli || exit 1
call_deadline=300
X="default;rpt=4,tpr=32,rpb=1,residency=0,dense=1,reconvert=1;rpt=4,tpr=32,rpb=2,residency=0,dense=1,reconvert=1,weight_shared=1"
X="$X;rpt=2,tpr=32,rpb=4,residency=0,dense=1,reconvert=1,weight_shared=1;dense=1,reconvert=1;rpt=4,tpr=32,rpb=1,residency=0"
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
for round in 1 2; do cmp p256-r$round bf16,f16 32768,65536,131072 256 "$X"; done
for f in p256; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
