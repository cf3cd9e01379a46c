#!/usr/bin/env bash
# Session 34, call 8: weight_shared on the other rows-per-thread layout, rmsnorm rows of 65-96
# vectors (hidden 520-768: 32 lanes x 4 rows a block, two rows a thread), and rows of 24 vectors
# (hidden 192), against the defaults, two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s34call8
build_cli || exit 1
call_deadline=200
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
for round in 1 2; do cmp m-r$round bf16,f16 8192,32768,131072 576,640,768,192 "default;weight_shared=1"; done
for f in m; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k4,4n -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
