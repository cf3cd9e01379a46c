#!/usr/bin/env bash
# Session 37, call 5 (the head_blocks tree; lean: the device budget left was ~370 s): the new
# head-blocks GPU test and the bench --heads test; the rule's A/B, default (head blocks) against
# head_blocks=0, interleaved, rounds in separate processes: q of [T, 48, 64] (32 heads) and of
# [T, 96, 64] (64 heads); then, time permitting, the strided head_dim-64 shapes beside the peers.
# Carry: build-tmp .devdeps .whl
source "$(dirname "$0")/../scripts/device_call.sh" s37call5
build_cli test_gpu || exit 1
NORMJIT_CACHE_DIR=$(mktemp -d) timeout 90 ctest --test-dir build-gpu -L gpu -j 2 --output-on-failure \
  -R "head blocks|bench --heads" > "$R/ctest-3d.txt" 2>&1
echo "ctest rc=$? at $(elapsed) s"; grep -E "tests passed|tests failed|Failed|Passed" "$R/ctest-3d.txt" | tail -6
call_deadline=190
C="default;head_blocks=0"
bench_run q64-r1 --op rmsnorm --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 2560,4096,8192,16384 --compare "$C"
bench_run q64x64-r1 --op rmsnorm --dtype bf16 --hidden 64 --heads 64 --qkv-heads 96 --tokens 2048,4096,8192 --compare "$C"
bench_run q64-r2 --op rmsnorm --dtype bf16,f16 --hidden 64 --heads 32 --qkv-heads 48 --tokens 2560,4096,8192,16384 --compare "$C"
rounds_side_by_side q64 2; rounds_side_by_side q64x64 1
left=$(( 245 - $(elapsed) ))
if [ $left -gt 30 ]; then
  REBUILD=1 timeout $left bash scripts/peers_bench.sh --ops rmsnorm_3d --autotune-min-tokens 100000000 --reps 40 \
    --heads 8192x32x64/48,4096x32x64/48,32768x8x64/48 \
    --csv "$R/3d-strided.csv" > "$R/3d-strided.txt" 2> "$R/3d-strided-stderr.txt"
  echo "3d-strided rc=$? at $(elapsed) s"; grep "^|\|geomean" "$R/3d-strided.txt" | tail -5
fi
echo "done at $(elapsed) s"
