#!/usr/bin/env bash
# Session 69, call 5 (carry build-tmp .devdeps): other layouts of the few-row misses (the fused add
# 32 x 8192, rmsnorm 128 x 4096) on the H200: one CTA a row on 512 / 1024 threads, 2- and 8-CTA
# clusters, split rows; bench --latency, memset fills, one process each.
source "$(dirname "$0")/../scripts/device_call.sh" s69call5
call_deadline=${CALL_DEADLINE:-150}
build_cli || exit 1
L=$R/latency
lat default
lat c1t1024 --config cluster=1,tpr=1024
lat c1t512 --config cluster=1,tpr=512
lat c2 --config cluster=2
lat c8 --config cluster=8
lat s4 --config split=4
lat default2
python3 scripts/latency_compare.py $L-default.txt $L-c1t1024.txt $L-c1t512.txt $L-c2.txt $L-c8.txt $L-s4.txt $L-default2.txt
for f in c1t1024 c2 s4; do grep -m3 -i "error\|refus\|invalid" $L-$f.txt; done
echo "done at $(elapsed) s"
