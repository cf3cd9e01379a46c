#!/usr/bin/env bash
# Device call 4 (session 27): the GPU suite at 533c72e (rmsnorm rows of 896-1280 vectors re-read
# on 512 threads from 16384 rows), then the side-by-side at the widths the rule changes.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s27call4.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 360 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
left=$(( 585 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 8192,16384,32768 \
  --hidden 7168,9216,10240 --autotune-min-tokens 100000000 --reps 20 --csv "$R/npot-peers.csv" > "$R/npot-peers.txt" 2> "$R/npot-peers-stderr.txt"
echo "peers rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/npot-peers.txt" | grep -v "^|---\|^| shape" | cut -c1-150
