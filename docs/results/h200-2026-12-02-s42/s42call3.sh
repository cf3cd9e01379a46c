#!/usr/bin/env bash
# Session 42, call 3: the persistent grid with whole 16-byte stores and a relaxed cluster arrival
# (call 2 found the stores split in four and a MEMBAR.ALL.GPU). Its GPU test, then the wide
# staged defaults / the same on a persistent grid, two rounds; one round on the whole grid (one row
# a cluster: the loop's own cost).
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s42call3
build_cli test_gpu || exit 1
timeout 120 build-gpu/tests/gpu/test_gpu "forced configs: staged rows on a persistent grid" > "$R/test-persistent.txt" 2>&1
echo "test rc=$? at $(elapsed) s"; tail -3 "$R/test-persistent.txt"
call_deadline=560
C="default;persistent=1"
for r in 1 2; do
  bench_run fw-r$r --op fused_add_rmsnorm --dtype bf16 --hidden 262144,131072,65536 --tokens 1024 --compare "$C"
  bench_run rw-r$r --op rmsnorm --dtype bf16 --hidden 262144,131072 --tokens 1024 --compare "$C"
done
NJ_TMP_RESIDENT_SCALE=100 bench_run fwall-r1 --op fused_add_rmsnorm --dtype bf16 --hidden 262144,65536 --tokens 1024 --compare "$C"
bench_run fw4k-r1 --op fused_add_rmsnorm --dtype bf16 --hidden 262144,131072 --tokens 4096 --compare "$C"
bench_run f32-r1 --op fused_add_rmsnorm,rmsnorm --dtype fp32 --hidden 131072,262144 --tokens 1024 --compare "$C"
for n in fw rw; do rounds_side_by_side $n 2; done
for n in fwall fw4k f32; do rounds_side_by_side $n 1; done
grep -h resident_blocks $R/*.txt | sort -u
echo "done at $(elapsed) s"
