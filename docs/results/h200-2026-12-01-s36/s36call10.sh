#!/usr/bin/env bash
# Session 36, call 10: below the new windows: dense head_dim 64 at 32768-81920 rows (two or four a
# thread on 8 lanes x 16 row groups), dense head_dim 128 at 24576-49152 rows, strided head_dim 64
# at 65536-98304 rows; interleaved, 60 samples, three rounds in separate processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s36call10
build_cli || exit 1
call_deadline=200
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  local name=$1; shift
  timeout $left $nj bench --reps 60 "$@" > "$R/$name.txt" 2>&1; echo "$name rc=$? at $(elapsed) s"; }
S="tpr=8,rpb=16,rpt=2,reconvert=1,weight_shared=1"
for round in 1 2 3; do
  cmp d64-r$round --op rmsnorm --dtype bf16,f16 --hidden 64 --tokens 32768,49152,65536,81920 --compare "default;$S,dense=1;tpr=8,rpb=16,rpt=4,reconvert=1,weight_shared=1,dense=1"
  cmp d128-r$round --op rmsnorm --dtype bf16,f16 --hidden 128 --tokens 24576,32768,40960 --compare "default;$S,dense=1"
  cmp q64-r$round --op rmsnorm --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 2048,3072 --compare "default;$S"
done
for f in d64 d128 q64; do for r in 1 2 3; do grep -E "x[01]\.[0-9]+" "$R/$f-r$r.txt" | awk -v f=$f '{d=($NF=="[default]")?"D":$5; print f,$2,$3,d,$6}'; done; done | awk '{k=$1" "$2" "$3; s[k" "$4]+=$5; n[k" "$4]++; K[k]=1; V[$4]=1} END {for (k in K) { d=s[k" D"]/n[k" D"]; line=k" D="sprintf("%.2f",d); for (v in V) if (v!="D" && n[k" "v]) line=line" "v"="sprintf("%.3f", s[k" "v]/n[k" "v]/d); print line } }' | sort -k1,1 -k2,2 -k3,3n
for f in d64 d128 q64; do grep -h "\[default\]" "$R/$f-r1.txt" | awk '{print $2,$3,$4,$5}'; done
