#!/usr/bin/env bash
# Session 33, call 4: the 3-D per-head table with the dense rule (rows of 8 and 16 vectors eight to
# a thread from 131072 rows), and the 2-D rows around its thresholds, default against the old
# layouts, interleaved.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s33call4
build_cli || exit 1
call_deadline=100
bench_compare rule128 rmsnorm bf16 131071,131072,221184,262144,393215,393216 128 "default;rpt=4,tpr=8,rpb=8,residency=0,dense=0;rpt=4,tpr=16,rpb=4,residency=0,dense=0"
bench_compare rule64 rmsnorm bf16 131072,262144,524288 64 "default;rpt=4,tpr=8,rpb=8,residency=0,dense=0"
for f in rule128 rule64; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f.txt" | awk '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print $2,$3,$4,$5,$6,$12,$NF}'; done
REBUILD=1 timeout 400 bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 --csv "$R/3d.csv" > "$R/3d.txt" 2> "$R/3d-stderr.txt"
echo "3d rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d.txt" | tail -8
echo "done at $(elapsed) s"
