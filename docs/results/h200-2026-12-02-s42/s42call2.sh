#!/usr/bin/env bash
# Session 42, call 2: why the persistent grid ran slower (call 1): the occupancy's resident blocks
# (printed), and the same kernel on grids scaled from it (NJ_TMP_RESIDENT_SCALE, a temporary
# diagnostic; 100: the whole grid, one row a cluster).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s42call2
build_cli test_gpu || exit 1
call_deadline=560
C="default;persistent=1"
for sc in 1 100 0.5 0.75 0.9; do
  NJ_TMP_RESIDENT_SCALE=$sc bench_run f262-s$sc --op fused_add_rmsnorm --dtype bf16 --hidden 262144 --tokens 1024 --compare "$C"
  NJ_TMP_RESIDENT_SCALE=$sc bench_run f65-s$sc --op fused_add_rmsnorm --dtype bf16 --hidden 65536 --tokens 1024 --compare "$C"
done
for f in $R/f*-s*.txt; do echo "== $f"; grep -E "resident|x[01]\.[0-9]+" $f | head -8; done
timeout 120 build-gpu/tests/gpu/test_gpu "forced configs: staged rows on a persistent grid" > "$R/test-persistent.txt" 2>&1
echo "test rc=$? at $(elapsed) s"; tail -3 "$R/test-persistent.txt"
echo "done at $(elapsed) s"
