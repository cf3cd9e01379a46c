#!/usr/bin/env bash
# Session 36, call 5: where dense head_dim-128 rows gain from 8 lanes x 2 rows (16 rows a pass,
# shared weight, reconverted, dense-addressed) and dense head_dim-64 rows from 8 lanes x 4 rows
# (the same, 64 rows a block): the windows, against the defaults; interleaved, 60 samples, three
# rounds in separate processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call5
build_cli || exit 1
call_deadline=400
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
for round in 1 2 3; do
  cmp d128-r$round --op rmsnorm --dtype bf16,f16 --hidden 128 --tokens 49152,65536,98304,131072,163840,196608,221184,262144 --compare "default;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1,dense=1;tpr=8,rpb=16,rpt=4,reconvert=1,weight_shared=1,dense=1"
  cmp d64-r$round --op rmsnorm --dtype bf16,f16 --hidden 64 --tokens 65536,98304,131072,196608,262144,393216,524288 --compare "default;tpr=8,rpb=16,rpt=4,reconvert=1,weight_shared=1,dense=1;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1,dense=1"
done
cmp g128-r1 --op gemma_rmsnorm --dtype bf16 --hidden 128,64 --tokens 131072,196608 --compare "default;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1,dense=1;tpr=8,rpb=16,rpt=4,reconvert=1,weight_shared=1,dense=1"
for f in d128 d64; do echo "== $f"; for r in 1 2 3; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
grep -E "x[01]\.[0-9]+|FAILED" "$R/g128-r1.txt" | awk '{print $2,$3,$4,$5,$6,$11}'
