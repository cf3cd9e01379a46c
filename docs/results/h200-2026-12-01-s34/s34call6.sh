#!/usr/bin/env bash
# Session 34, call 6: rows of 32 vectors (head_dim 256) with the weight read once a block, dense
# and reconverted, or each alone (call 5: both together 0.7-1.6 % ahead), at 24576-524288 rows
# (the 32-lane layout from 262144), two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s34call6
build_cli || exit 1
call_deadline=300
X="default;dense=1,reconvert=1;reconvert=1;dense=1"
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
for round in 1 2; do cmp q256-r$round bf16,f16 24576,32768,131072,262144,524288 256 "$X"; done
for f in q256; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
