#!/usr/bin/env bash
# Session 42, call 1: the persistent grid for staged rows (KernelConfig::persistent). First its
# GPU test (every op, four shapes, rows above and below what fits at once), then the wide staged
# defaults against the same config on a persistent grid, interleaved in one process, two rounds.
# Carry: build-tmp .devdeps
source "$(dirname "$0")/../scripts/device_call.sh" s42call1
build_cli test_gpu || exit 1
timeout 200 build-gpu/tests/gpu/test_gpu "forced configs: staged rows on a persistent grid" > "$R/test-persistent.txt" 2>&1
echo "test rc=$? at $(elapsed) s"; tail -5 "$R/test-persistent.txt"
grep -B3 -A12 "FAILED" "$R/test-persistent.txt" | head -60
call_deadline=560
C="default;persistent=1"
for r in 1 2; do
  bench_run fw-r$r --op fused_add_rmsnorm --dtype bf16 --hidden 262144,131072,65536 --tokens 1024 --compare "$C"
  bench_run rw-r$r --op rmsnorm --dtype bf16 --hidden 262144,131072 --tokens 1024 --compare "$C"
done
bench_run fw4k-r1 --op fused_add_rmsnorm --dtype bf16 --hidden 262144 --tokens 4096 --compare "$C"
for n in fw rw; do rounds_side_by_side $n 2; done
rounds_side_by_side fw4k 1
echo "done at $(elapsed) s"
