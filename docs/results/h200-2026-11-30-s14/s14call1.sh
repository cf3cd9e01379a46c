#!/usr/bin/env bash
# Device call 1 (session 14, prepared in session 13): the GPU suite on main (bc5d350 and 0cd96f9,
# rmsnorm 16384 re-read from 8192 rows and the weight reads, not yet run on the GPU), whole ctest log
# kept; then the side-by-side table with the time left. Carry: build-tmp .devdeps .whl cache/prewarmed.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s14call1.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 420 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$? at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -12
grep -E "Passed|Failed|FAILED" "$R/ctest-gpu.log" | tail -25
left=$(( 570 - ($(date +%s) - start) ))
echo "peers with ${left} s left"
if [ "$left" -gt 170 ]; then
  REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm \
    --autotune-min-tokens 8192 --reps 40 --csv "$R/peers-table.csv" > "$R/peers-table.txt" 2> "$R/peers-stderr.txt"
  echo "peers rc=$? at $(( $(date +%s) - start )) s"
  tail -4 "$R/peers-table.txt"
fi
