#!/usr/bin/env bash
# Session 68, call 1 (carry build-tmp .devdeps): clusters of several rows a block (each CTA a
# column share of each of its cluster's rows, so a CTA reads 1/cluster of the weight) against the
# default at the decode sizes, bench --latency, buffers filled by memset, one process each; then
# the GPU test of those configs against the float64 reference.
source "$(dirname "$0")/../scripts/device_call.sh" s68call1
call_deadline=${CALL_DEADLINE:-450}
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | head -1
build_cli test_gpu || exit 1
# lat NAME [ARGS]: scripts/device_call.sh (the same function was defined here when call 1 ran).
L=$R/latency
left=$(time_left) && {
  timeout $((left > 120 ? 120 : left)) build-gpu/tests/gpu/test_gpu "forced configs: clusters of several rows a block*" > "$R/test-tiles.txt" 2>&1
  echo "tiles test rc=$? at $(elapsed) s"; tail -3 "$R/test-tiles.txt"; grep -m5 -B3 -A8 FAILED "$R/test-tiles.txt"; }
lat default
lat c8r8t32 --config cluster=8,rpb=8,tpr=32
lat c8r8t32p4 --config cluster=8,rpb=8,tpr=32,residency=0,pin_weight=4
lat c4r4t32 --config cluster=4,rpb=4,tpr=32
lat c4r4t32p4 --config cluster=4,rpb=4,tpr=32,residency=0,pin_weight=4
lat c2r2t128 --config cluster=2,rpb=2,tpr=128
lat default2
echo "== memset: default / c8r8t32 / c8r8t32p4 / c4r4t32 / c4r4t32p4 / c2r2t128 / default"
python3 scripts/latency_compare.py $L-default.txt $L-c8r8t32.txt $L-c8r8t32p4.txt $L-c4r4t32.txt $L-c4r4t32p4.txt $L-c2r2t128.txt $L-default2.txt
grep -h "same-bytes copy" $L-default.txt | grep " 128 x \| 32 x 8192" | head -12
lat c4r4t64 --config cluster=4,rpb=4,tpr=64
lat c8r8t32r0 --config cluster=8,rpb=8,tpr=32,residency=0
lat c4r4t32r1 --config cluster=4,rpb=4,tpr=32,residency=1
lat c8r4t64p4 --config cluster=8,rpb=4,tpr=64,residency=0,pin_weight=4
[ -f $L-c8r4t64p4.txt ] && python3 scripts/latency_compare.py $L-default.txt $L-c4r4t64.txt $L-c8r8t32r0.txt $L-c4r4t32r1.txt $L-c8r4t64p4.txt $L-default2.txt
echo "done at $(elapsed) s"
