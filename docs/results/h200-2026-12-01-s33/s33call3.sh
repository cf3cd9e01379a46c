#!/usr/bin/env bash
# Session 33, call 3: confirm the candidates of call 2 (8 rows a thread, reconverted, dense) at the
# per-head rows of 64 and 128 from 131072 rows, two rounds in two processes, 60 samples.
source "$(dirname "$0")/../scripts/device_call.sh" s33call3
build_cli || exit 1
call_deadline=560
X128="default;rpt=8,tpr=16,rpb=4,residency=0,reconvert=1,dense=1;rpt=4,tpr=16,rpb=4,residency=0,dense=1;rpt=8,tpr=16,rpb=4,residency=0,reconvert=1,dense=0"
X64="default;rpt=8,tpr=8,rpb=8,residency=0,reconvert=1,dense=1;rpt=8,tpr=8,rpb=8,residency=0,dense=1;rpt=4,tpr=8,rpb=8,residency=0,dense=1"
cmp() { local left=$(( call_deadline - $(elapsed) )); [ $left -lt 20 ] && { echo "skip $1"; return; }
  timeout $left $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
for round in 1 2; do
  cmp c128-r$round bf16,f16 131072,221184,262144,393216,524288 128 "$X128"
  cmp c64-r$round bf16,f16 131072,262144,524288,1048576 64 "$X64"
done
for f in c128-r1 c128-r2 c64-r1 c64-r2; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f.txt" | awk '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print $2,$3,$4,$5,$6,$12}'; done
