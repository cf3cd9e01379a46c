#!/usr/bin/env bash
# Session 48, call 2: why the held-share rule lost in f16 at 36864 and 38912 (call 1: 5-6 % slower
# than the old default, while bf16 and f16 40960 were 3-8 % faster): the held f16 kernel without
# the pinned weight, with every item pinned, and without reconverting, beside the old default, at
# 1024 rows, two rounds; then the grid and the gemma table beside the peers on this tree.
# Carry: build-tmp .devdeps .whl cache/prewarmed
source "$(dirname "$0")/../scripts/device_call.sh" s48call2
build_cli > /dev/null || exit 1
call_deadline=150
h="cluster=8,tpr=128,residency=0,minb=8"
for r in 1 2; do
  bench_run f16held-r$r --op rmsnorm --dtype f16 --hidden 36864,38912,40960 --tokens 1024 \
    --compare "default;$h,pin_weight=0,reconvert=1;$h,pin_weight=1,reconvert=1;$h,pin_weight=2,reconvert=0;$h,pin_weight=0,reconvert=0;cluster=4,tpr=256,residency=4,minb=8,pin_weight=0,reconvert=0"
done
rounds_side_by_side f16held 2
OUT=$R PEERS_DEADLINE=$(( 570 - $(elapsed) )) REBUILD=1 bash scripts/peers_tables.sh grid gemma > $R/peers-tables.txt 2>&1
echo "tables rc=$? at $(elapsed) s"; tail -25 $R/peers-tables.txt
grep -h "geomean" $R/*.txt 2>/dev/null | head
echo "done at $(elapsed) s"
