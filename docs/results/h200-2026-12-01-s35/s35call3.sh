#!/usr/bin/env bash
# Session 35, call 3: strided per-head rows (q/k views of a fused qkv tensor) on the new kernels
# (9e88edb): the defaults against reconvert and the shared weight, interleaved, two rounds in two
# processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s35call3
build_cli || exit 1
call_deadline=200
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --op rmsnorm --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
for round in 1 2; do
  cmp q128-r$round --dtype bf16,f16 --hidden 128 --heads 32 --qkv-heads 48 --tokens 1024,2048,4096,8192,16384 --compare "default;reconvert=1;reconvert=1,weight_shared=1;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1"
  cmp q64-r$round --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 2048,4096,8192,16384 --compare "default;reconvert=1;reconvert=1,weight_shared=1"
done
for f in q128 q64; do echo "== $f"; for r in 1 2; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
