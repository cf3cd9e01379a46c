#!/usr/bin/env bash
# Device call 3 (session 25): the GPU suite at 3e1dd93 (rows whose vector count is not a power of
# two), and the side-by-side at widths 2560-3584 and 10240-14336.
# Carry: build-tmp .devdeps .whl cache/prewarmed
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s25call3.tgz r' EXIT
export OUT=$R
NORMJIT_SKIP_BENCH=0 timeout 330 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
rc=$?
echo "suite rc=$rc at $(( $(date +%s) - start )) s"
sed -n '/== SUMMARY/,$p' "$R/gpu-suite.txt" | tail -10
[ $rc -eq 0 ] || { grep -B2 -A12 "FAILED" "$R/ctest-gpu.log" | head -60; }
left=$(( 585 - ($(date +%s) - start) ))
REBUILD=0 timeout $left bash scripts/peers_bench.sh --ops rmsnorm,fused_add_rmsnorm --tokens 512,2048,8192,32768 \
  --hidden 2560,3072,3584,10240,12288,14336 --autotune-min-tokens 100000000 --reps 20 --csv "$R/models.csv" > "$R/models.txt" 2> "$R/models-stderr.txt"
echo "models rc=$? at $(( $(date +%s) - start )) s"; grep "^|\|geomean" "$R/models.txt" | grep -v "^|---\|^| shape" | tail -52 | cut -c1-150
