#!/usr/bin/env bash
# Session 33, call 2: dense rows (bench now sets ProblemSpec::dense_rows for its contiguous rows),
# against the defaults at rows of 128, 256 and 64 elements, interleaved in one process.
source "$(dirname "$0")/../scripts/device_call.sh" s33call2
build_cli || exit 1
call_deadline=560
C128="default;rpt=2,tpr=8,rpb=16,residency=0,dense=1;rpt=4,tpr=8,rpb=8,residency=0,dense=1;rpt=4,tpr=16,rpb=4,residency=0,dense=1;rpt=8,tpr=16,rpb=4,residency=0,reconvert=1,dense=1;rpt=8,tpr=16,rpb=4,residency=0,dense=1;rpt=8,tpr=8,rpb=8,residency=0,reconvert=1,dense=1"
bench_compare d128 rmsnorm bf16 16384,32768,65536,131072,221184,262144,524288 128 "$C128"
C256="default;rpt=2,tpr=16,rpb=8,residency=0,dense=1;rpt=2,tpr=32,rpb=4,residency=0,dense=1;rpt=4,tpr=16,rpb=4,residency=0,dense=1;rpt=4,tpr=16,rpb=4,residency=0,reconvert=1,dense=1;rpt=4,tpr=32,rpb=4,residency=0,reconvert=1,dense=1;rpt=8,tpr=32,rpb=4,residency=0,reconvert=1,dense=1"
bench_compare d256 rmsnorm bf16 16384,32768,65536,131072,262144 256 "$C256"
C64="default;rpt=4,tpr=8,rpb=8,residency=0,dense=1;rpt=8,tpr=8,rpb=8,residency=0,dense=1;rpt=8,tpr=8,rpb=8,residency=0,reconvert=1,dense=1;rpt=8,tpr=4,rpb=16,residency=0,reconvert=1,dense=1"
bench_compare d64 rmsnorm bf16 65536,131072,262144,524288 64 "$C64"
C128h="default;rpt=4,tpr=8,rpb=8,residency=0,dense=1;rpt=8,tpr=16,rpb=4,residency=0,reconvert=1,dense=1"
bench_compare d128h rmsnorm f16 65536,221184 128 "$C128h"
for f in d128 d256 d64 d128h; do echo "== $f"; grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f.txt" | awk '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,200); else print $2,$3,$4,$5,$6,$12,$NF}'; done
