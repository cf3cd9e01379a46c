#!/usr/bin/env bash
# Session 34, call 3: weight_shared against the defaults at the edges of call 2's gains (per-head
# rows of 64 from 49152 to 180224, of 256 from 24576 to 98304), three rounds in three processes.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s34call3
build_cli || exit 1
call_deadline=570
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
for round in 1 2 3; do
  cmp e256-r$round bf16,f16 24576,32768,49152,65536,98304 256 "default;weight_shared=1"
  cmp e64-r$round bf16,f16 49152,65536,81920,114688,131072,163840,180224 64 "default;weight_shared=1"
done
# Side by side: round, dtype, tokens, hidden, config, median per line.
for f in e256 e64; do echo "== $f"; for r in 1 2 3; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f-r$r.txt" | awk -v r=$r '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print r,$2,$3,$4,$5,$6}'; done | sort -k2,2 -k3,3n -k5,5 -k1,1n | awk '{k=$2" "$3" "$4" "$5; if (k!=p) {if (p!="") print line; line=k; p=k} line=line" "$6} END {print line}'; done
