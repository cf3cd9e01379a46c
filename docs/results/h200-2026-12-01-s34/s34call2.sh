#!/usr/bin/env bash
# Session 34, call 2: weight_shared against each default at per-head rows of 64, 128 and 256
# (16-bit), over the row counts where the defaults change layout, three rounds in three processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s34call2
build_cli || exit 1
call_deadline=570
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
for round in 1 2 3; do
  cmp s256-r$round bf16,f16 8192,16384,32768,65536,131072,262144,524288 256 "default;weight_shared=1"
  cmp s64-r$round bf16,f16 98304,131072,196608,262144,393216,524288 64 "default;weight_shared=1"
  cmp s128-r$round bf16,f16 32768,65536,98304,131072,196608,262144 128 "default;weight_shared=1"
done
# Side by side: round, dtype, tokens, hidden, config, median per line.
for f in s256 s64 s128; do echo "== $f"; for r in 1 2 3; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
