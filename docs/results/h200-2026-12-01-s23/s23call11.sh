#!/usr/bin/env bash
# Device call 11 (session 23): the GPU suite at the final tree 8344d26 (rows_per_thread 8 forced in
# the GPU tests, the 3-D tests through check_per_head). Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s23call11.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 360 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
