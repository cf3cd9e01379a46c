#!/usr/bin/env bash
# Session 42, call 4: does the occupancy calculator undercount the clusters that fit? The persistent
# grid at the calculator's clusters (scale 1) and at more (fused add 262144: 21 -> 24, 25 clusters;
# rmsnorm 131072 on 4 x 512: 92 -> 99 clusters), one process each, beside the default.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s42call4
build_cli || exit 1
call_deadline=300
C="default;persistent=1"
for sc in 1 1.143 1.19; do
  NJ_TMP_RESIDENT_SCALE=$sc bench_run f262-s$sc --op fused_add_rmsnorm --dtype bf16 --hidden 262144 --tokens 1024,4096 --compare "$C"
done
for sc in 1 1.076 1.12; do
  NJ_TMP_RESIDENT_SCALE=$sc bench_run r131-s$sc --op rmsnorm --dtype bf16 --hidden 131072 --tokens 1024 --compare "$C"
done
for f in $R/f262-s*.txt $R/r131-s*.txt; do echo "== $f"; grep -E "scaled|x[01]\.[0-9]+" $f | awk '{if ($1=="resident_blocks") print; else print $2,$3,$4,$5,$6,$7,$8}'; done
echo "done at $(elapsed) s"
