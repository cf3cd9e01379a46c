#!/usr/bin/env bash
# Session 33, call 8: below the dense rule's 131072 rows. Rows of 64 (SD3's head_dim: 4096 tokens
# x 24 heads = 98304 rows) and of 128 (FLUX's 4608 x 24 = 110592) at 32768-110592 rows, the
# default against 4 and 8 rows a thread, dense, with and without reconvert; 60 samples, two rounds.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s33call8
build_cli || exit 1
cmp() { timeout 120 $nj bench --op rmsnorm --dtype "$2" --tokens "$3" --hidden "$4" --reps 60 --compare "$5" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
C64="default;rpt=4,tpr=8,rpb=8,residency=0,reconvert=0,dense=1;rpt=8,tpr=8,rpb=8,residency=0,reconvert=1,dense=1;rpt=8,tpr=8,rpb=8,residency=0,reconvert=0,dense=1"
C128="default;rpt=8,tpr=16,rpb=4,residency=0,reconvert=1,dense=1;rpt=4,tpr=8,rpb=8,residency=0,reconvert=0,dense=1"
for r in 1 2; do
  cmp below64-r$r bf16,f16 32768,49152,65536,98304 64 "$C64"
  cmp below128-r$r bf16,f16 65536,98304,110592 128 "$C128"
done
for f in below64-r1 below64-r2 below128-r1 below128-r2; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f.txt" | awk '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,220); else print $2,$3,$5,$6}'; done
