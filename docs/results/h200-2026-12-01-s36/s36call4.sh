#!/usr/bin/env bash
# Session 36, call 4: dense (contiguous) head_dim-64 and -128 rows on the strided rows' new layout
# (8 lanes x 2 rows, 16 rows a pass, shared weight, reconverted), dense-addressed or not, against
# the defaults; interleaved, 60 samples, rounds in separate processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call4
build_cli || exit 1
call_deadline=300
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
for round in 1 2 3; do
  cmp d128-r$round --op rmsnorm --dtype bf16,f16 --hidden 128 --tokens 131072,262144,393216 --compare "default;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1,dense=1;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1,dense=0;tpr=16,rpb=4,rpt=8,reconvert=1,weight_shared=1,dense=1"
  cmp d64-r$round --op rmsnorm --dtype bf16,f16 --hidden 64 --tokens 131072,262144,524288,1048576 --compare "default;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1,dense=1;tpr=8,rpb=16,rpt=4,reconvert=1,weight_shared=1,dense=1"
done
for f in d128 d64; do echo "== $f"; for r in 1 2 3; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
