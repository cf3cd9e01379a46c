#!/usr/bin/env bash
# Session 33, call 7: rmsnorm's wide rows of 4096 vectors (1024-4096 x 32768) held in registers with
# the output converted again (reconvert: no fp32 copies across the reduction), against the default
# re-read on 1024 threads; and rows of 2048 vectors (x 16384) likewise. Interleaved, 60 samples.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s33call7
build_cli || exit 1
cmp() { timeout 150 $nj bench --op rmsnorm --dtype bf16 --tokens "$2" --hidden "$3" --reps 60 --compare "$4" > "$R/$1.txt" 2>&1; echo "$1 rc=$? at $(elapsed) s"; }
cmp hold32768 1024,2048,4096 32768 "default;tpr=1024,residency=0,reconvert=1;tpr=1024,residency=0,reconvert=0;tpr=512,residency=0,reconvert=1;tpr=1024,residency=0,reconvert=1,minb=2"
cmp hold16384 1024,2048,8192 16384 "default;tpr=1024,residency=0,reconvert=1;tpr=512,residency=0,reconvert=1;tpr=256,residency=0,reconvert=1"
for f in hold32768 hold16384; do grep -E "x[01]\.[0-9]+|not valid|FAILED" "$R/$f.txt" | awk '{ if ($0 ~ /not valid|FAILED/) print substr($0,1,220); else print $3,$4,$5,$6,$12,$NF}'; done
