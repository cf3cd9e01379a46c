#!/usr/bin/env bash
# Device call 6 (session 25): the GPU suite at the final kernel tree (rmsnorm's 1281-2047-vector
# rows with the weight late from kHintedWideRows rows), and the side-by-side at rmsnorm
# 12288-14336 x 512-8192. Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s25call6.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
left=$(( 450 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm --tokens 512,2048,8192 \
  --hidden 12288,14336 --autotune-min-tokens 100000000 --reps 20 --csv "$R/rms-mid.csv" > "$R/rms-mid.txt" 2> "$R/rms-mid-stderr.txt"
echo "table rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/rms-mid.txt" | grep -v "^|---\|^| shape" | tail -8 | cut -c1-150
