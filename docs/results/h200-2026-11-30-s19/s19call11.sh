#!/usr/bin/env bash
# Device call 11 (session 19, at 2855885: static_weight's weight-first kernels below 256 rows of up
# to 512 vectors): the GPU suite without its bench and peers parts, then bench --latency (the
# static-weight column). Carry: .devdeps cache/prewarmed build-tmp
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
export OUT=$R
NORMJIT_SKIP_BENCH=1 timeout 215 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; tail -30 "$R/pytest.log"; exit 1; }
timeout 30 build-gpu/normjit bench --latency > "$R/latency.txt" 2>&1
grep -E "overhead|worst| 128 x " "$R/latency.txt"
echo "done at $(( $(date +%s) - start )) s"
