#!/usr/bin/env bash
# Session 69, call 4 (carry build-tmp .devdeps): session 68's cluster tiles (clusters of several
# rows a block, each CTA a column share) against the default on the H200, bench --latency, one
# process each, memset fills, then kernel fills.
source "$(dirname "$0")/../scripts/device_call.sh" s69call4
call_deadline=${CALL_DEADLINE:-200}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
build_cli || exit 1
L=$R/latency
lat default
lat c2r2t128 --config cluster=2,rpb=2,tpr=128
lat c4r4t32p4 --config cluster=4,rpb=4,tpr=32,residency=0,pin_weight=4
lat c8r8t32p4 --config cluster=8,rpb=8,tpr=32,residency=0,pin_weight=4
lat c4r4t64 --config cluster=4,rpb=4,tpr=64
lat default2
lat kdefault --fill kernel
lat kc2r2t128 --fill kernel --config cluster=2,rpb=2,tpr=128
lat kc4r4t32p4 --fill kernel --config cluster=4,rpb=4,tpr=32,residency=0,pin_weight=4
echo "== memset: default / c2r2t128 / c4r4t32p4 / c8r8t32p4 / c4r4t64 / default"
python3 scripts/latency_compare.py $L-default.txt $L-c2r2t128.txt $L-c4r4t32p4.txt $L-c8r8t32p4.txt $L-c4r4t64.txt $L-default2.txt
echo "== kernel fills: default / c2r2t128 / c4r4t32p4"
python3 scripts/latency_compare.py $L-kdefault.txt $L-kc2r2t128.txt $L-kc4r4t32p4.txt
echo "done at $(elapsed) s"
