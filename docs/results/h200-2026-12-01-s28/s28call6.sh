#!/usr/bin/env bash
# Device call 6 (session 28): the GPU suite at 2931945 (rmsnorm rows of 257-511 vectors: re-read
# from 16384 rows, 128 threads below 8192), then the side-by-side at the widths the rule changes.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s28call6.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 380 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
left=$(( 585 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 1024,2048,16384,32768 \
  --hidden 2560,3072 --autotune-min-tokens 100000000 --reps 20 --csv "$R/short-peers.csv" > "$R/short-peers.txt" 2> "$R/short-peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/short-peers.txt" | grep -v "^|---\|^| shape" | cut -c1-160
