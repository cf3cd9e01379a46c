#!/usr/bin/env bash
# Session 36, call 3: strided head_dim-64 rows on 8 lanes x 16 row groups, two rows a thread, the
# shared weight, with and without the reconverted output, against the defaults (131072 rows and
# more), interleaved, 60 samples, two rounds in two processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call3
build_cli || exit 1
call_deadline=560
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
C="default;tpr=8,rpb=16,rpt=2,reconvert=0,weight_shared=1;tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1"
for round in 1 2 3; do
  cmp q64-r$round --op rmsnorm --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 4096,6144,8192,12288,16384,32768 --compare "$C"
  cmp k64-r$round --op rmsnorm --dtype bf16,f16 --hidden 64 --heads 8 --qkv-heads 48 --tokens 16384,32768,65536 --compare "$C"
  cmp g64-r$round --op gemma_rmsnorm --dtype bf16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 4096,8192 --compare "$C"
done
for f in q64 k64 g64; do echo "== $f"; for r in 1 2 3; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
