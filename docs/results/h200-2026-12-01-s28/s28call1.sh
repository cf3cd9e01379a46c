#!/usr/bin/env bash
# Device call 1 (session 28): the GPU suite at b169861 (bench --sweep/--compare report a failing
# config and go on; three new [bench] GPU tests), then a whole sweep at rmsnorm 8192 x 7168 bf16.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s28call1.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 380 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
grep -E "bench|Failed|FAILED" "$R/ctest-gpu.log" | head -20
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
b=$(ls -d build-gpu* 2>/dev/null | head -1); echo "build dir: $b"
left=$(( 560 - ($(date +%s) - start) ))
[ -x "$b/normjit" ] && timeout $left "$b/normjit" bench --op rmsnorm --tokens 8192 --hidden 7168 --reps 20 --sweep > "$R/sweep-8192x7168.txt" 2>&1
echo "sweep rc=$? at $(( $(date +%s) - start )) s"; grep -c "^rmsnorm" "$R/sweep-8192x7168.txt"; grep "best:\|FAILED\|failed" "$R/sweep-8192x7168.txt" | head
